import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import type { AdminClient } from "../admin/client.ts";
import { adminError, DOMAIN, PROJECT, withSandbox } from "./_test_helpers.ts";

const body = new TextEncoder().encode("fast-register archive bytes");

function md5(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash("md5").update(bytes).digest());
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64");
}

function uploadLocation(client: AdminClient, contentMd5 = md5(body), filename = "fast.tar.gz") {
  return client.dataProxy.createUploadLocation({ project: PROJECT, domain: DOMAIN, filename, contentMd5 });
}

/** PUTs bytes and returns the status and text, always consuming the body. */
async function put(
  url: string,
  bytes: Uint8Array<ArrayBuffer>,
  headers: Record<string, string>,
): Promise<[number, string]> {
  const response = await fetch(url, { method: "PUT", body: bytes, headers });
  return [response.status, await response.text()];
}

Deno.test("CreateUploadLocation returns a signed URL on the sandbox and an s3 native URL", async () => {
  await withSandbox(async (_sandbox, client) => {
    const location = await uploadLocation(client);
    // FlyteAdmin's folder for an MD5 without a filename_root: the MD5 in standard base32, padding and all.
    const base32 = "UMGLEQ4XZ3JBP64COU2YGNSYYY======";
    assertEquals(location.nativeUrl, `s3://sandbox-bucket/${PROJECT}/${DOMAIN}/${base32}/fast.tar.gz`);
    assert(location.signedUrl.startsWith("http://127.0.0.1:"), location.signedUrl);
    // FlyteAdmin's S3 headers, its Content-Length the length of the Content-MD5's value (which clients must not send).
    assertEquals(location.headers, { "Content-Length": "24", "Content-MD5": base64(md5(body)) });
    assert(location.expiresAt && location.expiresAt.seconds * 1000n > BigInt(Date.now()));
    const metadata = await client.dataProxy.createUploadLocation({
      project: PROJECT,
      domain: DOMAIN,
      filename: "fast.tar.gz",
      contentMd5: md5(body),
      addContentMd5Metadata: true,
    });
    assertEquals(metadata.headers, {
      "Content-Length": "24",
      "Content-MD5": base64(md5(body)),
      "x-amz-meta-flyteContentMD5": base64(md5(body)),
    });
  });
});

Deno.test("CreateUploadLocation requires project and domain, an MD5 or a filename_root, and a 16-byte MD5 if any", async () => {
  await withSandbox(async (_sandbox, client) => {
    const noDomain = await adminError(
      client.dataProxy.createUploadLocation({ project: PROJECT, filename: "a", contentMd5: md5(body) }),
    );
    assertEquals(
      [noDomain.status, noDomain.serverMessage],
      ["InvalidArgument", "project and domain are required parameters"],
    );
    const neither = await adminError(uploadLocation(client, new Uint8Array()));
    assertEquals(
      [neither.status, neither.serverMessage],
      ["InvalidArgument", "content_md5 or filename_root is a required parameter"],
    );
    const shortMd5 = await adminError(uploadLocation(client, new Uint8Array(3)));
    assertEquals([shortMd5.status, shortMd5.serverMessage], ["InvalidArgument", "content_md5 must be 16 bytes, got 3"]);
  });
});

Deno.test("CreateUploadLocation makes up a filename when none is given, as FlyteAdmin does: 20 of its letters, new each time", async () => {
  await withSandbox(async (sandbox, client) => {
    const first = await uploadLocation(client, md5(body), "");
    const second = await uploadLocation(client, md5(body), "");
    const folder = `s3://sandbox-bucket/${PROJECT}/${DOMAIN}/UMGLEQ4XZ3JBP64COU2YGNSYYY======/`;
    for (const location of [first, second]) {
      assert(location.nativeUrl.startsWith(folder), location.nativeUrl);
      assert(/^[bcdfghjklmnpqrstvwxz2456789]{20}$/.test(location.nativeUrl.slice(folder.length)), location.nativeUrl);
    }
    assert(first.nativeUrl !== second.nativeUrl, first.nativeUrl);
    assertEquals(await put(first.signedUrl, body, first.headers), [200, "ok"]);
    assertEquals(sandbox.uploads.get(first.nativeUrl), body);
    // Under a filename_root too: a random name is never an existing location to check.
    const rooted = await client.dataProxy.createUploadLocation({ project: PROJECT, domain: DOMAIN, filenameRoot: "r" });
    assert(/\/r\/[bcdfghjklmnpqrstvwxz2456789]{20}$/.test(rooted.nativeUrl), rooted.nativeUrl);
  });
});

Deno.test("CreateUploadLocation with a filename_root and no MD5: the PUT needs no Content-MD5, and the file is not rewritten", async () => {
  await withSandbox(async (sandbox, client) => {
    const request = (contentMd5: Uint8Array<ArrayBuffer>) =>
      client.dataProxy.createUploadLocation({
        project: PROJECT,
        domain: DOMAIN,
        filenameRoot: "root1",
        filename: "a.txt",
        contentMd5,
        addContentMd5Metadata: true,
      });
    const location = await request(new Uint8Array());
    assertEquals(location.nativeUrl, `s3://sandbox-bucket/${PROJECT}/${DOMAIN}/root1/a.txt`);
    assertEquals(location.headers, { "Content-Length": "0", "Content-MD5": "", "x-amz-meta-flyteContentMD5": "" });
    // A Content-MD5 sent anyway is still checked against the body, as the object store checks it.
    const [wrong] = await put(location.signedUrl, body, { "Content-MD5": base64(md5(new Uint8Array(1))) });
    assertEquals(wrong, 400);
    assertEquals(await put(location.signedUrl, body, location.headers), [200, "ok"]);
    assertEquals(sandbox.uploads.get(location.nativeUrl), body);
    // There now: without an MD5 it is not rewritten; with the MD5 of what is there it may be.
    const refused = await adminError(request(new Uint8Array()));
    assertEquals(refused.status, "AlreadyExists");
    assert(refused.serverMessage.includes("specify a matching hash"), refused.serverMessage);
    assertEquals((await request(md5(body))).nativeUrl, location.nativeUrl);
    assertEquals((await adminError(request(md5(new Uint8Array(1))))).status, "AlreadyExists");
  });
});

Deno.test("a PUT with the right MD5 is stored under the native URL, once", async () => {
  await withSandbox(async (sandbox, client) => {
    const location = await uploadLocation(client);
    assertEquals(await put(location.signedUrl, body, location.headers), [200, "ok"]);
    assertEquals(sandbox.uploads.get(location.nativeUrl), body);
    const [again] = await put(location.signedUrl, body, location.headers);
    assertEquals(again, 403);
  });
});

Deno.test("the upload server rejects wrong MD5s, a missing header, unknown tokens and other methods", async () => {
  await withSandbox(async (sandbox, client) => {
    const location = await uploadLocation(client);
    const other = new TextEncoder().encode("something else");
    const [wrongBody, reason] = await put(location.signedUrl, other, location.headers);
    assertEquals(wrongBody, 400);
    assert(reason.includes("does not match Content-MD5"), reason);
    const [wrongHeader] = await put(location.signedUrl, other, { "Content-MD5": base64(md5(other)) });
    assertEquals(wrongHeader, 400);
    assertEquals(await put(location.signedUrl, body, {}), [400, "missing Content-MD5 header"]);
    const forged = location.signedUrl.replace(/token=[^&]+/, "token=forged");
    assertEquals((await put(forged, body, location.headers))[0], 403);
    const get = await fetch(location.signedUrl);
    assertEquals([get.status, get.headers.get("allow")], [405, "PUT"]);
    await get.body?.cancel();
    assertEquals(sandbox.uploads.size, 0);
    assertEquals(await put(location.signedUrl, body, location.headers), [200, "ok"]);
  });
});

Deno.test("the upload server refuses a chunked PUT (no Content-Length) with 411, as S3 refuses one", async () => {
  await withSandbox(async (sandbox, client) => {
    const location = await uploadLocation(client);
    const stream = ReadableStream.from([body]);
    const response = await fetch(location.signedUrl, { method: "PUT", body: stream, headers: location.headers });
    assertEquals(
      [response.status, await response.text()],
      [411, "a Content-Length header is required (chunked uploads are not supported)"],
    );
    assertEquals(sandbox.uploads.size, 0);
  });
});

Deno.test("dataProxy: false serves no DataProxy: CreateUploadLocation is UNIMPLEMENTED, as on an older FlyteAdmin", async () => {
  await withSandbox(async (sandbox, client) => {
    const err = await adminError(uploadLocation(client));
    assertEquals(err.status, "Unimplemented");
    assertEquals(sandbox.uploads.size, 0);
    // The admin service itself is unaffected.
    assertEquals((await client.admin.listTasks({ id: { project: PROJECT, domain: DOMAIN }, limit: 1 })).tasks, []);
  }, { dataProxy: false });
});

Deno.test("filename_root: several files under one root keep their relative paths; a different file there is refused", async () => {
  await withSandbox(async (sandbox, client) => {
    const request = (filename: string, bytes: Uint8Array, org = "") =>
      client.dataProxy.createUploadLocation({
        project: PROJECT,
        domain: DOMAIN,
        org,
        filenameRoot: "root1",
        filename,
        contentMd5: md5(bytes),
      });
    const nested = await request("sub/dir/a file.txt", body);
    // FlyteAdmin's native URL is a Go URL: the path's space percent-encoded, its slashes kept.
    assertEquals(nested.nativeUrl, `s3://sandbox-bucket/${PROJECT}/${DOMAIN}/root1/sub/dir/a%20file.txt`);
    assertEquals(await put(nested.signedUrl, body, nested.headers), [200, "ok"]);
    assertEquals([...sandbox.uploads.keys()], [nested.nativeUrl]);
    // The same bytes again (a retried upload) may be written; other bytes may not replace them.
    assertEquals((await request("sub/dir/a file.txt", body)).nativeUrl, nested.nativeUrl);
    const other = new TextEncoder().encode("other bytes");
    const refused = await adminError(request("sub/dir/a file.txt", other));
    assertEquals(refused.status, "AlreadyExists");
    assert(refused.serverMessage.includes("specify a matching hash"), refused.serverMessage);
    const withOrg = await request("b.txt", other, "org1");
    assertEquals(withOrg.nativeUrl, `s3://sandbox-bucket/org1/${PROJECT}/${DOMAIN}/root1/b.txt`);
  });
});

Deno.test("CreateUploadLocation grants FlyteAdmin's expiry: an hour by default and at most, a valid Duration only", async () => {
  await withSandbox(async (_sandbox, client) => {
    const ask = (seconds: bigint, nanos = 0) =>
      client.dataProxy.createUploadLocation({
        project: PROJECT,
        domain: DOMAIN,
        filename: "fast.tar.gz",
        contentMd5: md5(body),
        expiresIn: { seconds, nanos },
      });
    const hour = await ask(3600n);
    assert(hour.expiresAt && hour.expiresAt.seconds * 1000n > BigInt(Date.now()) + 3_500_000n);
    const over = await adminError(ask(3600n, 1));
    assertEquals([over.status, over.serverMessage], [
      "InvalidArgument",
      "expiresIn [1h0m0.000000001s] cannot exceed max allowed expiration [1h0m0s]",
    ]);
    const invalid = await adminError(ask(5n, -1));
    assertEquals([invalid.status, invalid.serverMessage], [
      "InvalidArgument",
      "expiresIn [seconds:5 nanos:-1] is invalid",
    ]);
    assertEquals((await adminError(ask(0n, 1))).serverMessage, "expires_in must be positive");
  });
});
