/**
 * The HTTP server behind signed upload URLs, on plain HTTP or (the production profile) TLS. It checks what
 * S3 checks for a presigned PUT: a valid token, a `Content-Length` (S3 refuses chunked bodies) and that the body
 * has that length; signed with an MD5, the Content-MD5 header carrying it; and a Content-MD5 sent, that the body
 * hashes to it.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { AddressInfo } from "node:net";
import type { UploadRegistry } from "./data_proxy.ts";

/** A running upload server. */
export interface UploadServer {
  /** e.g. `http://127.0.0.1:4567`, or `https://…` with TLS */
  baseUrl: string;
  close(): Promise<void>;
}

/** Starts the upload server on `hostname` with an ephemeral port; over TLS when given a certificate. */
export async function startUploadServer(
  registry: UploadRegistry,
  hostname: string,
  now: () => Date,
  tls?: { cert: string; key: string },
): Promise<UploadServer> {
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    handleUpload(req, registry, now).then(
      ([status, text]) => reply(res, status, text),
      (err: unknown) => reply(res, 500, `upload failed: ${err instanceof Error ? err.message : String(err)}`),
    );
  };
  const server: Server = tls ? createTlsServer({ cert: tls.cert, key: tls.key }, onRequest) : createServer(onRequest);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, hostname, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = hostname.includes(":") ? `[${hostname}]` : hostname;
  return { baseUrl: `${tls ? "https" : "http"}://${host}:${port}`, close: () => closeServer(server) };
}

function reply(res: ServerResponse, status: number, text: string): void {
  const headers: Record<string, string> = { "content-type": "text/plain; charset=utf-8" };
  if (status === 405) headers["allow"] = "PUT";
  res.writeHead(status, headers).end(text);
}

type Outcome = [status: number, text: string];

async function handleUpload(req: IncomingMessage, registry: UploadRegistry, now: () => Date): Promise<Outcome> {
  if (req.method !== "PUT") return drain(req, [405, `method ${req.method} is not allowed; use PUT`]);
  const fault = registry.takeFault();
  // S3's answer when it wants fewer requests; the signed URL stays good for the next attempt.
  if (fault !== undefined) return drain(req, [fault, "SlowDown: Please reduce your request rate."]);
  const url = new URL(req.url ?? "/", "http://upload.invalid");
  const token = url.searchParams.get("token") ?? "";
  const upload = registry.find(token, now().getTime());
  if (!upload || upload.path !== url.pathname) {
    return drain(req, [403, "the signed URL is unknown, used or expired"]);
  }
  const length = req.headers["content-length"];
  if (length === undefined || !/^\d+$/.test(length)) {
    return drain(req, [411, "a Content-Length header is required (chunked uploads are not supported)"]);
  }
  const header = req.headers["content-md5"];
  const headerMd5 = typeof header === "string" ? header : "";
  if (upload.md5.length > 0) {
    if (headerMd5 === "") return drain(req, [400, "missing Content-MD5 header"]);
    const signedMd5 = Buffer.from(upload.md5).toString("base64");
    if (headerMd5 !== signedMd5) {
      return drain(req, [400, `Content-MD5 "${headerMd5}" does not match the signed MD5 "${signedMd5}"`]);
    }
  }
  const { bytes, md5: bodyMd5 } = await readBody(req);
  if (bytes.length !== Number(length)) {
    return [400, `the body has ${bytes.length} bytes, not the Content-Length ${length}`];
  }
  if (headerMd5 !== "" && bodyMd5 !== headerMd5) {
    return [400, `the body's MD5 "${bodyMd5}" does not match Content-MD5 "${headerMd5}"`];
  }
  registry.complete(token, upload, bytes, Buffer.from(bodyMd5, "base64"));
  return [200, "ok"];
}

/** Reads and discards the body before answering, so the client sees the status instead of a reset. */
async function drain(req: IncomingMessage, outcome: Outcome): Promise<Outcome> {
  for await (const _ of req) { /* discard */ }
  return outcome;
}

/** Reads the body, hashing while it streams in. */
async function readBody(req: IncomingMessage): Promise<{ bytes: Uint8Array; md5: string }> {
  const hash = createHash("md5");
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    hash.update(chunk as Buffer);
    chunks.push(chunk as Buffer);
  }
  return { bytes: new Uint8Array(Buffer.concat(chunks)), md5: hash.digest("base64") };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
