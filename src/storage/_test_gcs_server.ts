/**
 * A Google Cloud Storage JSON API server on loopback, for tests of the stow google backend through the
 * official client: an OAuth token endpoint for a service account the server makes (an RSA key from
 * WebCrypto; the JWT assertion's signature is verified), buckets (get, insert), objects (multipart and
 * resumable upload with the service's MD5 check, metadata, media download, delete). Every storage request
 * must carry a token this server issued.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { Buffer } from "node:buffer";

/** A stored object. */
export interface StoredObject {
  bytes: Uint8Array<ArrayBuffer>;
  /** base64 MD5, as the API reports it */
  md5Hash: string;
  contentType: string;
  /** How it arrived: `multipart` or `resumable`. */
  uploadType: string;
}

/** A request the server answered. */
export interface SeenRequest {
  method: string;
  /** path and query */
  target: string;
  authorization: string;
}

/** The running server. */
export interface FakeGcs {
  /** The `apiEndpoint` to give the client (`http://127.0.0.1:port`). */
  endpoint: string;
  /** A service-account JSON whose `token_uri` is this server's token endpoint. */
  serviceAccountJson: string;
  /** gcloud-style user credentials (`authorized_user`) whose `token_uri` is this server's token endpoint. */
  authorizedUserJson: string;
  /** Its private key (PEM), for tests that look for it in messages. */
  privateKeyPem: string;
  /** bucket -> object name -> object */
  buckets: Map<string, Map<string, StoredObject>>;
  /** project named in each bucket insert */
  createdIn: string[];
  requests: SeenRequest[];
  /** access tokens issued, in order */
  tokens: string[];
  /**
   * Refuse (403) every storage request from now on, to test failures; or hold them, to test timeouts; or refuse
   * only reading a bucket's metadata, as for an account with object rights on the bucket alone.
   */
  misbehave(mode: Mode): void;
  close(): Promise<void>;
}

/** How the server misbehaves (see {@link FakeGcs.misbehave}). */
export type Mode = "none" | "fail" | "stall" | "forbid-bucket-get";

const CLIENT_EMAIL = "fctl-test@fctl-test-project.iam.gserviceaccount.com";
/** The user credentials (gcloud's `authorized_user` form) the token endpoint accepts a refresh token for. */
const USER = {
  client_id: "fctl-test-client.apps.googleusercontent.com",
  client_secret: "fctl-test-client-secret",
  refresh_token: "1//fctl-test-refresh-token",
};

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=UTF-8", ...headers },
  });
}

function apiError(status: number, message: string): Response {
  return json(status, { error: { code: status, message, errors: [{ message, reason: String(status) }] } });
}

function encodeBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64");
}

function md5Base64(bytes: Uint8Array): string {
  return createHash("md5").update(bytes).digest("base64");
}

const CRC32C_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** base64 of the big-endian CRC32C, as the API reports it. */
function crc32cBase64(bytes: Uint8Array): string {
  let crc = 0xffffffff;
  for (const b of bytes) crc = CRC32C_TABLE[(crc ^ b) & 0xff] ^ (crc >>> 8);
  crc = (crc ^ 0xffffffff) >>> 0;
  return encodeBase64(new Uint8Array([crc >>> 24, (crc >>> 16) & 0xff, (crc >>> 8) & 0xff, crc & 0xff]));
}

function resource(bucket: string, name: string, object: StoredObject) {
  return {
    kind: "storage#object",
    id: `${bucket}/${name}/1`,
    name,
    bucket,
    generation: "1",
    metageneration: "1",
    contentType: object.contentType,
    size: String(object.bytes.byteLength),
    md5Hash: object.md5Hash,
    crc32c: crc32cBase64(object.bytes),
  };
}

function pem(label: string, der: ArrayBuffer): string {
  const b64 = encodeBase64(new Uint8Array(der)).replace(/(.{64})/g, "$1\n");
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;
}

function base64UrlDecode(s: string): Uint8Array<ArrayBuffer> {
  const b64 = s.replace(/-/g, "+").replace(/_/g, "/");
  return new Uint8Array(Buffer.from(b64, "base64"));
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  outer: for (let i = from; i <= haystack.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** The parts of a multipart/related body: headers text and bytes. */
function multipartParts(body: Uint8Array, boundary: string): { headers: string; bytes: Uint8Array }[] {
  const delimiter = new TextEncoder().encode(`--${boundary}`);
  const parts: { headers: string; bytes: Uint8Array }[] = [];
  let at = indexOf(body, delimiter, 0);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (body[start] === 0x2d && body[start + 1] === 0x2d) break; // closing delimiter
    const next = indexOf(body, delimiter, start);
    if (next < 0) break;
    const part = body.subarray(start + 2, next - 2); // after CRLF, before CRLF
    const split = indexOf(part, new TextEncoder().encode("\r\n\r\n"), 0);
    parts.push({ headers: new TextDecoder().decode(part.subarray(0, split)), bytes: part.subarray(split + 4) });
    at = next;
  }
  return parts;
}

interface Session {
  bucket: string;
  name: string;
  metadata: Record<string, unknown>;
  received: Uint8Array[];
  length: number;
}

/** Starts the server on a free loopback port. */
export async function startFakeGcs(): Promise<FakeGcs> {
  const keys = await crypto.subtle.generateKey(
    { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
    true,
    ["sign", "verify"],
  );
  const privateKeyPem = pem("PRIVATE KEY", await crypto.subtle.exportKey("pkcs8", keys.privateKey));
  const buckets = new Map<string, Map<string, StoredObject>>();
  const createdIn: string[] = [];
  const requests: SeenRequest[] = [];
  const tokens: string[] = [];
  const sessions = new Map<string, Session>();
  let mode: Mode = "none";
  const stalled = new Set<() => void>();
  let endpoint = "";

  async function token(req: Request): Promise<Response> {
    const form = new URLSearchParams(await req.text());
    if (form.get("grant_type") === "refresh_token") {
      if (
        form.get("client_id") !== USER.client_id || form.get("client_secret") !== USER.client_secret ||
        form.get("refresh_token") !== USER.refresh_token
      ) {
        return json(400, { error: "invalid_grant", error_description: "Bad Request" });
      }
      const issued = `ya29.fctl-test-user-${crypto.randomUUID()}`;
      tokens.push(issued);
      return json(200, { access_token: issued, expires_in: 3599, token_type: "Bearer" });
    }
    if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") {
      return json(400, { error: "unsupported_grant_type", error_description: "jwt-bearer expected" });
    }
    const [header, payload, signature] = (form.get("assertion") ?? "").split(".");
    const valid = signature !== undefined && await crypto.subtle.verify(
      "RSASSA-PKCS1-v1_5",
      keys.publicKey,
      base64UrlDecode(signature),
      new TextEncoder().encode(`${header}.${payload}`),
    );
    const claims = valid ? JSON.parse(new TextDecoder().decode(base64UrlDecode(payload))) : {};
    if (!valid || claims.iss !== CLIENT_EMAIL || typeof claims.scope !== "string" || claims.exp * 1000 < Date.now()) {
      return json(400, { error: "invalid_grant", error_description: "Invalid JWT Signature." });
    }
    const issued = `ya29.fctl-test-${crypto.randomUUID()}`;
    tokens.push(issued);
    return json(200, { access_token: issued, expires_in: 3599, token_type: "Bearer" });
  }

  function finish(
    session: Session,
    bytes: Uint8Array<ArrayBuffer>,
    uploadType: string,
    hashHeader: string | null,
  ): Response {
    const objects = buckets.get(session.bucket);
    if (!objects) return apiError(404, "The specified bucket does not exist.");
    const md5Hash = md5Base64(bytes);
    const declared = [
      session.metadata.md5Hash as string | undefined,
      /md5=([^,]+)/.exec(hashHeader ?? "")?.[1],
    ].filter((h): h is string => h !== undefined);
    for (const expected of declared) {
      if (expected !== md5Hash) {
        return apiError(400, `Provided MD5 hash "${expected}" doesn't match calculated MD5 hash "${md5Hash}".`);
      }
    }
    const object: StoredObject = {
      bytes,
      md5Hash,
      contentType: String(session.metadata.contentType ?? "application/octet-stream"),
      uploadType,
    };
    objects.set(session.name, object);
    return json(200, resource(session.bucket, session.name, object));
  }

  async function storage(req: Request, url: URL): Promise<Response> {
    const path = url.pathname;
    let m: RegExpExecArray | null;
    if (req.method === "POST" && path === "/storage/v1/b") {
      const body = await req.json();
      if (buckets.has(body.name)) {
        return apiError(409, "Your previous request to create the named bucket succeeded and you already own it.");
      }
      buckets.set(body.name, new Map());
      createdIn.push(url.searchParams.get("project") ?? "");
      return json(200, { kind: "storage#bucket", id: body.name, name: body.name });
    }
    if ((m = /^\/storage\/v1\/b\/([^/]+)$/.exec(path)) && req.method === "GET") {
      const name = decodeURIComponent(m[1]);
      if (mode === "forbid-bucket-get") return apiError(403, "caller does not have storage.buckets.get access");
      if (!buckets.has(name)) return apiError(404, "The specified bucket does not exist.");
      return json(200, { kind: "storage#bucket", id: name, name });
    }
    if ((m = /^\/storage\/v1\/b\/([^/]+)\/o\/(.+)$/.exec(path))) {
      const bucket = decodeURIComponent(m[1]);
      const name = decodeURIComponent(m[2]);
      const object = buckets.get(bucket)?.get(name);
      if (req.method === "DELETE") {
        if (!object) return apiError(404, "No such object.");
        buckets.get(bucket)!.delete(name);
        return new Response(null, { status: 204 });
      }
      if (req.method !== "GET") return apiError(405, "method not allowed");
      if (!object) return apiError(404, `No such object: ${bucket}/${name}`);
      if (url.searchParams.get("alt") === "media") {
        return new Response(object.bytes.slice(), {
          headers: {
            "content-type": object.contentType,
            "x-goog-hash": `crc32c=${crc32cBase64(object.bytes)},md5=${object.md5Hash}`,
            "x-goog-stored-content-length": String(object.bytes.byteLength),
            "x-goog-generation": "1",
          },
        });
      }
      return json(200, resource(bucket, name, object));
    }
    if ((m = /^\/upload\/storage\/v1\/b\/([^/]+)\/o$/.exec(path))) {
      const bucket = decodeURIComponent(m[1]);
      const uploadType = url.searchParams.get("uploadType");
      if (req.method === "POST" && uploadType === "multipart") {
        const boundary = /boundary="?([^";]+)"?/.exec(req.headers.get("content-type") ?? "")?.[1];
        if (!boundary) return apiError(400, "multipart body without boundary");
        const parts = multipartParts(new Uint8Array(await req.arrayBuffer()), boundary);
        if (parts.length !== 2) return apiError(400, `expected 2 parts, got ${parts.length}`);
        const metadata = JSON.parse(new TextDecoder().decode(parts[0].bytes));
        const name = url.searchParams.get("name") ?? metadata.name;
        return finish(
          { bucket, name, metadata, received: [], length: 0 },
          parts[1].bytes.slice(),
          "multipart",
          req.headers.get("x-goog-hash"),
        );
      }
      if (req.method === "POST" && uploadType === "resumable") {
        const text = await req.text();
        const metadata = text === "" ? {} : JSON.parse(text);
        const name = url.searchParams.get("name") ?? metadata.name;
        if (!buckets.has(bucket)) return apiError(404, "The specified bucket does not exist.");
        const id = crypto.randomUUID();
        sessions.set(id, { bucket, name, metadata, received: [], length: 0 });
        return json(200, {}, {
          location: `${endpoint}/upload/storage/v1/b/${m[1]}/o?uploadType=resumable&upload_id=${id}`,
        });
      }
      if (req.method === "PUT" && uploadType === "resumable") {
        const session = sessions.get(url.searchParams.get("upload_id") ?? "");
        if (!session) return apiError(404, "No such upload session.");
        const range = /^bytes (\*|(\d+)-(\d+|\*))\/(\d+|\*)$/.exec(req.headers.get("content-range") ?? "");
        if (!range) return apiError(400, `bad Content-Range ${req.headers.get("content-range")}`);
        const chunk = new Uint8Array(await req.arrayBuffer());
        if (range[1] !== "*") {
          if (Number(range[2]) !== session.length) return apiError(400, "chunk does not start where the last ended");
          session.received.push(chunk);
          session.length += chunk.byteLength;
        }
        const total = range[4] === "*" ? (range[3] === "*" ? session.length : undefined) : Number(range[4]);
        if (total === undefined || session.length < total) {
          const headers: Record<string, string> = session.length > 0 ? { range: `bytes=0-${session.length - 1}` } : {};
          return new Response(null, { status: 308, headers });
        }
        const bytes = new Uint8Array(session.length);
        let offset = 0;
        for (const c of session.received) {
          bytes.set(c, offset);
          offset += c.byteLength;
        }
        sessions.delete(url.searchParams.get("upload_id")!);
        return finish(session, bytes, "resumable", req.headers.get("x-goog-hash"));
      }
    }
    return apiError(404, `no route for ${req.method} ${path}`);
  }

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const authorization = req.headers.get("authorization") ?? "";
    requests.push({ method: req.method, target: url.pathname + url.search, authorization });
    if (url.pathname === "/token" && req.method === "POST") return await token(req);
    // A resumable session's URI is its own authorization (as the service has it); every other call needs a token.
    const session = req.method === "PUT" && sessions.has(url.searchParams.get("upload_id") ?? "");
    if (!session && !tokens.some((t) => authorization === `Bearer ${t}`)) {
      return apiError(401, "Anonymous caller does not have storage.objects.get access.");
    }
    if (mode === "fail") return apiError(403, "Forbidden (test)");
    if (mode === "stall") {
      // Held until the test lets go or the server closes.
      await new Promise<void>((resolve) => stalled.add(resolve));
      return apiError(403, "stalled");
    }
    return await storage(req, url);
  });
  endpoint = `http://127.0.0.1:${server.addr.port}`;
  const serviceAccountJson = JSON.stringify({
    type: "service_account",
    project_id: "fctl-test-project",
    private_key_id: "0123456789abcdef",
    private_key: privateKeyPem,
    client_email: CLIENT_EMAIL,
    client_id: "123456789",
    auth_uri: `${endpoint}/auth`,
    token_uri: `${endpoint}/token`,
  });
  const authorizedUserJson = JSON.stringify({ type: "authorized_user", ...USER, token_uri: `${endpoint}/token` });
  return {
    endpoint,
    serviceAccountJson,
    authorizedUserJson,
    privateKeyPem,
    buckets,
    createdIn,
    requests,
    tokens,
    misbehave(next) {
      mode = next;
      if (next !== "stall") { for (const release of stalled) release(); }
    },
    async close() {
      for (const release of stalled) release();
      await server.shutdown();
    },
  };
}
