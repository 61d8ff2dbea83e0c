/**
 * A real S3-API server for tests: s3rver (the pinned npm package, run by Node in a child process: under
 * Deno its file store needs sys "umask", a permission the test run does not have) on loopback, behind a small front
 * that adds what s3rver lacks and AWS does: it checks `Content-MD5` against the body (400 BadDigest when
 * they differ) and records each request's method, path and `Content-MD5`. With `tls`, the front serves
 * HTTPS with a certificate of a test CA, which clients must trust. s3rver accepts the access key `S3RVER`
 * only (InvalidAccessKeyId otherwise); it does not verify SigV4 signatures, so a wrong secret key goes
 * unnoticed by it.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { createTestCertificates } from "../sandbox/test_ca.ts";

/** The only key pair s3rver accepts. */
export const S3RVER_KEYS = { accessKey: "S3RVER", secretKey: "S3RVER" } as const;

/** A request the front passed on (or refused). */
export interface SeenS3Request {
  method: string;
  /** Path-style: `/bucket/key`. */
  path: string;
  /** The `Content-MD5` header, if sent. */
  contentMd5: string | null;
  /** The access key id the request is signed with (SigV4's `Credential=`), or null when unsigned. */
  accessKeyId: string | null;
}

/** A running server. */
export interface TestS3Server {
  /** `http://127.0.0.1:PORT` or `https://127.0.0.1:PORT`. */
  endpoint: string;
  /** The CA certificate (PEM) to trust, with `tls`. */
  caCert?: string;
  /** Every request, in order. */
  requests: SeenS3Request[];
  /** The stored object's bytes, read from s3rver's own files, or undefined. */
  object(bucket: string, key: string): Promise<Uint8Array | undefined>;
  /** The MD5 (hex) s3rver computed of the object it stored (its ETag), or undefined. */
  objectMd5(bucket: string, key: string): Promise<string | undefined>;
  /** Whether the bucket exists. */
  hasBucket(bucket: string): Promise<boolean>;
  close(): Promise<void>;
}

/** Starts s3rver and its front; `buckets` are created first. */
export async function startTestS3(options: { tls?: boolean; buckets?: string[] } = {}): Promise<TestS3Server> {
  const dir = await Deno.makeTempDir({ prefix: "fctl-s3rver-" });
  const s3rver = await startS3rver(dir, options.buckets ?? []);
  const port = s3rver.port;
  const backend = `http://127.0.0.1:${port}`;
  const certificates = options.tls ? await createTestCertificates() : undefined;
  const requests: SeenS3Request[] = [];
  const front = Deno.serve(
    {
      port: 0,
      hostname: "127.0.0.1",
      onListen() {},
      ...(certificates ? { cert: certificates.cert, key: certificates.key } : {}),
    },
    async (req) => {
      const url = new URL(req.url);
      const contentMd5 = req.headers.get("content-md5");
      const accessKeyId = /Credential=([^/,\s]+)\//.exec(req.headers.get("authorization") ?? "")?.[1] ?? null;
      requests.push({ method: req.method, path: url.pathname, contentMd5, accessKeyId });
      const body = req.body ? new Uint8Array(await req.arrayBuffer()) : undefined;
      if (body && contentMd5 !== null && createHash("md5").update(body).digest("base64") !== contentMd5) {
        return new Response(
          '<?xml version="1.0" encoding="UTF-8"?><Error><Code>BadDigest</Code>' +
            "<Message>The Content-MD5 you specified did not match what we received.</Message></Error>",
          { status: 400, headers: { "content-type": "application/xml" } },
        );
      }
      const headers = new Headers(req.headers);
      headers.delete("host");
      const answer = await fetch(`${backend}${url.pathname}${url.search}`, {
        method: req.method,
        headers,
        body: body as Uint8Array<ArrayBuffer> | undefined,
        redirect: "manual",
      });
      return new Response(req.method === "HEAD" ? null : answer.body, {
        status: answer.status,
        headers: answer.headers,
      });
    },
  );
  const file = (bucket: string, key: string, resource: string) => {
    const parts = key.split("/");
    const last = parts.pop()!;
    return [dir, bucket, ...parts, `${last}._S3rver_${resource}`].join("/");
  };
  const readOrUndefined = async <T>(read: () => Promise<T>) => {
    try {
      return await read();
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return undefined;
      throw err;
    }
  };
  return {
    endpoint: `${certificates ? "https" : "http"}://127.0.0.1:${front.addr.port}`,
    caCert: certificates?.caCert,
    requests,
    object: (bucket, key) => readOrUndefined(() => Deno.readFile(file(bucket, key, "object"))),
    objectMd5: (bucket, key) => readOrUndefined(() => Deno.readTextFile(file(bucket, key, "object.md5"))),
    hasBucket: async (bucket) => (await readOrUndefined(() => Deno.stat(`${dir}/${bucket}`)))?.isDirectory ?? false,
    close: async () => {
      await front.shutdown();
      await s3rver.stop();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** s3rver's package directory, as `deno install` lays it out (its dependencies beside it, where Node looks). */
const S3RVER_PACKAGE = new URL("../../node_modules/s3rver", import.meta.url).pathname;

/** Starts s3rver (Node) on a free loopback port; it stops when its standard input closes. */
const S3RVER_MAIN = `
const S3rver = require(process.argv[1]);
const server = new S3rver({
  port: 0, address: "127.0.0.1", silent: true, directory: process.argv[2],
  configureBuckets: JSON.parse(process.argv[3]).map((name) => ({ name, configs: [] })),
});
server.run().then(({ port }) => console.log(port), (err) => { console.error(err); process.exit(1); });
process.stdin.on("end", () => server.close().then(() => process.exit(0)));
process.stdin.resume();
`;

async function startS3rver(dir: string, buckets: string[]): Promise<{ port: number; stop(): Promise<void> }> {
  const child = new Deno.Command("node", {
    args: ["-e", S3RVER_MAIN, S3RVER_PACKAGE, dir, JSON.stringify(buckets)],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await lines.read();
    if (done) throw new Error("s3rver exited before listening");
    text += value;
  }
  lines.releaseLock();
  // Keep reading so that the child never blocks on a full pipe.
  const drained = child.stdout.pipeTo(new WritableStream()).catch(() => {});
  return {
    port: Number(text.trim()),
    async stop() {
      await child.stdin.close();
      await child.status;
      await drained;
    },
  };
}
