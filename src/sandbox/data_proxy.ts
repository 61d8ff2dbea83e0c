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
import { durationText } from "../executions/duration_text.ts";
import { base32 } from "./base32.ts";
import { kubernetesRandomString } from "./random_string.ts";
import { timestampFromNs } from "./time.ts";

/**
 * The bucket every native URL points into. As FlyteAdmin does, the sandbox asks an upload location for the MD5 of
 * the bytes to come (`contentMd5`, which also names the folder) or a folder of its own (`filenameRoot`).
 *
 * ```ts
 * import { createHash } from "node:crypto";
 * import { createAdminClient } from "@fctl/fctl";
 * import { SANDBOX_BUCKET, startSandbox } from "@fctl/fctl/testing";
 *
 * await using sandbox = await startSandbox();
 * await using client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
 * const bytes = new TextEncoder().encode("package bytes");
 * const contentMd5 = new Uint8Array(createHash("md5").update(bytes).digest());
 * const scope = { project: "flytesnacks", domain: "development" };
 * const location = await client.dataProxy.createUploadLocation({ ...scope, filename: "fast.tgz", contentMd5 });
 * console.log(location.nativeUrl.startsWith(`s3://${SANDBOX_BUCKET}/`)); // true
 * ```
 */
export const SANDBOX_BUCKET = "sandbox-bucket";
/** FlyteAdmin's `maxExpiresIn` (its default configuration): the expiry when none is asked for, and the longest. */
const MAX_EXPIRES_IN = { seconds: 3600n, nanos: 0 };
/** protobuf's range of a valid Duration: about 10,000 years either way. */
const MAX_DURATION_SECONDS = 315_576_000_000n;

/** An upload location handed out and not used yet. */
export interface SignedUpload {
  /** URL path (with leading slash) the PUT must go to. */
  path: string;
  nativeUrl: string;
  /** The MD5 the PUT must carry (as Content-MD5) and match; empty when the request gave none. */
  md5: Uint8Array;
  expiresAtMs: number;
}

/** Signed upload tokens and the bytes uploaded through them. */
export class UploadRegistry {
  /** native_url -> bytes successfully PUT. */
  readonly uploads = new Map<string, Uint8Array>();
  /** native_url -> the MD5 of the bytes there (what the object store keeps as its ETag). */
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

  /** Stores uploaded bytes, whose MD5 is `md5`, and spends the token. */
  complete(token: string, upload: SignedUpload, bytes: Uint8Array, md5: Uint8Array): void {
    this.#pending.delete(token);
    this.uploads.set(upload.nativeUrl, bytes);
    this.uploadedMd5.set(upload.nativeUrl, md5);
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

/** The length of the name FlyteAdmin makes up for a request without a filename (its default configuration). */
const RANDOM_FILENAME_LENGTH = 20;

function createUploadLocation(request: CreateUploadLocationRequest, context: DataProxyContext) {
  // FlyteAdmin's checks and messages, in its order.
  if (request.project === "" || request.domain === "") {
    throw new ConnectError("project and domain are required parameters", Code.InvalidArgument);
  }
  if (request.filenameRoot === "" && request.contentMd5.length === 0) {
    throw new ConnectError("content_md5 or filename_root is a required parameter", Code.InvalidArgument);
  }
  // FlyteAdmin passes any bytes on, and the object store then refuses every PUT; the sandbox says so at once.
  if (request.contentMd5.length !== 0 && request.contentMd5.length !== 16) {
    throw new ConnectError(
      `content_md5 must be 16 bytes, got ${request.contentMd5.length}`,
      Code.InvalidArgument,
    );
  }
  const md5 = Buffer.from(request.contentMd5);
  // A filename under a filename_root is a location the caller chose: checked before a name is made up.
  const checkExisting = request.filename !== "" && request.filenameRoot !== "";
  const filename = request.filename || kubernetesRandomString(RANDOM_FILENAME_LENGTH);
  // FlyteAdmin: <org>/<project>/<domain>/<filename_root, else the MD5 in standard base32>/<filename>, empty parts
  // left out, the filename's own slashes kept (several files under one root keep their relative paths).
  const folder = request.filenameRoot || base32(md5);
  const segments = storageKey([request.org, request.project, request.domain, folder, filename]);
  const path = `/${SANDBOX_BUCKET}/${segments.map(encodeURIComponent).join("/")}`;
  const nativeUrl = `s3://${SANDBOX_BUCKET}/${segments.map(goEscapedSegment).join("/")}`;
  if (checkExisting) refuseOverwrite(context.registry, nativeUrl, md5);
  const expiresAtMs = context.now().getTime() + expiryMs(request.expiresIn);
  const token = context.registry.sign({ path, nativeUrl, md5: request.contentMd5, expiresAtMs });
  const md5Base64 = md5.toString("base64");
  // The headers FlyteAdmin's object-store library returns for an S3 PUT, as it returns them: a Content-MD5 even
  // when empty (the URL then signed without one, and the PUT need not carry it), and a Content-Length that is the
  // length of that header's value, not of any body, which clients must not send as theirs.
  const headers: Record<string, string> = { "Content-Length": String(md5Base64.length), "Content-MD5": md5Base64 };
  // Asked to, it stores the MD5 as object metadata too (for old flytekit clients), and names the header so.
  if (request.addContentMd5Metadata) headers["x-amz-meta-flyteContentMD5"] = md5Base64;
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
 * there is rewritten only by the same bytes (a matching MD5), so one client cannot replace another's file; without
 * an MD5 it is not rewritten at all.
 */
function refuseOverwrite(registry: UploadRegistry, nativeUrl: string, md5: Buffer): void {
  // A test may clear `uploads`: what is no longer there is not there.
  const existing = registry.uploads.has(nativeUrl) ? registry.uploadedMd5.get(nativeUrl) : undefined;
  if (existing === undefined || (md5.length > 0 && md5.equals(existing))) return;
  throw new ConnectError(
    `file already exists at location [${nativeUrl}], specify a matching hash if you wish to rewrite`,
    Code.AlreadyExists,
  );
}

/**
 * The expiry FlyteAdmin grants: `maxExpiresIn` when none is asked for; an invalid Duration or one over the maximum
 * refused with its messages. One not positive, which FlyteAdmin passes to the object store to fail signing, is
 * refused here at once.
 */
function expiryMs(expiresIn: Pick<Duration, "seconds" | "nanos"> = MAX_EXPIRES_IN): number {
  const { seconds, nanos } = expiresIn;
  const valid = seconds >= -MAX_DURATION_SECONDS && seconds <= MAX_DURATION_SECONDS && nanos > -1e9 && nanos < 1e9 &&
    !(seconds > 0n && nanos < 0) && !(seconds < 0n && nanos > 0);
  if (!valid) {
    // Go prints the message as protobuf text, its zero fields left out.
    const text = [seconds !== 0n && `seconds:${seconds}`, nanos !== 0 && `nanos:${nanos}`].filter(Boolean).join(" ");
    throw new ConnectError(`expiresIn [${text}] is invalid`, Code.InvalidArgument);
  }
  const ns = seconds * 1_000_000_000n + BigInt(nanos);
  if (ns > MAX_EXPIRES_IN.seconds * 1_000_000_000n) {
    throw new ConnectError(
      `expiresIn [${durationText(expiresIn)}] cannot exceed max allowed expiration [${durationText(MAX_EXPIRES_IN)}]`,
      Code.InvalidArgument,
    );
  }
  const ms = Number(ns / 1_000_000n);
  if (ms <= 0) throw new ConnectError("expires_in must be positive", Code.InvalidArgument);
  return ms;
}
