import { deepStrictEqual as assertEquals, ok as assert, rejects as assertRejects } from "node:assert/strict";
import { Code } from "@connectrpc/connect";
import { createHash } from "node:crypto";
import { createAdminClient } from "../admin/client.ts";
import { OperationError } from "../errors.ts";
import { startSandbox } from "../sandbox/mod.ts";
import { putFile } from "./put_file.ts";
import { md5File, uploadFastSource } from "./upload.ts";
import { fixture } from "./_test_helpers.ts";

interface Received {
  method: string;
  contentLength: string | null;
  transferEncoding: string | null;
  contentMd5: string | null;
  extra: string | null;
  bytes: Uint8Array;
}

/** A real HTTP server that records one PUT and answers with `status`. */
async function withServer(status: number, fn: (url: string, received: Received[]) => Promise<void>): Promise<void> {
  const received: Received[] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    received.push({
      method: req.method,
      contentLength: req.headers.get("content-length"),
      transferEncoding: req.headers.get("transfer-encoding"),
      contentMd5: req.headers.get("content-md5"),
      extra: req.headers.get("x-extra"),
      bytes: new Uint8Array(await req.arrayBuffer()),
    });
    return new Response(status === 200 ? "" : "<Error><Code>AccessDenied</Code></Error>", { status });
  });
  try {
    await fn(`http://127.0.0.1:${server.addr.port}/bucket/key.tar.gz?X-Amz-Signature=secret`, received);
  } finally {
    await server.shutdown();
  }
}

Deno.test("md5File hashes a file as a stream", async () => {
  const path = fixture("flytesnacks-core.tgz");
  const bytes = await Deno.readFile(path);
  const { md5, size } = await md5File(path);
  assertEquals(size, bytes.length);
  assertEquals(md5, new Uint8Array(createHash("md5").update(bytes).digest()));
});

Deno.test("putFile streams the file with a Content-Length (S3 refuses chunked PUTs) and the given headers", async () => {
  const path = fixture("flytesnacks-core.tgz");
  const bytes = await Deno.readFile(path);
  await withServer(200, async (url, received) => {
    await putFile(url, { path, size: bytes.length, headers: { "Content-MD5": "abc", "X-Extra": "1" } });
    assertEquals(received.length, 1);
    const [put] = received;
    assertEquals(put.method, "PUT");
    assertEquals(put.contentLength, String(bytes.length));
    assertEquals(put.transferEncoding, null);
    assertEquals([put.contentMd5, put.extra], ["abc", "1"]);
    assertEquals(put.bytes, bytes);
  });
});

Deno.test("putFile: a non-2xx answer is an error with the status and body, never the signature", async () => {
  const path = fixture("valid-register.tgz");
  await withServer(403, async (url) => {
    await assertRejects(
      putFile(url, { path, size: (await Deno.stat(path)).size, label: "src.tar.gz" }),
      (err: Error) => {
        assert(err instanceof OperationError);
        assert(!err.message.includes("secret"), err.message);
        assert(
          /^uploading "src.tar.gz" to http:\/\/127\.0\.0\.1:\d+\/bucket\/key\.tar\.gz failed: HTTP 403: <Error><Code>AccessDenied/
            .test(err.message),
          err.message,
        );
        return true;
      },
    );
  });
});

Deno.test("uploadFastSource: CreateUploadLocation with the MD5, then the PUT the sandbox verifies", async () => {
  const sandbox = await startSandbox();
  const client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
  try {
    const path = fixture("valid-register.tgz");
    const uploaded = await uploadFastSource(client, {
      project: "p",
      domain: "d",
      path,
      name: "dir/fastabc.tar.gz",
    });
    assert(uploaded.location.endsWith("/fastabc.tar.gz"), uploaded.location);
    assertEquals(sandbox.uploads.get(uploaded.location), await Deno.readFile(path));
    assertEquals(sandbox.requests.map((r) => r.method), ["CreateUploadLocation"]);

    sandbox.failNext("CreateUploadLocation", Code.Unimplemented);
    await assertRejects(
      uploadFastSource(client, { project: "p", domain: "d", path, name: "fastabc.tar.gz" }),
      /does not implement CreateUploadLocation; uploading through configured storage is not supported yet/,
    );
  } finally {
    client.close();
    await sandbox.close();
  }
});
