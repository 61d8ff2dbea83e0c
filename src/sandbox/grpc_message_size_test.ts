/**
 * The sandbox refuses a request message over grpc-go's default receive limit (4 MiB, which FlyteAdmin keeps) as
 * grpc-go does: RESOURCE_EXHAUSTED with grpc-go's message, answered from the envelope's prefix before the rest of
 * the body is sent, reaching no interceptor or implementation; a message of exactly the limit is read and served.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import * as http2 from "node:http2";
import { Buffer } from "node:buffer";
import { Code } from "@connectrpc/connect";
import { ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { MAX_RECEIVE_MESSAGE_BYTES } from "./grpc_unary.ts";
import { adminError, id, taskInit, withSandbox } from "./_test_helpers.ts";

const CREATE_TASK = "/flyteidl.service.AdminService/CreateTask";

/** The prefix of an uncompressed envelope declaring a message of `length` bytes. */
function prefix(length: number): Uint8Array {
  const bytes = new Uint8Array(5);
  new DataView(bytes.buffer).setUint32(1, length);
  return bytes;
}

Deno.test("a request message over 4 MiB is refused RESOURCE_EXHAUSTED from its prefix, before the body is sent", async () => {
  await withSandbox(async (sandbox) => {
    const declared = MAX_RECEIVE_MESSAGE_BYTES + 1;
    const session = http2.connect(sandbox.endpoint);
    try {
      const stream = session.request({
        ":method": "POST",
        ":path": CREATE_TASK,
        "content-type": "application/grpc",
        te: "trailers",
      });
      let headers: http2.IncomingHttpHeaders = {};
      stream.on("response", (h) => void (headers = h));
      const trailers = new Promise<http2.IncomingHttpHeaders>((resolve) => stream.on("trailers", resolve));
      stream.on("data", () => {});
      stream.on("error", () => {});
      const closed = new Promise((resolve) => stream.on("close", resolve));
      // The prefix and a first part of the message: the answer comes without the rest.
      stream.write(Buffer.concat([prefix(declared), new Uint8Array(64 * 1024)]));
      const answered = await trailers;
      assertEquals(headers[":status"], 200);
      assertEquals(answered["grpc-status"], String(Code.ResourceExhausted));
      assertEquals(
        decodeURIComponent(String(answered["grpc-message"])),
        `grpc: received message larger than max (${declared} vs. 4194304)`,
      );
      // What the client still sends is discarded, then the stream closes with its end.
      stream.end(new Uint8Array(1024 * 1024));
      await closed;
      // The connection still serves.
      const again = session.request({ ":method": "POST", ":path": CREATE_TASK, "content-type": "application/grpc" });
      let status = "";
      again.on("trailers", (t) => void (status = String(t["grpc-status"])));
      again.on("data", () => {});
      again.end(prefix(0));
      await new Promise((resolve) => again.on("close", resolve));
      assertEquals(status, String(Code.InvalidArgument), "an empty CreateTaskRequest: missing id");
    } finally {
      session.close();
    }
    assertEquals(sandbox.store.tasks().length, 0);
    assertEquals(sandbox.requests.map((request) => request.method), ["CreateTask"], "only the second call");
  });
});

Deno.test("a client's request over 4 MiB fails RESOURCE_EXHAUSTED naming both sizes; one of exactly 4 MiB is served", async () => {
  await withSandbox(async (sandbox, client) => {
    const taskId = id(ResourceType.TASK, "big", "v1");
    const withDescription = (bytes: number) => ({
      id: taskId,
      spec: {
        template: { ...taskInit("big", "v1").spec?.template, id: taskId },
        description: { shortDescription: "x".repeat(bytes) },
      },
    });
    const refused = await adminError(client.admin.createTask(withDescription(MAX_RECEIVE_MESSAGE_BYTES)));
    assertEquals(refused.status, "ResourceExhausted");
    assert(
      /^grpc: received message larger than max \(\d+ vs\. 4194304\)$/.test(refused.serverMessage),
      refused.serverMessage,
    );
    assertEquals(sandbox.store.tasks().length, 0);
    // The same task with its description cut so that the message is exactly the limit.
    const over = Number(/\((\d+) vs/.exec(refused.serverMessage)![1]) - MAX_RECEIVE_MESSAGE_BYTES;
    await client.admin.createTask(withDescription(MAX_RECEIVE_MESSAGE_BYTES - over));
    assertEquals(sandbox.store.tasks().map((t) => t.id?.resourceType), [ResourceType.TASK]);
  });
});
