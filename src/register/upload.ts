/**
 * Fast registration: uploading the package's source archive through the admin's data proxy.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { Buffer } from "node:buffer";
import type { AdminClient } from "../admin/client.ts";
import { AdminError } from "../admin/errors.ts";
import { OperationError, quote } from "../errors.ts";
import { putFile } from "./put_file.ts";

/** What to upload and for which project and domain. */
export interface UploadSourceOptions {
  /** Project the upload location is created for. */
  project: string;
  /** Domain the upload location is created for. */
  domain: string;
  /** The source archive on disk. */
  path: string;
  /** Its name as the user knows it (archive-relative); its base name is the upload's file name. */
  name: string;
}

/** Where the source archive went. */
export interface UploadedSource {
  /** Storage location (`s3://…`) that replaces `{{ .remote_package_path }}`. */
  location: string;
  /** MD5 of the bytes, as sent in `Content-MD5`. */
  md5Base64: string;
  /** Bytes uploaded. */
  size: number;
}

/**
 * Uploads a fast-registration source archive: `CreateUploadLocation` with the file's MD5, then an
 * HTTP PUT of the bytes, as they are, to the signed URL.
 *
 * @throws {OperationError} when the admin offers no signed URL (storage fallback is not supported
 *   yet), the RPC fails, or the upload is refused
 */
export async function uploadFastSource(
  client: Pick<AdminClient, "dataProxy">,
  options: UploadSourceOptions,
  signal?: AbortSignal,
): Promise<UploadedSource> {
  const { md5, size } = await md5File(options.path, signal);
  const filename = options.name.slice(options.name.lastIndexOf("/") + 1);
  const noSignedUrl = (why: string) =>
    new OperationError(
      `cannot upload fast-registration source ${
        quote(options.name)
      }: ${why}; uploading through configured storage is not supported yet`,
    );
  let location;
  try {
    location = await client.dataProxy.createUploadLocation({
      project: options.project,
      domain: options.domain,
      filename,
      contentMd5: md5,
    }, { signal });
  } catch (err) {
    if (err instanceof AdminError && err.status === "Unimplemented") {
      throw noSignedUrl("the admin service does not implement CreateUploadLocation");
    }
    throw err;
  }
  if (location.signedUrl === "") throw noSignedUrl("the admin service returned no signed URL");
  if (location.nativeUrl === "") {
    throw new OperationError(`the admin service returned no storage location for ${quote(options.name)}`);
  }
  const md5Base64 = Buffer.from(md5).toString("base64");
  // Header names are case-insensitive: let ours replace the data proxy's copy rather than duplicate it.
  const headers = new Headers(location.headers);
  headers.set("Content-MD5", md5Base64);
  await putFile(location.signedUrl, {
    path: options.path,
    size,
    headers: Object.fromEntries(headers),
    label: options.name,
    signal,
  });
  return { location: location.nativeUrl, md5Base64, size };
}

/** MD5 (not in WebCrypto, hence `node:crypto`) and size of a file, read as a stream. */
export async function md5File(path: string, signal?: AbortSignal): Promise<{ md5: Uint8Array; size: number }> {
  const hash = createHash("md5");
  let size = 0;
  const file = await Deno.open(path, { read: true });
  for await (const chunk of file.readable) {
    signal?.throwIfAborted();
    hash.update(chunk);
    size += chunk.length;
  }
  return { md5: new Uint8Array(hash.digest()), size };
}
