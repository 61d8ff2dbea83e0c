/**
 * Uploading a local directory given as a directory (multipart blob) input, as flytekit uploads a `FlyteDirectory`:
 * every file under one prefix, keeping its relative path, and the prefix is the blob's URI. Through the admin's
 * data proxy (one `CreateUploadLocation` per file, with the directory's hash as `filename_root` and the relative
 * path as `filename`, then a PUT to the signed URL), or, when the admin has none, through the configured storage
 * under `<container>/fast/<hash>/`, where a single file goes too. A few files at a time; the first failure stops
 * the rest.
 *
 * @module
 */
import type { AdminClient } from "../admin/client.ts";
import { AdminError } from "../admin/errors.ts";
import { OperationError, quote, UsageError } from "../errors.ts";
import { createHttpClient, type HttpClient } from "../http/http_client.ts";
import type { ObjectStore } from "../storage/store.ts";
import { joinReference, parseReference } from "../storage/reference.ts";
import type { CreateUploadLocationResponse } from "../../proto/gen/flyteidl/service/dataproxy_pb.ts";
import { forEachBounded } from "./bounded_work.ts";
import type { DirectoryFile, LocalDirectory } from "./local_directory.ts";

/** Files uploaded at a time: enough to hide a signed URL's round trips, few enough for any store's rate limits. */
const UPLOAD_CONCURRENCY = 8;

/** Where and how {@link uploadDirectory} uploads. */
export interface DirectoryUploadTarget {
  /** Where the input is (`inputs.images`), for messages. */
  input: string;
  /** Project the upload locations are created for. */
  project: string;
  /** Domain the upload locations are created for. */
  domain: string;
  /** The HTTP client the bytes are PUT with; default: one with no proxy and the system roots. */
  http?: HttpClient;
  /** Opens the configured storage, used only when the admin has no upload location. */
  openStorage?: () => ObjectStore | Promise<ObjectStore>;
  /** Accepts `local` and `mem` storage, which no cluster can read: only for an admin on this machine. */
  allowLocalStorage?: boolean;
}

/**
 * Uploads every file of `directory` under one prefix and returns the prefix (`s3://bucket/…/<hash>`).
 *
 * @throws {UsageError} the admin has no data proxy and the storage cannot take the files
 * @throws {OperationError} an upload failed, or the admin placed a file outside the common prefix
 * @throws {AdminError} CreateUploadLocation failed (other than UNIMPLEMENTED)
 */
export async function uploadDirectory(
  client: Pick<AdminClient, "dataProxy">,
  directory: LocalDirectory,
  target: DirectoryUploadTarget,
  signal?: AbortSignal,
): Promise<string> {
  const [first] = directory.files;
  // The first file's location also says which way the bytes go: an admin without a data proxy has none.
  const firstLocation = await uploadLocation(client, directory, first, target, signal).catch((err) => {
    if (err instanceof AdminError && err.status === "Unimplemented") return undefined;
    throw err;
  });
  if (firstLocation === undefined || firstLocation.signedUrl === "") {
    return await uploadThroughStorage(directory, target, signal);
  }
  const prefix = prefixOf(firstLocation.nativeUrl, first, directory, target);
  const http = target.http ?? createHttpClient();
  try {
    await forEachBounded(directory.files, UPLOAD_CONCURRENCY, async (file, stop) => {
      const location = file === first ? firstLocation : await uploadLocation(client, directory, file, target, stop);
      if (location.signedUrl === "" || prefixOf(location.nativeUrl, file, directory, target) !== prefix) {
        throw new OperationError(
          `${target.input}: the admin service placed ${quote(file.relative)} of ${quote(directory.path)} at ` +
            `${quote(location.nativeUrl)}, not under ${quote(prefix)} with the other files; no execution was created`,
        );
      }
      // Header names are case-insensitive: ours replaces the data proxy's copy rather than duplicating it.
      const headers = new Headers(location.headers);
      headers.set("Content-MD5", btoa(String.fromCharCode(...file.md5)));
      await http.put(location.signedUrl, { path: file.path, size: file.size }, {
        headers: Object.fromEntries(headers),
        label: file.path,
        signal: stop,
      });
    }, signal);
  } finally {
    if (!target.http) http.close();
  }
  return prefix;
}

function uploadLocation(
  client: Pick<AdminClient, "dataProxy">,
  directory: LocalDirectory,
  file: DirectoryFile,
  target: DirectoryUploadTarget,
  signal: AbortSignal | undefined,
): Promise<CreateUploadLocationResponse> {
  return client.dataProxy.createUploadLocation({
    project: target.project,
    domain: target.domain,
    filenameRoot: directory.root,
    filename: file.relative,
    contentMd5: file.md5,
  }, { signal });
}

/**
 * The prefix a file's native URL is under: the URL without the file's relative path, counted in segments (the
 * admin writes the path URL-escaped, `a b` as `a%20b`, so its text may differ from the name).
 */
function prefixOf(nativeUrl: string, file: DirectoryFile, directory: LocalDirectory, target: DirectoryUploadTarget) {
  const segments = nativeUrl.split("/");
  const depth = file.relative.split("/").length;
  const prefix = segments.slice(0, -depth).join("/");
  // At least `scheme://container/<root>`: anything shorter is not a location the files can share.
  if (nativeUrl === "" || segments.length - depth < 4 || !segments[segments.length - depth - 1]) {
    throw new OperationError(
      `${target.input}: the admin service returned no usable storage location for ${quote(file.relative)} of ` +
        `${quote(directory.path)} (${quote(nativeUrl)}); no execution was created`,
    );
  }
  return prefix;
}

/** Storage types whose objects only this machine can read. */
const LOCAL_ONLY_TYPES = ["local", "mem"];

/** Every file written through the configured storage under `<container>/fast/<root>/`, as a single file goes. */
async function uploadThroughStorage(
  directory: LocalDirectory,
  target: DirectoryUploadTarget,
  signal: AbortSignal | undefined,
): Promise<string> {
  const shown = quote(directory.path);
  if (!target.openStorage) {
    throw new OperationError(
      `${target.input}: cannot upload ${shown}: the admin service offers no upload location and no storage is ` +
        "configured",
    );
  }
  const storage = await target.openStorage();
  if (LOCAL_ONLY_TYPES.includes(storage.type) && !target.allowLocalStorage) {
    throw new UsageError(
      `${target.input}: cannot upload ${shown}: the admin service offers no upload location, and storage.type ` +
        `${storage.type} keeps it where the admin's cluster cannot read it; configure s3, minio or stow storage the ` +
        "cluster reads, or, for an admin on this machine, pass --storage.allow-local-fallback",
    );
  }
  const prefix = joinReference(storage.baseReference(), "fast", directory.root);
  parseReference(prefix);
  await forEachBounded(directory.files, UPLOAD_CONCURRENCY, async (file, stop) => {
    const ref = joinReference(prefix, file.relative);
    await storage.writeFile(ref, { path: file.path, size: file.size, md5: file.md5 }, stop);
  }, signal);
  return prefix;
}
