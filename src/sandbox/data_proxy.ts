/**
 * DataProxyService.CreateUploadLocation: hands out one-time signed URLs served by the sandbox's own
 * {@link startUploadServer}, so upload code is tested against real HTTP PUTs.
 *
 * @module
 */
import type { ServiceImpl } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import type { Duration } from "@bufbuild/protobuf/wkt";
import { Buffer } from "node:buffer";
import type { CreateUploadLocationRequest, DataProxyService } from "../../proto/gen/flyteidl/service/dataproxy_pb.ts";
import { timestampFromNs } from "./time.ts";

/**
 * The bucket every native URL points into.
 *
 * ```ts
 * import { createAdminClient } from "@fctl/fctl";
 * import { SANDBOX_BUCKET, startSandbox } from "@fctl/fctl/testing";
 *
 * const sandbox = await startSandbox();
 * const client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
 * const location = await client.dataProxy.createUploadLocation({ project: "p", domain: "d", filename: "fast.tgz" });
 * console.log(location.nativeUrl.startsWith(`s3://${SANDBOX_BUCKET}/`)); // true
 * client.close();
 * await sandbox.close();
 * ```
 */
export const SANDBOX_BUCKET = "sandbox-bucket";
const DEFAULT_EXPIRY_MS = 60 * 60 * 1000;

/** An upload location handed out and not used yet. */
export interface SignedUpload {
  /** URL path (with leading slash) the PUT must go to. */
  path: string;
  nativeUrl: string;
  md5: Uint8Array;
  expiresAtMs: number;
}

/** Signed upload tokens and the bytes uploaded through them. */
export class UploadRegistry {
  /** native_url -> bytes successfully PUT. */
  readonly uploads = new Map<string, Uint8Array>();
  /** native_url -> the MD5 the bytes there were signed and checked with. */
  readonly uploadedMd5 = new Map<string, Uint8Array>();
  readonly #pending = new Map<string, SignedUpload>();
  /** Statuses the next PUTs are answered with, in order, before anything else is looked at. */
  readonly #faults: number[] = [];

  /** The next `count` PUTs are answered `status` without being stored: an object store failing in passing. */
  failNext(count: number, status: number): void {
    for (let i = 0; i < count; i++) this.#faults.push(status);
  }

  /** The status the next PUT is to fail with, if one was asked for. */
  takeFault(): number | undefined {
    return this.#faults.shift();
  }

  /** Registers a location and returns its one-time token. */
  sign(upload: SignedUpload): string {
    const token = crypto.randomUUID();
    this.#pending.set(token, upload);
    return token;
  }

  /** The unexpired location of a token, or undefined. */
  find(token: string, nowMs: number): SignedUpload | undefined {
    const upload = this.#pending.get(token);
    return upload && upload.expiresAtMs > nowMs ? upload : undefined;
  }

  /** Stores uploaded bytes and spends the token. */
  complete(token: string, upload: SignedUpload, bytes: Uint8Array): void {
    this.#pending.delete(token);
    this.uploads.set(upload.nativeUrl, bytes);
    this.uploadedMd5.set(upload.nativeUrl, upload.md5);
  }
}

/** What the data proxy needs from the sandbox. */
export interface DataProxyContext {
  registry: UploadRegistry;
  /** Base URL of the upload server, e.g. `http://127.0.0.1:4567`. */
  uploadBaseUrl: string;
  now: () => Date;
}

/** The implemented subset of DataProxyService. */
export type DataProxyImpl = Partial<ServiceImpl<typeof DataProxyService>>;

/** Builds the DataProxyService implementation. */
export function createDataProxyService(context: DataProxyContext): DataProxyImpl {
  return { createUploadLocation: (request) => createUploadLocation(request, context) };
}

function createUploadLocation(request: CreateUploadLocationRequest, context: DataProxyContext) {
  for (const field of ["project", "domain", "filename"] as const) {
    if (request[field] === "") throw new ConnectError(`missing ${field}`, Code.InvalidArgument);
  }
  if (request.contentMd5.length !== 16) {
    throw new ConnectError(
      `content_md5 must be 16 bytes, got ${request.contentMd5.length}`,
      Code.InvalidArgument,
    );
  }
  const md5 = Buffer.from(request.contentMd5);
  const md5Hex = md5.toString("hex");
  // FlyteAdmin: <org>/<project>/<domain>/<filename_root, else a form of the MD5>/<filename>, empty parts left
  // out, the filename's own slashes kept (several files under one root keep their relative paths).
  const folder = request.filenameRoot || md5Hex;
  const segments = storageKey([request.org, request.project, request.domain, folder, request.filename]);
  const path = `/${SANDBOX_BUCKET}/${segments.map(encodeURIComponent).join("/")}`;
  const nativeUrl = `s3://${SANDBOX_BUCKET}/${segments.map(goEscapedSegment).join("/")}`;
  if (request.filenameRoot !== "") refuseOverwrite(context.registry, nativeUrl, md5);
  const expiresAtMs = context.now().getTime() + expiryMs(request.expiresIn);
  const token = context.registry.sign({ path, nativeUrl, md5: request.contentMd5, expiresAtMs });
  const md5Base64 = md5.toString("base64");
  const headers: Record<string, string> = { "Content-MD5": md5Base64 };
  // FlyteAdmin asks old flytekit clients to store the MD5 as object metadata; mirror the header it adds.
  if (request.addContentMd5Metadata) headers["x-amz-meta-flytecontentmd5"] = md5Base64;
  return {
    signedUrl: `${context.uploadBaseUrl}${path}?token=${token}`,
    nativeUrl,
    expiresAt: timestampFromNs(BigInt(expiresAtMs) * 1_000_000n),
    headers,
  };
}

/** The object key's segments as FlyteAdmin's storage joins them: empty and `.` segments dropped, `..` resolved. */
function storageKey(parts: string[]): string[] {
  const segments: string[] = [];
  for (const segment of parts.flatMap((part) => part.split("/"))) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return segments;
}

/**
 * A key segment as Go's `url.URL.String()` writes a path (FlyteAdmin's native URLs are built so): bytes other
 * than letters, digits and `-_.~$&+,:;=@` percent-encoded in upper case (`my file` is `my%20file`).
 */
function goEscapedSegment(segment: string): string {
  let out = "";
  for (const byte of new TextEncoder().encode(segment)) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~$&+,:;=@]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/**
 * FlyteAdmin's check when the location is deterministic (a filename under a filename_root): an object already
 * there is rewritten only by the same bytes (a matching MD5), so one client cannot replace another's file.
 */
function refuseOverwrite(registry: UploadRegistry, nativeUrl: string, md5: Buffer): void {
  // A test may clear `uploads`: what is no longer there is not there.
  const existing = registry.uploads.has(nativeUrl) ? registry.uploadedMd5.get(nativeUrl) : undefined;
  if (existing === undefined || md5.equals(existing)) return;
  throw new ConnectError(
    `file already exists at location [${nativeUrl}], specify a matching hash if you wish to rewrite`,
    Code.AlreadyExists,
  );
}

function expiryMs(expiresIn: Duration | undefined): number {
  if (!expiresIn) return DEFAULT_EXPIRY_MS;
  const ms = Number(expiresIn.seconds) * 1000 + Math.floor(expiresIn.nanos / 1_000_000);
  if (ms <= 0) throw new ConnectError("expires_in must be positive", Code.InvalidArgument);
  return ms;
}
