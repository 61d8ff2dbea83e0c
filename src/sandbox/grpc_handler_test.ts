/**
 * The gRPC handler over real loopback HTTP/2: Connect's client where it can make the call, `node:http2` as a
 * raw client for the inputs no well-behaved client sends (wrong content type, broken envelopes, resets).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import * as http2 from "node:http2";
import { Buffer } from "node:buffer";
import { create, fromBinary, type MessageInitShape, toBinary } from "@bufbuild/protobuf";
import { encodeEnvelope } from "../admin/grpc_envelope.ts";
import { type Client, Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { ResourceListRequestSchema } from "../../proto/gen/flyteidl/admin/common_pb.ts";
import { TaskListSchema } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import { AdminService } from "../../proto/gen/flyteidl/service/admin_pb.ts";
import { createGrpcHandler, encodeGrpcMessage, type GrpcService, type UnaryCall } from "./grpc_handler.ts";
import { startHttp2Server } from "./http2_server.ts";
import { type Sandbox, startSandbox } from "./mod.ts";
import { DOMAIN, PROJECT, taskInit } from "./_test_helpers.ts";

const LIST_TASKS = "/flyteidl.service.AdminService/ListTasks";
const LIST: MessageInitShape<typeof ResourceListRequestSchema> = { id: { project: PROJECT, domain: DOMAIN }, limit: 5 };

/** A ListTasks request, encoded. */
const enc = () => toBinary(ResourceListRequestSchema, create(ResourceListRequestSchema, LIST));
/** A ListTasks request in its envelope. */
const listRequest = () => encodeEnvelope(enc());

interface RawAnswer {
  headers: http2.IncomingHttpHeaders;
  trailers: http2.IncomingHttpHeaders;
  body: Buffer;
}

interface RawCall {
  path?: string;
  headers?: http2.OutgoingHttpHeaders;
  /** Sent as given; an array is sent chunk by chunk, 5 ms apart. */
  body?: Uint8Array | Uint8Array[];
}

/** One request on `session` with the raw HTTP/2 client; resolves when the stream ends. */
function rawCall(session: http2.ClientHttp2Session, call: RawCall = {}): Promise<RawAnswer> {
  const stream = session.request({
    ":method": "POST",
    ":path": call.path ?? LIST_TASKS,
    "content-type": "application/grpc",
    te: "trailers",
    ...call.headers,
  });
  return new Promise((resolve, reject) => {
    let headers: http2.IncomingHttpHeaders = {};
    let trailers: http2.IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    stream.on("response", (h) => void (headers = h));
    stream.on("trailers", (t) => void (trailers = t));
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("error", reject);
    stream.on("close", () => resolve({ headers, trailers, body: Buffer.concat(chunks) }));
    const body = call.body ?? listRequest();
    if (!Array.isArray(body)) return void stream.end(body);
    (async () => {
      for (const [i, chunk] of body.entries()) {
        if (i > 0) await new Promise((r) => setTimeout(r, 5));
        if (i === body.length - 1) stream.end(chunk);
        else stream.write(chunk);
      }
    })();
  });
}

/** grpc-status and grpc-message of an answer, from its trailers or, for Trailers-Only, its headers. */
function status(answer: RawAnswer): [number, string] {
  const source = answer.trailers["grpc-status"] !== undefined ? answer.trailers : answer.headers;
  return [Number(source["grpc-status"]), String(source["grpc-message"] ?? "")];
}

async function withSandboxSession(
  fn: (sandbox: Sandbox, session: http2.ClientHttp2Session) => Promise<void>,
  latencyMs = 0,
): Promise<void> {
  const sandbox = await startSandbox({ latencyMs });
  const session = http2.connect(sandbox.endpoint);
  try {
    await fn(sandbox, session);
  } finally {
    session.close();
    await sandbox.close();
  }
}

/** Runs `fn` with Connect's own gRPC client for AdminService at `baseUrl`, on one HTTP/2 connection. */
async function withConnectClient(
  baseUrl: string,
  fn: (client: Client<typeof AdminService>) => Promise<void>,
): Promise<void> {
  const sessionManager = new Http2SessionManager(baseUrl);
  try {
    await fn(createClient(AdminService, createGrpcTransport({ baseUrl, sessionManager })));
  } finally {
    sessionManager.abort();
  }
}

/** Serves `services` with the handler alone and connects a raw session and a Connect client to it. */
async function withHandler(
  services: GrpcService[],
  fn: (ctx: { session: http2.ClientHttp2Session; baseUrl: string }) => Promise<void>,
  beforeCall?: (call: UnaryCall) => void | Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  const server = await startHttp2Server(createGrpcHandler({ services, beforeCall, signal }), {
    port: 0,
    hostname: "127.0.0.1",
  });
  const baseUrl = `http://127.0.0.1:${server.port}`;
  const session = http2.connect(baseUrl);
  try {
    await fn({ session, baseUrl });
  } finally {
    session.close();
    await server.close();
  }
}

/**
 * Sends a GetTask call, resets it (CANCEL) once `handled` resolves, and gives the server 20 ms to see the
 * reset before returning.
 */
async function resetGetTask(session: http2.ClientHttp2Session, handled: () => Promise<unknown>): Promise<void> {
  const stream = session.request({
    ":method": "POST",
    ":path": "/flyteidl.service.AdminService/GetTask",
    "content-type": "application/grpc",
  });
  stream.on("error", () => {});
  stream.end(encodeEnvelope(new Uint8Array()));
  await handled();
  stream.close(http2.constants.NGHTTP2_CANCEL);
  await new Promise((resolve) => stream.on("close", resolve));
  await new Promise((resolve) => setTimeout(resolve, 20));
}

Deno.test("a unary call answers headers, one message and grpc-status 0 in trailers", async () => {
  await withSandboxSession(async (sandbox, session) => {
    sandbox.store.addTask(taskInit("t", "v1"));
    const answer = await rawCall(session);
    assertEquals(answer.headers[":status"], 200);
    assertEquals(answer.headers["content-type"], "application/grpc+proto");
    assertEquals(answer.headers["grpc-status"], undefined);
    assertEquals(status(answer), [0, ""]);
    assertEquals(answer.body[0], 0);
    assertEquals(answer.body.readUInt32BE(1), answer.body.byteLength - 5);
    const list = fromBinary(TaskListSchema, answer.body.subarray(5));
    assertEquals(list.tasks.map((t) => t.id?.name), ["t"]);
    assertEquals(sandbox.requests.map((r) => `${r.service}.${r.method}`), ["AdminService.ListTasks"]);
  });
});

Deno.test("a request body in several DATA frames is read whole", async () => {
  await withSandboxSession(async (sandbox, session) => {
    const body = listRequest();
    const answer = await rawCall(session, { body: [body.subarray(0, 2), body.subarray(2, 7), body.subarray(7)] });
    assertEquals(status(answer), [0, ""]);
    const recorded = sandbox.requests[0].request as { id?: { project: string }; limit: number };
    assertEquals([recorded.id?.project, recorded.limit], [PROJECT, 5]);
  });
});

Deno.test("a content type other than application/grpc(+proto) answers HTTP 415 with a grpc-status", async () => {
  await withSandboxSession(async (sandbox, session) => {
    for (const contentType of ["application/json", "application/grpc+json", "application/grpc-web", ""]) {
      const answer = await rawCall(session, { headers: { "content-type": contentType } });
      assertEquals(answer.headers[":status"], 415, contentType);
      assertEquals(status(answer)[0], Code.Internal);
    }
    assertEquals(status(await rawCall(session, { headers: { "content-type": "Application/GRPC+Proto" } })), [0, ""]);
    assertEquals(sandbox.requests.length, 1);
  });
});

Deno.test("a method other than POST answers HTTP 405", async () => {
  await withSandboxSession(async (_sandbox, session) => {
    const answer = await rawCall(session, { headers: { ":method": "PUT" } });
    assertEquals([answer.headers[":status"], status(answer)[0]], [405, Code.Internal]);
  });
});

Deno.test("unknown services and methods answer UNIMPLEMENTED as a Trailers-Only response", async () => {
  await withSandboxSession(async (sandbox, session) => {
    for (const path of ["/flyteidl.service.AdminService/Nope", "/no.Such/Service", "/"]) {
      const answer = await rawCall(session, { path });
      assertEquals(answer.headers[":status"], 200);
      assertEquals(answer.trailers, {});
      assertEquals(status(answer)[0], Code.Unimplemented, path);
    }
    // Known but not implemented: recorded, then UNIMPLEMENTED, as Connect answered.
    const answer = await rawCall(session, {
      path: "/flyteidl.service.AdminService/ListProjects",
      body: encodeEnvelope(new Uint8Array()),
    });
    assertEquals(status(answer), [Code.Unimplemented, "flyteidl.service.AdminService.ListProjects is not implemented"]);
    assertEquals(sandbox.requests.map((r) => r.method), ["ListProjects"]);
  });
});

Deno.test("broken envelopes answer an error status and are not recorded", async () => {
  await withSandboxSession(async (sandbox, session) => {
    const message = enc();
    const cases: [string, Uint8Array, Code][] = [
      ["compressed", encodeEnvelope(message, 1), Code.Internal],
      ["truncated", encodeEnvelope(message).subarray(0, 8), Code.InvalidArgument],
      ["shorter than a prefix", encodeEnvelope(message).subarray(0, 3), Code.InvalidArgument],
      ["empty", new Uint8Array(), Code.Unimplemented],
      ["two messages", Buffer.concat([encodeEnvelope(message), encodeEnvelope(message)]), Code.Unimplemented],
      ["not protobuf", encodeEnvelope(new Uint8Array([0xff, 0xff, 0xff])), Code.Internal],
    ];
    for (const [name, body, code] of cases) {
      const answer = await rawCall(session, { body });
      assertEquals(answer.headers[":status"], 200, name);
      assertEquals(status(answer)[0], code, name);
    }
    assert(status(await rawCall(session, { body: encodeEnvelope(message, 1) }))[1].includes("compressed"));
    assertEquals(sandbox.requests, []);
    assertEquals(status(await rawCall(session)), [0, ""]);
  });
});

Deno.test("a requested compression answers UNIMPLEMENTED: none is supported", async () => {
  await withSandboxSession(async (_sandbox, session) => {
    const answer = await rawCall(session, { headers: { "grpc-encoding": "gzip" } });
    assertEquals(status(answer)[0], Code.Unimplemented);
    assertEquals(status(await rawCall(session, { headers: { "grpc-encoding": "identity" } })), [0, ""]);
  });
});

Deno.test("grpc-message is percent-encoded per the gRPC spec and decodes back to the message", async () => {
  assertEquals(encodeGrpcMessage("plain ASCII: ok!"), "plain ASCII: ok!");
  assertEquals(encodeGrpcMessage("100% grün\n"), "100%25 gr%C3%BCn%0A");
  const message = "100% grün, ✓ done\r\n\ttab";
  const services: GrpcService[] = [{
    service: AdminService,
    impl: {
      getTask: () => {
        throw new ConnectError(message, Code.NotFound);
      },
      listTasks: () => {
        throw new Error("a bug with private details");
      },
    },
  }];
  await withHandler(services, async ({ session, baseUrl }) => {
    const answer = await rawCall(session, {
      path: "/flyteidl.service.AdminService/GetTask",
      body: encodeEnvelope(new Uint8Array()),
    });
    assertEquals(status(answer), [Code.NotFound, encodeGrpcMessage(message)]);
    assert(/^[\x20-\x7e]*$/.test(status(answer)[1]));
    await withConnectClient(baseUrl, async (client) => {
      const err = await client.getTask({}).then(() => undefined, (e: unknown) => ConnectError.from(e));
      assertEquals([err?.code, err?.rawMessage], [Code.NotFound, message]);
      // Other errors are INTERNAL "internal error", as Connect's server sends them.
      const bug = await client.listTasks({}).then(() => undefined, (e: unknown) => ConnectError.from(e));
      assertEquals([bug?.code, bug?.rawMessage], [Code.Internal, "internal error"]);
    });
  });
});

Deno.test("grpc-timeout is honoured: DEADLINE_EXCEEDED when it passes, and a malformed one is rejected", async () => {
  await withSandboxSession(async (sandbox, session) => {
    await rawCall(session); // connect first, so only the call is timed
    const start = performance.now();
    const answer = await rawCall(session, { headers: { "grpc-timeout": "20m" } });
    const took = performance.now() - start;
    assertEquals(status(answer), [Code.DeadlineExceeded, "the operation timed out"]);
    assert(took < 150, `took ${took} ms`);
    assertEquals(sandbox.requests.length, 2);

    sandbox.setLatency(0);
    assertEquals(status(await rawCall(session, { headers: { "grpc-timeout": "10S" } })), [0, ""]);
    assertEquals(status(await rawCall(session, { headers: { "grpc-timeout": "99999999H" } })), [0, ""]);
    for (const malformed of ["soon", "20", "123456789m", "-1m"]) {
      const answer = await rawCall(session, { headers: { "grpc-timeout": malformed } });
      assertEquals(status(answer), [Code.InvalidArgument, `protocol error: invalid grpc timeout value: ${malformed}`]);
    }
    for (const valid of ["3S", "1H", "500u"]) {
      assertEquals(status(await rawCall(session, { headers: { "grpc-timeout": valid } })), [0, ""], valid);
    }
  }, 200);
});

Deno.test("a client reset mid-latency aborts the call, and the connection keeps serving", async () => {
  await withSandboxSession(async (sandbox, session) => {
    const stream = session.request({ ":method": "POST", ":path": LIST_TASKS, "content-type": "application/grpc" });
    stream.on("error", () => {});
    const closed = new Promise((resolve) => stream.on("close", resolve));
    stream.end(listRequest());
    while (sandbox.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
    stream.close(http2.constants.NGHTTP2_CANCEL);
    await closed;
    sandbox.setLatency(0);
    assertEquals(status(await rawCall(session)), [0, ""]);
    await withConnectClient(sandbox.endpoint, async (client) => {
      sandbox.setLatency(5_000);
      const aborter = new AbortController();
      const pending = client.listTasks(LIST, { signal: aborter.signal }).then(() => "answered", () => "failed");
      while (sandbox.requests.length < 3) await new Promise((resolve) => setTimeout(resolve, 2));
      aborter.abort();
      assertEquals(await pending, "failed");
      sandbox.setLatency(0);
      await client.listTasks(LIST);
    });
  }, 5_000);
});

Deno.test("the call's signal is aborted CANCELED on a reset, and a late answer is dropped quietly", async () => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const reasons: unknown[] = [];
  let entered = false;
  const services: GrpcService[] = [{
    service: AdminService,
    impl: {
      getTask: async () => {
        await released; // answers after the client has gone
        return {};
      },
      listTasks: () => ({ tasks: [] }),
    },
  }];
  const beforeCall = (call: UnaryCall) => {
    if (call.method.name !== "GetTask") return;
    entered = true;
    call.signal.addEventListener("abort", () => reasons.push(call.signal.reason), { once: true });
  };
  await withHandler(services, async ({ session }) => {
    await resetGetTask(session, async () => {
      while (!entered) await new Promise((resolve) => setTimeout(resolve, 2));
    });
    assertEquals(reasons.map((r) => (r as ConnectError).code), [Code.Canceled]);
    release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    assertEquals(status(await rawCall(session)), [0, ""]);
  }, beforeCall);
});

Deno.test("sleep waits, and ends at once with CANCELED when the client resets, so the method never runs", async () => {
  const slept: string[] = [];
  let ran = 0;
  const services: GrpcService[] = [{
    service: AdminService,
    impl: { getTask: () => (ran++, {}), listTasks: () => ({ tasks: [] }) },
  }];
  const beforeCall = async (call: UnaryCall) => {
    const started = performance.now();
    try {
      await call.sleep(call.method.name === "GetTask" ? 60_000 : 5);
      slept.push(`${call.method.name} slept ${performance.now() - started >= 4 ? "enough" : "too little"}`);
    } catch (err) {
      slept.push(`${call.method.name} woke: ${Code[(err as ConnectError).code]}`);
      throw err;
    }
  };
  await withHandler(services, async ({ session }) => {
    assertEquals(status(await rawCall(session)), [0, ""]);
    await resetGetTask(session, () => new Promise((resolve) => setTimeout(resolve, 20)));
    assertEquals(slept, ["ListTasks slept enough", "GetTask woke: Canceled"]);
    assertEquals(ran, 0);
  }, beforeCall);
});

Deno.test("the handler's signal answers calls in flight with its reason, and refuses later ones", async () => {
  const shutdown = new AbortController();
  let waiting = 0;
  const services: GrpcService[] = [{ service: AdminService, impl: { listTasks: () => ({ tasks: [] }) } }];
  const beforeCall = (call: UnaryCall) => (waiting++, call.sleep(60_000));
  await withHandler(
    services,
    async ({ session }) => {
      const inFlight = [rawCall(session), rawCall(session)];
      while (waiting < 2) await new Promise((resolve) => setTimeout(resolve, 2));
      shutdown.abort(new ConnectError("server is stopping", Code.Unavailable));
      for (const answer of await Promise.all(inFlight)) {
        assertEquals(status(answer), [Code.Unavailable, "server is stopping"]);
      }
      assertEquals(status(await rawCall(session)), [Code.Unavailable, "server is stopping"]);
      assertEquals(waiting, 2);
    },
    beforeCall,
    shutdown.signal,
  );
});

Deno.test("many concurrent calls on one connection all succeed", async () => {
  await withSandboxSession(async (sandbox, session) => {
    sandbox.store.addTask(taskInit("t", "v1"));
    const raw = await Promise.all(Array.from({ length: 300 }, () => rawCall(session)));
    assert(raw.every((answer) => status(answer)[0] === 0));
    await withConnectClient(sandbox.endpoint, async (client) => {
      const lists = await Promise.all(Array.from({ length: 500 }, () => client.listTasks(LIST)));
      assert(lists.every((list) => list.tasks.length === 1));
    });
    assertEquals(sandbox.requests.length, 800);
  }, 1);
});
