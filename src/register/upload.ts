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
import { joinReference, parseReference } from "../storage/reference.ts";

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

/**
 * Where a source's bytes go, decided before anything is created: the admin's signed URL (its data proxy), or the
 * configured storage (opened, its settings checked) when the admin offers no upload location.
 */
export interface UploadRoute {
  /** Through the admin's signed URL, or through the configured storage. */
  via: "dataProxy" | "storage";
  /** The storage location the tasks will carry (`s3://…`). */
  location: string;
}

/** A source upload whose location was asked for; see {@link requestUploadLocation}. */
export interface RequestedUpload {
  /**
   * Waits for the admin's answer and decides where the bytes go, changing nothing: with no upload location, the
   * storage is opened and checked (its settings, a type the cluster can read, a container to write under), so
   * that a registration learns of a storage mistake before it creates anything. Asked once; `upload` uses it.
   *
   * @throws {UsageError} the storage cannot take the source (not configured for it)
   * @throws {OperationError} the call failed, or the answer has no storage location
   */
  route(): Promise<UploadRoute>;
  /** Decides the route if not yet done, then uploads the bytes there; as {@link uploadFastSource}. */
  upload(): Promise<UploadedSource>;
  /**
   * Gives up: whatever is still in flight (the call, its retries, an upload) is aborted. For a caller that
   * stops before or while uploading; after the upload it changes nothing.
   */
  cancel(): void;
}

/** A route with what taking it needs. */
type Route =
  | UploadRoute & { via: "dataProxy"; signedUrl: string; headers: Record<string, string> }
  | UploadRoute & { via: "storage"; storage: ObjectStore };

/**
 * Starts a source upload's first step now: the MD5 and the `CreateUploadLocation` call, which
 * changes nothing on the admin's side. The bytes are sent only when `upload` is called, so the
 * call's round trip can overlap work that must finish before anything is uploaded (checking the
 * package). A failure of the first step is thrown by `route` and `upload`; never calling them is fine, as
 * long as `cancel` is, so that no call or retry outlives the caller's interest in it.
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
  // Observed by `route`; a registration that stops before uploading must not die of it unobserved.
  location.catch(() => {});
  // Decided on first use only: storage is opened (its SDK loaded) only by a registration that goes on to upload.
  let decided: Promise<Route> | undefined;
  const route = () =>
    decided ??= location.then(async (answer): Promise<Route> => {
      if (answer === undefined || answer.signedUrl === "") {
        const { md5 } = await digest;
        const storage = await storageFor(options);
        const version = options.version || Buffer.from(md5).toString("hex");
        const base = options.sourceUploadPath || storage.baseReference();
        const target = joinReference(base, "fast", `${version}-${filename}`);
        // A malformed --sourceUploadPath is refused now, not when the bytes are written.
        parseReference(target);
        return { via: "storage", location: target, storage };
      }
      if (answer.nativeUrl === "") {
        throw new OperationError(`the admin service returned no storage location for ${quote(options.name)}`);
      }
      return { via: "dataProxy", location: answer.nativeUrl, signedUrl: answer.signedUrl, headers: answer.headers };
    });
  return {
    route: async () => {
      const { via, location } = await route();
      return { via, location };
    },
    async upload() {
      const chosen = await route();
      const { md5, size } = await digest;
      const content: StoreSource = options.bytes !== undefined
        ? { bytes: options.bytes }
        : { path: options.path, size };
      const md5Base64 = Buffer.from(md5).toString("base64");
      if (chosen.via === "storage") {
        await chosen.storage.writeFile(chosen.location, { ...content, md5 }, signal);
        return { location: chosen.location, md5Base64, size, via: "storage" };
      }
      // Header names are case-insensitive: let ours replace the data proxy's copy rather than duplicate it.
      const headers = new Headers(chosen.headers);
      headers.set("Content-MD5", md5Base64);
      const http = options.http ?? createHttpClient();
      try {
        await http.put(chosen.signedUrl, content, {
          headers: Object.fromEntries(headers),
          label: options.name,
          signal,
        });
      } finally {
        if (!options.http) http.close();
      }
      return { location: chosen.location, md5Base64, size, via: "dataProxy" };
    },
    cancel() {
      cancelled.abort(new DOMException("the source upload is no longer needed", "AbortError"));
    },
  };
}

/**
 * Loads Deno's `fetch`, which loads on first use (about 10 ms of a fresh process), by reading a `data:` URL: no
 * connection, no permission. For a registration waiting for its upload location, whose bytes then go with
 * `fetch`: the loading happens during that wait instead of on the bytes' way out. Never rejects.
 */
export async function loadFetch(): Promise<void> {
  await fetch("data:,").then((response) => response.arrayBuffer()).catch(() => {});
}

/** Storage types whose objects only this machine can read. */
const LOCAL_ONLY_TYPES = ["local", "mem"];

/**
 * The configured storage, for a source the admin offers no upload location for: opened (its settings checked),
 * and refused when the admin's cluster could not read it.
 *
 * @throws {UsageError} no storage, settings it cannot use, or `local`/`mem` without `allowLocalStorage`
 */
async function storageFor(options: UploadTarget): Promise<ObjectStore> {
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
  return storage;
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
