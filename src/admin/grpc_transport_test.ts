import { deepEqual, equal, match, ok, rejects, throws } from "node:assert/strict";
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { create, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, type Interceptor } from "@connectrpc/connect";
import { requestHeader } from "@connectrpc/connect/protocol-grpc";
import { Http2Connection } from "./http2_connection.ts";
import { AdminService } from "../../proto/gen/flyteidl/service/admin_pb.ts";
import { TaskListSchema } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import { type ResourceListRequest, ResourceListRequestSchema } from "../../proto/gen/flyteidl/admin/common_pb.ts";
import { withSandbox } from "../sandbox/_test_helpers.ts";
import { AdminError } from "./errors.ts";
import { createAdminClient } from "./client.ts";
import { connectErrorFromResetCode, createUnaryGrpcTransport, encodeAhead } from "./grpc_transport.ts";
import { encodeEnvelope } from "./grpc_envelope.ts";

type StreamHandler = (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders) => void;

/** A raw HTTP/2 server answering every stream with `handler`, for responses Connect's server never sends. */
async function withRawServer(
  handler: StreamHandler,
  fn: (client: ReturnType<typeof clientFor>, seen: http2.IncomingHttpHeaders[]) => Promise<void>,
  interceptors: Interceptor[] = [],
): Promise<void> {
  const seen: http2.IncomingHttpHeaders[] = [];
  const server = http2.createServer();
  server.on("stream", (stream, headers) => {
    seen.push(headers);
    stream.on("error", () => {}); // a client's reset is expected in some tests
    stream.resume();
    handler(stream, headers);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const connection = new Http2Connection(baseUrl);
  try {
    await fn(clientFor(baseUrl, connection, interceptors), seen);
  } finally {
    connection.close();
    await new Promise((resolve) => server.close(resolve));
  }
}

function clientFor(baseUrl: string, connection: Http2Connection, interceptors: Interceptor[]) {
  return createClient(AdminService, createUnaryGrpcTransport({ baseUrl, connection, interceptors }));
}

const TASK_LIST = toBinary(TaskListSchema, create(TaskListSchema, { token: "next-page" }));
const GRPC_HEADERS = { ":status": 200, "content-type": "application/grpc+proto" };

/** Answers with `body` and then `trailers`. */
function answer(body: Uint8Array, trailers: http2.OutgoingHttpHeaders = { "grpc-status": "0" }): StreamHandler {
  return (stream) => {
    stream.respond(GRPC_HEADERS, { waitForTrailers: true });
    stream.on("wantTrailers", () => stream.sendTrailers(trailers));
    stream.end(body);
  };
}

async function codeOf(call: Promise<unknown>): Promise<ConnectError> {
  try {
    await call;
  } catch (err) {
    ok(err instanceof ConnectError, `expected a ConnectError, got ${err}`);
    return err;
  }
  throw new Error("the call succeeded");
}

const LIST = { id: { project: "p", domain: "d" }, limit: 1 };

Deno.test("grpc transport: calls the sandbox admin; its error statuses reach the admin client", async () => {
  await withSandbox(async (_sandbox, client) => {
    deepEqual((await client.admin.listTasks(LIST)).tasks, []);
    await rejects(
      client.admin.getTask({ id: { resourceType: 1, project: "p", domain: "d", name: "t", version: "v" } }),
      (err) => err instanceof AdminError && err.status === "NotFound",
    );
  });
});

Deno.test("grpc transport: a message encoded ahead is sent as it was encoded then", async () => {
  await withSandbox(async (sandbox, client) => {
    const sentLimit = () => (sandbox.requests.at(-1)!.request as ResourceListRequest).limit;
    const ahead = create(ResourceListRequestSchema, { id: { project: "p", domain: "d" }, limit: 1 });
    encodeAhead(ResourceListRequestSchema, ahead);
    // Against encodeAhead's contract, to show which bytes go out: those encoded ahead, every time.
    ahead.limit = 7;
    await client.admin.listTasks(ahead);
    equal(sentLimit(), 1);
    await client.admin.listWorkflows(ahead);
    equal(sentLimit(), 1);

    // A message not encoded ahead is encoded when sent.
    const plain = create(ResourceListRequestSchema, { id: { project: "p", domain: "d" }, limit: 2 });
    await client.admin.listTasks(plain);
    equal(sentLimit(), 2);
  });
});

Deno.test("grpc transport: sends gRPC headers, the caller's headers and the deadline", async () => {
  await withRawServer(answer(encodeEnvelope(TASK_LIST)), async (client, seen) => {
    const list = await client.listTasks(LIST, { headers: { "x-trace": "abc" }, timeoutMs: 5000 });
    equal(list.token, "next-page");
    const headers = seen[0];
    equal(headers[":method"], "POST");
    equal(headers[":path"], "/flyteidl.service.AdminService/ListTasks");
    equal(headers["content-type"], "application/grpc+proto");
    equal(headers["te"], "trailers");
    equal(headers["grpc-timeout"], "5000m");
    equal(headers["x-trace"], "abc");
  });
});

Deno.test("grpc transport: a plain call sends Connect's gRPC headers; headers an interceptor replaces or copies are sent", async () => {
  const replace: Interceptor = (next) => (req) => {
    // `header` is read-only in Connect's types, but a plain property at run time: keep that working.
    (req as { header: Headers }).header = new Headers(req.header);
    req.header.set("x-replaced", "yes");
    return next(req);
  };
  const copy: Interceptor = (next) => (req) => next({ ...req, header: new Headers({ "x-copied": "yes" }) });
  const calls: Array<[Interceptor[], (headers: http2.IncomingHttpHeaders) => void]> = [
    [[], (headers) => {
      deepEqual(
        Object.fromEntries(Object.entries(headers).filter(([key]) => !key.startsWith(":"))),
        Object.fromEntries(requestHeader(true, undefined, undefined)),
      );
      equal(headers["user-agent"]?.startsWith("connect-es/"), true);
    }],
    [[replace], (headers) => {
      equal(headers["x-replaced"], "yes");
      equal(headers["te"], "trailers");
    }],
    [[copy], (headers) => {
      equal(headers["x-copied"], "yes");
      equal(headers["te"], undefined);
    }],
  ];
  for (const [interceptors, check] of calls) {
    await withRawServer(answer(encodeEnvelope(TASK_LIST)), async (client, seen) => {
      await client.listTasks(LIST);
      await client.listTasks(LIST);
      equal(seen.length, 2);
      for (const headers of seen) check(headers);
    }, interceptors);
  }
});

Deno.test("grpc transport: interceptors run outermost first and can change the request", async () => {
  const order: string[] = [];
  const tag = (name: string): Interceptor => (next) => async (req) => {
    order.push(`${name}>`);
    req.header.append("x-seen", name);
    const res = await next(req);
    order.push(`<${name}`);
    return res;
  };
  await withRawServer(answer(encodeEnvelope(TASK_LIST)), async (client, seen) => {
    await client.listTasks(LIST);
    deepEqual(order, ["outer>", "inner>", "<inner", "<outer"]);
    equal(seen[0]["x-seen"], "outer, inner");
  }, [tag("outer"), tag("inner")]);
});

Deno.test("grpc transport: an answer's headers and trailers reach interceptors and the caller", async () => {
  const handler: StreamHandler = (stream) => {
    stream.respond({ ...GRPC_HEADERS, "x-served-by": "a", "x-multi": ["1", "2"] }, { waitForTrailers: true });
    stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0", "x-cost": "7" }));
    stream.end(encodeEnvelope(TASK_LIST));
  };
  const seenByInterceptor: (string | null)[] = [];
  const peek: Interceptor = (next) => async (req) => {
    const res = await next(req);
    seenByInterceptor.push(res.header.get("x-served-by"), res.header.get("x-multi"), res.trailer.get("x-cost"));
    return res;
  };
  await withRawServer(handler, async (client) => {
    let header: Headers | undefined;
    let trailer: Headers | undefined;
    const list = await client.listTasks(LIST, { onHeader: (h) => (header = h), onTrailer: (t) => (trailer = t) });
    equal(list.token, "next-page");
    deepEqual(seenByInterceptor, ["a", "1, 2", "7"]);
    equal(header?.get("content-type"), "application/grpc+proto");
    equal(trailer?.get("grpc-status"), "0");
    equal(trailer?.get("x-cost"), "7");
  }, [peek]);
});

Deno.test("grpc transport: a request an interceptor points at another origin is not sent on this connection", async () => {
  const elsewhere: Interceptor = (next) => (req) => next({ ...req, url: req.url.replace(/:\d+\//, ":1/") });
  await withRawServer(answer(encodeEnvelope(TASK_LIST)), async (client, seen) => {
    const err = await codeOf(client.listTasks(LIST));
    equal(err.code, Code.Internal);
    match(err.rawMessage, /cannot make a request to http:\/\/127\.0\.0\.1:1: the http2 session is connected to/);
    equal(seen.length, 0);
  }, [elsewhere]);
  // A base URL that spells the connection's origin differently (its default port written out) is the same origin;
  // one on another origin is a programming error, refused when the transport is made.
  const connection = new Http2Connection("https://admin.example:443");
  createUnaryGrpcTransport({ baseUrl: "https://admin.example:443", connection });
  throws(() => createUnaryGrpcTransport({ baseUrl: "https://other.example:443", connection }), TypeError);
});

Deno.test("grpc transport: a trailers-only error keeps the server's status and decoded message", async () => {
  const handler: StreamHandler = (stream) =>
    stream.respond({ ...GRPC_HEADERS, "grpc-status": "6", "grpc-message": "t%C3%A2che %25 exists" }, {
      endStream: true,
    });
  await withRawServer(handler, async (client) => {
    const err = await codeOf(client.listTasks(LIST));
    equal(err.code, Code.AlreadyExists);
    equal(err.rawMessage, "tâche % exists");
  });
});

Deno.test("grpc transport: an error status in the trailers wins over the message", async () => {
  await withRawServer(
    answer(encodeEnvelope(TASK_LIST), { "grpc-status": "5", "grpc-message": "gone" }),
    async (client) => {
      const err = await codeOf(client.listTasks(LIST));
      equal(err.code, Code.NotFound);
      equal(err.rawMessage, "gone");
    },
  );
});

Deno.test("grpc transport: protocol violations are errors that say what was wrong", async (t) => {
  const cases: [string, StreamHandler, Code, RegExp][] = [
    [
      "two messages",
      answer(new Uint8Array([...encodeEnvelope(TASK_LIST), ...encodeEnvelope(TASK_LIST)])),
      Code.Unimplemented,
      /extra/,
    ],
    ["no message", answer(new Uint8Array()), Code.Unimplemented, /missing output message/],
    ["no status", answer(encodeEnvelope(TASK_LIST), {}), Code.Internal, /missing status/],
    ["a compressed message", answer(encodeEnvelope(TASK_LIST, 1)), Code.Internal, /compressed/],
    ["a truncated envelope", answer(encodeEnvelope(TASK_LIST).subarray(0, 8)), Code.InvalidArgument, /promised/],
    ["HTTP 503", (s) => s.respond({ ":status": 503 }, { endStream: true }), Code.Unavailable, /HTTP 503/],
    [
      "HTTP 503 with a proxy's HTML page",
      (s) => (s.respond({ ":status": 503, "content-type": "text/html" }), s.end("<html>no upstream</html>")),
      Code.Unavailable,
      /HTTP 503/,
    ],
    ["a refused stream", (s) => s.close(http2.constants.NGHTTP2_REFUSED_STREAM), Code.Unavailable, /REFUSED_STREAM/],
  ];
  for (const [name, handler, code, message] of cases) {
    await t.step(name, async () => {
      await withRawServer(handler, async (client) => {
        const err = await codeOf(client.listTasks(LIST));
        equal(Code[err.code], Code[code]);
        match(err.rawMessage, message);
      });
    });
  }
});

Deno.test("grpc transport: a deadline or a caller's abort ends the call and resets the stream", async (t) => {
  const resets: number[] = [];
  const never: StreamHandler = (stream) => stream.on("close", () => resets.push(stream.rstCode));
  await t.step("deadline", async () => {
    await withRawServer(never, async (client) => {
      const err = await codeOf(client.listTasks(LIST, { timeoutMs: 30 }));
      equal(err.code, Code.DeadlineExceeded);
      while (resets.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      deepEqual(resets, [http2.constants.NGHTTP2_CANCEL]);
      // The connection is still usable afterwards: the next call reaches the server.
      const again = await codeOf(client.listTasks(LIST, { timeoutMs: 30 }));
      equal(again.code, Code.DeadlineExceeded);
    });
  });
  await t.step("abort", async () => {
    await withRawServer(never, async (client) => {
      const controller = new AbortController();
      const call = client.listTasks(LIST, { signal: controller.signal });
      setTimeout(() => controller.abort(), 20);
      const err = await codeOf(call);
      equal(err.code, Code.Canceled);
    });
  });
  await t.step("already aborted", async () => {
    await withRawServer(never, async (client, seen) => {
      const err = await codeOf(client.listTasks(LIST, { signal: AbortSignal.abort() }));
      equal(err.code, Code.Canceled);
      equal(seen.length, 0);
    });
  });
});

Deno.test("grpc transport: an unreachable admin is UNAVAILABLE", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const baseUrl = `http://127.0.0.1:${port}`;
  const connection = new Http2Connection(baseUrl);
  try {
    const err = await codeOf(clientFor(baseUrl, connection, []).listTasks(LIST));
    equal(err.code, Code.Unavailable);
  } finally {
    connection.close();
  }
});

Deno.test("grpc transport: reset codes map as gRPC specifies", () => {
  equal(connectErrorFromResetCode(http2.constants.NGHTTP2_NO_ERROR), undefined);
  equal(connectErrorFromResetCode(http2.constants.NGHTTP2_STREAM_CLOSED), undefined);
  equal(connectErrorFromResetCode(http2.constants.NGHTTP2_CANCEL)?.code, Code.Canceled);
  equal(connectErrorFromResetCode(http2.constants.NGHTTP2_ENHANCE_YOUR_CALM)?.code, Code.ResourceExhausted);
  equal(connectErrorFromResetCode(http2.constants.NGHTTP2_PROTOCOL_ERROR)?.code, Code.Internal);
});

Deno.test("grpc transport: a deadline ends a call whose connection never gets made", async () => {
  // A TLS endpoint whose server accepts TCP and stays silent: the handshake, so the session, never completes.
  const silent = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of silent) held.push(conn);
  })();
  const client = createAdminClient({ endpoint: `https://127.0.0.1:${(silent.addr as Deno.NetAddr).port}` });
  try {
    const started = performance.now();
    await rejects(
      client.admin.listTasks(LIST, { timeoutMs: 100 }),
      (err) => err instanceof AdminError && err.status === "DeadlineExceeded",
    );
    ok(performance.now() - started < 5_000, "the call ended at its deadline");
  } finally {
    client.close();
    silent.close();
    for (const conn of held) conn.close();
    await accepting.catch(() => {});
  }
});
