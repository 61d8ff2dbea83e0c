/**
 * Fast registration: uploading the package's source archive through the admin's data proxy, or, when
 * the admin has none, through the configured storage (`local` and `mem` only when explicitly allowed).
 *
 * @module
 */
import { createHash } from "node:crypto";
import { Buffer } from "node:buffer";
import type { AdminClient } from "../admin/client.ts";
import { AdminError } from "../admin/errors.ts";
import { OperationError, quote, UsageError } from "../errors.ts";
import { createHttpClient, type HttpClient } from "../http/http_client.ts";
import type { ObjectStore, StoreSource } from "../storage/store.ts";
import { joinReference } from "../storage/reference.ts";

/**
 * The source archive's bytes: a file on disk (`path`), or `bytes` in memory (a small source read with
 * its package never touches disk).
 */
export type SourceContent = { path: string; bytes?: never } | { bytes: Uint8Array; path?: never };

/** What to upload and for which project and domain. */
export type UploadSourceOptions = SourceContent & UploadTarget;

/** Where and under which names {@link uploadFastSource} uploads. */
export interface UploadTarget {
  /** Project the upload location is created for. */
  project: string;
  /** Domain the upload location is created for. */
  domain: string;
  /** The source's name as the user knows it (archive-relative); its base name is the upload's file name. */
  name: string;
  /** The MD5 and size when already known (taken while the file was extracted); otherwise they are computed. */
  digest?: FileDigest;
  /** Names the fallback object `fast/<version>-<file>`; the MD5 (hex) stands in when absent. */
  version?: string;
  /** Fallback location base (`--sourceUploadPath`) instead of the storage's container. */
  sourceUploadPath?: string;
  /**
   * Opens the configured storage, used when the admin has no upload location. A function, so that
   * storage is opened (its SDK loaded, its settings checked) only when it is needed.
   */
  openStorage?: () => ObjectStore | Promise<ObjectStore>;
  /**
   * Accepts `local` and `mem` storage for the fallback. Off by default: the admin's cluster cannot read
   * what they hold, so the registration would succeed and its tasks fail; only for an admin on this machine.
   */
  allowLocalStorage?: boolean;
  /** The HTTP client the bytes are PUT with; default: one with no proxy and the system roots. */
  http?: HttpClient;
}

/** Where the source archive went. */
export interface UploadedSource {
  /** Storage location (`s3://…`) that replaces `{{ .remote_package_path }}`. */
  location: string;
  /** MD5 of the bytes, as sent in `Content-MD5`. */
  md5Base64: string;
  /** Bytes uploaded. */
  size: number;
  /** Through the admin's signed URL, or through the configured storage. */
  via: "dataProxy" | "storage";
}

/**
 * Uploads a fast-registration source archive: `CreateUploadLocation` with the file's MD5, then an
 * HTTP PUT of the bytes, as they are, to the signed URL. When the admin does not implement the
 * data proxy or offers no signed URL, the file is written through the configured storage to
 * `<sourceUploadPath or container>/fast/<version>-<file>`, as flytectl does.
 *
 * @throws {OperationError} the RPC fails, the upload is refused, or storage cannot be written
 * @throws {UsageError} a fallback is needed and storage is not configured for it
 */
export async function uploadFastSource(
  client: Pick<AdminClient, "dataProxy">,
  options: UploadSourceOptions,
  signal?: AbortSignal,
): Promise<UploadedSource> {
  return await requestUploadLocation(client, options, signal).upload();
}

/** A source upload whose location was asked for; see {@link requestUploadLocation}. */
export interface RequestedUpload {
  /** Waits for the location, then uploads the bytes there (or to storage); as {@link uploadFastSource}. */
  upload(): Promise<UploadedSource>;
  /**
   * Gives up: whatever is still in flight (the call, its retries, an upload) is aborted. For a caller that
   * stops before or while uploading; after the upload it changes nothing.
   */
  cancel(): void;
}

/**
 * Starts a source upload's first step now: the MD5 and the `CreateUploadLocation` call, which
 * changes nothing on the admin's side. The bytes are sent only when `upload` is called, so the
 * call's round trip can overlap work that must finish before anything is uploaded (checking the
 * package). A failure of the first step is thrown by `upload`; never calling it is fine, as long as
 * `cancel` is, so that no call or retry outlives the caller's interest in it.
 */
export function requestUploadLocation(
  client: Pick<AdminClient, "dataProxy">,
  options: UploadSourceOptions,
  callerSignal?: AbortSignal,
): RequestedUpload {
  const cancelled = new AbortController();
  const signal = callerSignal ? AbortSignal.any([callerSignal, cancelled.signal]) : cancelled.signal;
  const digest = options.digest !== undefined
    ? Promise.resolve(options.digest)
    : options.bytes !== undefined
    ? Promise.resolve(md5Bytes(options.bytes))
    : md5File(options.path, signal);
  const filename = options.name.slice(options.name.lastIndexOf("/") + 1);
  const location = digest.then(async ({ md5 }) => {
    try {
      return await client.dataProxy.createUploadLocation(
        { project: options.project, domain: options.domain, filename, contentMd5: md5 },
        { signal },
      );
    } catch (err) {
      if (err instanceof AdminError && err.status === "Unimplemented") return undefined;
      throw err;
    }
  });
  // Observed by `upload`; a registration that stops before uploading must not die of it unobserved.
  location.catch(() => {});
  return {
    async upload() {
      const { md5, size } = await digest;
      const content: StoreSource = options.bytes !== undefined
        ? { bytes: options.bytes }
        : { path: options.path, size };
      const md5Base64 = Buffer.from(md5).toString("base64");
      const answer = await location;
      if (answer === undefined || answer.signedUrl === "") {
        return await uploadToStorage(options, content, filename, { md5, md5Base64, size }, signal);
      }
      if (answer.nativeUrl === "") {
        throw new OperationError(`the admin service returned no storage location for ${quote(options.name)}`);
      }
      // Header names are case-insensitive: let ours replace the data proxy's copy rather than duplicate it.
      const headers = new Headers(answer.headers);
      headers.set("Content-MD5", md5Base64);
      const http = options.http ?? createHttpClient();
      try {
        await http.put(answer.signedUrl, content, {
          headers: Object.fromEntries(headers),
          label: options.name,
          signal,
        });
      } finally {
        if (!options.http) http.close();
      }
      return { location: answer.nativeUrl, md5Base64, size, via: "dataProxy" };
    },
    cancel() {
      cancelled.abort(new DOMException("the source upload is no longer needed", "AbortError"));
    },
  };
}

/** Storage types whose objects only this machine can read. */
const LOCAL_ONLY_TYPES = ["local", "mem"];

async function uploadToStorage(
  options: UploadTarget,
  content: StoreSource,
  filename: string,
  digest: { md5: Uint8Array; md5Base64: string; size: number },
  signal: AbortSignal | undefined,
): Promise<UploadedSource> {
  if (!options.openStorage) {
    throw new OperationError(
      `cannot upload fast-registration source ${quote(options.name)}: the admin service offers no upload ` +
        "location and no storage is configured",
    );
  }
  const storage = await options.openStorage();
  if (LOCAL_ONLY_TYPES.includes(storage.type) && !options.allowLocalStorage) {
    throw new UsageError(
      `cannot upload fast-registration source ${quote(options.name)}: the admin service offers no upload ` +
        `location, and storage.type ${storage.type} keeps it where the admin's cluster cannot read it; configure ` +
        "s3, minio or stow storage the cluster reads, or, for an admin on this machine, pass " +
        "--storage.allow-local-fallback",
    );
  }
  const base = options.sourceUploadPath || storage.baseReference();
  const version = options.version || Buffer.from(digest.md5).toString("hex");
  const location = joinReference(base, "fast", `${version}-${filename}`);
  await storage.writeFile(location, { ...content, md5: digest.md5 }, signal);
  return { location, md5Base64: digest.md5Base64, size: digest.size, via: "storage" };
}

/** What the upload needs to know about the bytes. */
export interface FileDigest {
  /** MD5 of the bytes (sent as `Content-MD5`). */
  md5: Uint8Array;
  /** Their number. */
  size: number;
}

/** MD5 (not in WebCrypto, hence `node:crypto`) and size of bytes in memory. */
function md5Bytes(bytes: Uint8Array): FileDigest {
  return { md5: new Uint8Array(createHash("md5").update(bytes).digest()), size: bytes.length };
}

/** Bytes of a file hashed at a time. */
const HASH_CHUNK_BYTES = 256 * 1024;

/**
 * MD5 (not in WebCrypto, hence `node:crypto`) and size of a file, read through one reused buffer: a
 * fresh buffer per chunk would leave dead memory outside V8's heap that piles up for a large file.
 */
export async function md5File(path: string, signal?: AbortSignal): Promise<FileDigest> {
  const hash = createHash("md5");
  let size = 0;
  using file = await Deno.open(path, { read: true });
  const buffer = new Uint8Array(HASH_CHUNK_BYTES);
  for (let read = await file.read(buffer); read !== null; read = await file.read(buffer)) {
    signal?.throwIfAborted();
    hash.update(buffer.subarray(0, read));
    size += read;
  }
  return { md5: new Uint8Array(hash.digest()), size };
}
