/**
 * The sandbox's gRPC endpoint over real loopback HTTP/2: Connect's client where it can make the call,
 * `node:http2` as a raw client for the inputs no well-behaved client sends (wrong content type, broken
 * envelopes, resets).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import * as http2 from "node:http2";
import { Buffer } from "node:buffer";
import { create, fromBinary, type MessageInitShape, toBinary } from "@bufbuild/protobuf";
import {
  type Client,
  Code,
  ConnectError,
  type ConnectRouter,
  createClient,
  type Interceptor,
  type ServiceImpl,
} from "@connectrpc/connect";
import { encodeEnvelope } from "@connectrpc/connect/protocol";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { ResourceListRequestSchema } from "../../proto/gen/flyteidl/admin/common_pb.ts";
import { TaskListSchema } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import { AdminService } from "../../proto/gen/flyteidl/service/admin_pb.ts";
import { createGrpcRouter } from "./grpc_router.ts";
import { listenHttp2 } from "./http2_listener.ts";
import { FaultInjector } from "./faults.ts";
import { recordAndInject, type RecordedRequest } from "./record_and_inject.ts";
import { type Sandbox, startSandbox } from "./mod.ts";
import { DOMAIN, PROJECT, taskInit } from "./_test_helpers.ts";
import { type RawAnswer, type RawCall, rawGrpcCall } from "./_test_raw_grpc.ts";

const LIST_TASKS = "/flyteidl.service.AdminService/ListTasks";
const LIST: MessageInitShape<typeof ResourceListRequestSchema> = { id: { project: PROJECT, domain: DOMAIN }, limit: 5 };

/** A ListTasks request, encoded. */
const enc = () => toBinary(ResourceListRequestSchema, create(ResourceListRequestSchema, LIST));
/** A message in its gRPC envelope; flag 1 marks it compressed. */
const envelope = (message: Uint8Array, flags = 0) => encodeEnvelope(flags, message);
/** A ListTasks request in its envelope. */
const listRequest = () => envelope(enc());

/** One request on `session` with the raw HTTP/2 client, a ListTasks call unless `call` says otherwise. */
function rawCall(session: http2.ClientHttp2Session, call: Partial<RawCall> = {}): Promise<RawAnswer> {
  return rawGrpcCall(session, { ...call, path: call.path ?? LIST_TASKS, body: call.body ?? listRequest() });
}

/**
 * grpc-status and the percent-decoded grpc-message of an answer, from its trailers or, for a Trailers-Only
 * answer, its headers.
 */
function status(answer: RawAnswer): [number, string] {
  const source = answer.trailers["grpc-status"] !== undefined ? answer.trailers : answer.headers;
  return [Number(source["grpc-status"]), decodeURIComponent(String(source["grpc-message"] ?? ""))];
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

interface RouterSetup {
  /** AdminService methods to serve; the others answer UNIMPLEMENTED. */
  admin: Partial<ServiceImpl<typeof AdminService>>;
  interceptors?: Interceptor[];
  shutdown?: AbortController;
}

/** Serves `setup` with the router alone and connects a raw session to it. */
async function withRouter(
  setup: RouterSetup,
  fn: (ctx: { session: http2.ClientHttp2Session; baseUrl: string }) => Promise<void>,
): Promise<void> {
  const onRequest = createGrpcRouter({
    routes: (router: ConnectRouter) => void router.service(AdminService, setup.admin),
    interceptors: setup.interceptors ?? [],
    shutdownSignal: (setup.shutdown ?? new AbortController()).signal,
  });
  const server = await listenHttp2(onRequest, { port: 0, hostname: "127.0.0.1" });
  const baseUrl = `http://127.0.0.1:${server.port}`;
  const session = http2.connect(baseUrl);
  try {
    await fn({ session, baseUrl });
  } finally {
    session.close();
    await server.close();
  }
}

/** Waits until `done()` holds, polling every 2 ms. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 2));
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
  stream.end(envelope(new Uint8Array()));
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
      assertEquals(status(answer), [
        Code.Internal,
        `invalid gRPC request content-type ${JSON.stringify(contentType)}`,
      ]);
    }
    assertEquals(status(await rawCall(session, { headers: { "content-type": "Application/GRPC+Proto" } })), [0, ""]);
    assertEquals(sandbox.requests.length, 1);
  });
});

Deno.test("a method other than POST answers HTTP 405", async () => {
  await withSandboxSession(async (sandbox, session) => {
    const answer = await rawCall(session, { headers: { ":method": "PUT" } });
    assertEquals([answer.headers[":status"], status(answer)[0]], [405, Code.Internal]);
    assertEquals(sandbox.requests, []);
  });
});

Deno.test("unknown services and methods answer UNIMPLEMENTED", async () => {
  await withSandboxSession(async (sandbox, session) => {
    for (const path of ["/flyteidl.service.AdminService/Nope", "/no.Such/Service", "/"]) {
      const answer = await rawCall(session, { path });
      assertEquals(answer.headers[":status"], 200);
      assertEquals(answer.trailers, {});
      assertEquals(status(answer), [Code.Unimplemented, `unknown method ${JSON.stringify(path)}`], path);
    }
    assertEquals(sandbox.requests.length, 0);
    // Known but not implemented: recorded, then UNIMPLEMENTED.
    const answer = await rawCall(session, {
      path: "/flyteidl.service.AdminService/ListMatchableAttributes",
      body: envelope(new Uint8Array()),
    });
    assertEquals(status(answer), [
      Code.Unimplemented,
      "flyteidl.service.AdminService.ListMatchableAttributes is not implemented",
    ]);
    assertEquals(sandbox.requests.map((r) => r.method), ["ListMatchableAttributes"]);
    await withConnectClient(sandbox.endpoint, async (client) => {
      const err = await client.listMatchableAttributes({}).then(() => undefined, (e: unknown) => ConnectError.from(e));
      assertEquals(err?.code, Code.Unimplemented);
    });
  });
});

Deno.test("broken envelopes answer an error status and are not recorded", async () => {
  await withSandboxSession(async (sandbox, session) => {
    const message = enc();
    const cases: [string, Uint8Array, Code][] = [
      ["compressed", envelope(message, 1), Code.Internal],
      ["truncated", envelope(message).subarray(0, 8), Code.InvalidArgument],
      ["shorter than a prefix", envelope(message).subarray(0, 3), Code.InvalidArgument],
      ["empty", new Uint8Array(), Code.Unimplemented],
      ["two messages", Buffer.concat([envelope(message), envelope(message)]), Code.Unimplemented],
      ["not protobuf", envelope(new Uint8Array([0xff, 0xff, 0xff])), Code.Internal],
    ];
    for (const [name, body, code] of cases) {
      const answer = await rawCall(session, { body });
      assertEquals(answer.headers[":status"], 200, name);
      assertEquals(status(answer)[0], code, name);
    }
    assert(status(await rawCall(session, { body: envelope(message, 1) }))[1].includes("compressed"));
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

Deno.test("grpc-message is percent-encoded, and errors other than ConnectErrors are INTERNAL", async () => {
  const message = "100% grün, ✓ done\r\n\ttab";
  const admin: RouterSetup["admin"] = {
    getTask: () => {
      throw new ConnectError(message, Code.NotFound);
    },
    listTasks: () => {
      throw new Error("a bug with private details");
    },
  };
  await withRouter({ admin }, async ({ session, baseUrl }) => {
    const answer = await rawCall(session, {
      path: "/flyteidl.service.AdminService/GetTask",
      body: envelope(new Uint8Array()),
    });
    assertEquals(status(answer), [Code.NotFound, message]);
    assert(/^[\x20-\x7e]*$/.test(String(answer.trailers["grpc-message"])), String(answer.trailers["grpc-message"]));
    await withConnectClient(baseUrl, async (client) => {
      const err = await client.getTask({}).then(() => undefined, (e: unknown) => ConnectError.from(e));
      assertEquals([err?.code, err?.rawMessage], [Code.NotFound, message]);
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

    sandbox.setLatency(30);
    assertEquals(status(await rawCall(session, { headers: { "grpc-timeout": "10S" } })), [0, ""]);
    // Longer than any timer holds (such a timer would fire at once): served as if no deadline were given.
    assertEquals(status(await rawCall(session, { headers: { "grpc-timeout": "99999999H" } })), [0, ""]);
    sandbox.setLatency(0);
    for (const malformed of ["soon", "20", "123456789m", "-1m"]) {
      const answer = await rawCall(session, { headers: { "grpc-timeout": malformed } });
      assertEquals(status(answer), [Code.InvalidArgument, `protocol error: invalid grpc timeout value: ${malformed}`]);
    }
    for (const valid of ["3S", "1H", "500u"]) {
      assertEquals(status(await rawCall(session, { headers: { "grpc-timeout": valid } })), [0, ""], valid);
    }
  }, 200);
});

Deno.test("a deadline ends the latency of a call at once, long before the latency would", async () => {
  await withSandboxSession(async (sandbox, session) => {
    await rawCall(session);
    sandbox.setLatency(60_000);
    const start = performance.now();
    const answer = await rawCall(session, { headers: { "grpc-timeout": "30m" } });
    assertEquals(status(answer)[0], Code.DeadlineExceeded);
    assert(performance.now() - start < 1000, `took ${performance.now() - start} ms`);
  });
});

Deno.test("a client reset mid-latency aborts the call, and the connection keeps serving", async () => {
  await withSandboxSession(async (sandbox, session) => {
    const stream = session.request({ ":method": "POST", ":path": LIST_TASKS, "content-type": "application/grpc" });
    stream.on("error", () => {});
    const closed = new Promise((resolve) => stream.on("close", resolve));
    stream.end(listRequest());
    await until(() => sandbox.requests.length === 1);
    stream.close(http2.constants.NGHTTP2_CANCEL);
    await closed;
    sandbox.setLatency(0);
    assertEquals(status(await rawCall(session)), [0, ""]);
    await withConnectClient(sandbox.endpoint, async (client) => {
      sandbox.setLatency(5_000);
      const aborter = new AbortController();
      const pending = client.listTasks(LIST, { signal: aborter.signal }).then(() => "answered", () => "failed");
      await until(() => sandbox.requests.length === 3);
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
  const admin: RouterSetup["admin"] = {
    getTask: async (_request, context) => {
      entered = true;
      context.signal.addEventListener("abort", () => reasons.push(context.signal.reason), { once: true });
      await released; // answers after the client has gone
      return {};
    },
    listTasks: () => ({ tasks: [] }),
  };
  await withRouter({ admin }, async ({ session }) => {
    await resetGetTask(session, () => until(() => entered));
    assertEquals(reasons.map((r) => (r as ConnectError).code), [Code.Canceled]);
    release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    assertEquals(status(await rawCall(session)), [0, ""]);
  });
});

Deno.test("latency ends at once with CANCELED when the client resets, so the method never runs", async () => {
  const faults = new FaultInjector();
  const requests: RecordedRequest[] = [];
  const outcomes: string[] = [];
  let ran = 0;
  const observe: Interceptor = (next) => async (request) => {
    const started = performance.now();
    try {
      const response = await next(request);
      outcomes.push(`${request.method.name} waited ${performance.now() - started >= 4 ? "enough" : "too little"}`);
      return response;
    } catch (err) {
      outcomes.push(`${request.method.name} failed: ${Code[ConnectError.from(err).code]}`);
      throw err;
    }
  };
  const admin: RouterSetup["admin"] = { getTask: () => (ran++, {}), listTasks: () => ({ tasks: [] }) };
  const interceptors = [observe, recordAndInject({ requests, faults, now: () => new Date() })];
  await withRouter({ admin, interceptors }, async ({ session }) => {
    faults.latencyMs = 5;
    assertEquals(status(await rawCall(session)), [0, ""]);
    faults.latencyMs = 60_000;
    await resetGetTask(session, () => until(() => requests.length === 2));
    assertEquals(outcomes, ["ListTasks waited enough", "GetTask failed: Canceled"]);
    assertEquals(ran, 0);
  });
});

Deno.test("the shutdown signal answers calls in flight with its reason, and refuses later ones", async () => {
  const shutdown = new AbortController();
  const faults = new FaultInjector();
  faults.latencyMs = 60_000;
  const requests: RecordedRequest[] = [];
  let ran = 0;
  const admin: RouterSetup["admin"] = { listTasks: () => (ran++, { tasks: [] }) };
  const interceptors = [recordAndInject({ requests, faults, now: () => new Date() })];
  await withRouter({ admin, interceptors, shutdown }, async ({ session }) => {
    const inFlight = [rawCall(session), rawCall(session)];
    await until(() => requests.length === 2);
    shutdown.abort(new ConnectError("server is stopping", Code.Unavailable));
    for (const answer of await Promise.all(inFlight)) {
      assertEquals(status(answer), [Code.Unavailable, "server is stopping"]);
    }
    faults.latencyMs = 0;
    assertEquals(status(await rawCall(session)), [Code.Unavailable, "server is stopping"]);
    assertEquals([requests.length, ran], [3, 0]);
  });
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
