/**
 * Calls through {@link createAdminClient} against the sandbox and against raw HTTP/2 servers that give
 * the answers a real gRPC server rarely does: what goes on the wire, and what each answer becomes.
 */
import { USER_AGENT_PRODUCT } from "./user_agent.ts";
import { deepEqual, equal, match, ok, rejects } from "node:assert/strict";
import * as http2 from "node:http2";
import { create, toBinary } from "@bufbuild/protobuf";
import type { Interceptor } from "@connectrpc/connect";
import { requestHeader } from "@connectrpc/connect/protocol-grpc";
import { TaskListSchema } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import { withSandbox } from "../sandbox/_test_helpers.ts";
import { type AdminClient, createAdminClient } from "./client.ts";
import { AdminError } from "./errors.ts";
import { InterruptedError } from "../errors.ts";
import {
  answer,
  grpcFrame,
  headersOnly,
  type RawServer,
  type StreamHandler,
  withRawServer,
} from "./_test_raw_http2_server.ts";

const LIST = { id: { project: "p", domain: "d" }, limit: 1 };
const TASK_LIST = toBinary(TaskListSchema, create(TaskListSchema, { token: "next-page" }));

/** Runs `fn` with a raw server answering with `handler` and a client of it. */
async function withClient(
  handler: StreamHandler,
  fn: (client: AdminClient, server: RawServer) => Promise<void>,
  interceptors: Interceptor[] = [],
): Promise<void> {
  await withRawServer(handler, async (server) => {
    const client = createAdminClient({ endpoint: server.endpoint, insecure: true, interceptors });
    try {
      await fn(client, server);
    } finally {
      client.close();
    }
  });
}

/** The admin error a call fails with. */
async function failure(call: Promise<unknown>): Promise<AdminError> {
  try {
    await call;
  } catch (err) {
    ok(err instanceof AdminError, `expected an AdminError, got ${err}`);
    return err;
  }
  throw new Error("the call succeeded");
}

Deno.test("admin client: calls the sandbox; its error statuses reach the caller", async () => {
  await withSandbox(async (_sandbox, client) => {
    deepEqual((await client.admin.listTasks(LIST)).tasks, []);
    await rejects(
      client.admin.getTask({ id: { resourceType: 1, project: "p", domain: "d", name: "t", version: "v" } }),
      (err) => err instanceof AdminError && err.status === "NotFound",
    );
  });
});

Deno.test("admin client: sends gRPC headers, the caller's headers and the deadline", async () => {
  await withClient(answer(grpcFrame(TASK_LIST)), async (client, { seen }) => {
    const list = await client.admin.listTasks(LIST, { headers: { "x-trace": "abc" }, timeoutMs: 5000 });
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

Deno.test("admin client: a plain call sends Connect's gRPC headers (fctl first in the user agent); headers an interceptor replaces or copies are sent", async () => {
  const replace: Interceptor = (next) => (req) => {
    // `header` is read-only in Connect's types, but a plain property at run time: keep that working.
    (req as { header: Headers }).header = new Headers(req.header);
    req.header.set("x-replaced", "yes");
    return next(req);
  };
  const copy: Interceptor = (next) => (req) => next({ ...req, header: new Headers({ "x-copied": "yes" }) });
  const calls: Array<[Interceptor[], (headers: http2.IncomingHttpHeaders) => void]> = [
    [[], (headers) => {
      const connect = Object.fromEntries(requestHeader(true, undefined, undefined));
      deepEqual(
        Object.fromEntries(Object.entries(headers).filter(([key]) => !key.startsWith(":"))),
        // fctl names itself first in the user agent, keeping Connect's own token.
        { ...connect, "user-agent": `${USER_AGENT_PRODUCT} ${connect["user-agent"]}` },
      );
      equal(headers["user-agent"]?.startsWith(`${USER_AGENT_PRODUCT} connect-es/`), true);
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
    await withClient(answer(grpcFrame(TASK_LIST)), async (client, { seen }) => {
      await client.admin.listTasks(LIST);
      await client.admin.listTasks(LIST);
      equal(seen.length, 2);
      for (const headers of seen) check(headers);
    }, interceptors);
  }
});

Deno.test("admin client: interceptors run outermost first and can change the request", async () => {
  const order: string[] = [];
  const tag = (name: string): Interceptor => (next) => async (req) => {
    order.push(`${name}>`);
    req.header.append("x-seen", name);
    const res = await next(req);
    order.push(`<${name}`);
    return res;
  };
  await withClient(answer(grpcFrame(TASK_LIST)), async (client, { seen }) => {
    await client.admin.listTasks(LIST);
    deepEqual(order, ["outer>", "inner>", "<inner", "<outer"]);
    equal(seen[0]["x-seen"], "outer, inner");
  }, [tag("outer"), tag("inner")]);
});

Deno.test("admin client: an answer's headers and trailers reach interceptors and the caller", async () => {
  const handler = answer(grpcFrame(TASK_LIST), { "grpc-status": "0", "x-cost": "7" }, {
    "x-served-by": "a",
    "x-multi": ["1", "2"],
  });
  const seenByInterceptor: (string | null)[] = [];
  const peek: Interceptor = (next) => async (req) => {
    const res = await next(req);
    seenByInterceptor.push(res.header.get("x-served-by"), res.header.get("x-multi"), res.trailer.get("x-cost"));
    return res;
  };
  await withClient(handler, async (client) => {
    let header: Headers | undefined;
    let trailer: Headers | undefined;
    const list = await client.admin.listTasks(LIST, {
      onHeader: (h) => (header = h),
      onTrailer: (t) => (trailer = t),
    });
    equal(list.token, "next-page");
    deepEqual(seenByInterceptor, ["a", "1, 2", "7"]);
    equal(header?.get("content-type"), "application/grpc+proto");
    equal(trailer?.get("grpc-status"), "0");
    equal(trailer?.get("x-cost"), "7");
  }, [peek]);
});

Deno.test("admin client: a request an interceptor points at another origin is not sent on this connection", async () => {
  const elsewhere: Interceptor = (next) => (req) => next({ ...req, url: req.url.replace(/:\d+\//, ":1/") });
  await withClient(answer(grpcFrame(TASK_LIST)), async (client, { seen }) => {
    const err = await failure(client.admin.listTasks(LIST));
    equal(err.status, "Internal");
    match(err.serverMessage, /cannot make a request to http:\/\/127\.0\.0\.1:1: the http2 session is connected to/);
    equal(seen.length, 0);
  }, [elsewhere]);
});

Deno.test("admin client: a trailers-only error keeps the server's status and decoded message", async () => {
  await withClient(headersOnly({ "grpc-status": "6", "grpc-message": "t%C3%A2che %25 exists" }), async (client) => {
    const err = await failure(client.admin.listTasks(LIST));
    equal(err.status, "AlreadyExists");
    equal(err.serverMessage, "tâche % exists");
    equal(err.message, "ListTasks failed: AlreadyExists: tâche % exists");
  });
});

Deno.test("admin client: an error status in the trailers wins over the message", async () => {
  await withClient(answer(grpcFrame(TASK_LIST), { "grpc-status": "5", "grpc-message": "gone" }), async (client) => {
    const err = await failure(client.admin.listTasks(LIST));
    equal(err.status, "NotFound");
    equal(err.serverMessage, "gone");
  });
});

Deno.test("admin client: protocol violations and stream resets are errors that say what was wrong", async (t) => {
  const reset = (code: number): StreamHandler => (stream) => stream.close(code);
  const cases: [string, StreamHandler, string, RegExp][] = [
    [
      "two messages",
      answer(new Uint8Array([...grpcFrame(TASK_LIST), ...grpcFrame(TASK_LIST)])),
      "Unimplemented",
      /extra/,
    ],
    ["no message", answer(new Uint8Array()), "Unimplemented", /missing output message/],
    ["no status", answer(grpcFrame(TASK_LIST), {}), "Internal", /missing status/],
    ["a compressed message", answer(grpcFrame(TASK_LIST, 1)), "Internal", /compress/],
    ["a truncated envelope", answer(grpcFrame(TASK_LIST).subarray(0, 8)), "InvalidArgument", /incomplete envelope/],
    ["HTTP 503", (s) => s.respond({ ":status": 503 }, { endStream: true }), "Unavailable", /HTTP 503/],
    [
      "HTTP 503 with a proxy's HTML page",
      (s) => (s.respond({ ":status": 503, "content-type": "text/html" }), s.end("<html>no upstream</html>")),
      "Unavailable",
      /HTTP 503/,
    ],
    ["a refused stream", reset(http2.constants.NGHTTP2_REFUSED_STREAM), "Unavailable", /REFUSED_STREAM/],
    ["a reset to calm down", reset(http2.constants.NGHTTP2_ENHANCE_YOUR_CALM), "ResourceExhausted", /ENHANCE/],
    ["a protocol error reset", reset(http2.constants.NGHTTP2_PROTOCOL_ERROR), "Internal", /PROTOCOL_ERROR/],
    // Nobody here cancelled: the stream was dropped on the admin's side, as when a connection is lost.
    ["a stream cancelled by the server", reset(http2.constants.NGHTTP2_CANCEL), "Unavailable", /connection was closed/],
  ];
  for (const [name, handler, status, message] of cases) {
    await t.step(name, async () => {
      await withClient(handler, async (client) => {
        const err = await failure(client.admin.listTasks(LIST));
        equal(err.status, status);
        match(err.serverMessage, message);
      });
    });
  }
});

Deno.test("admin client: a deadline or a caller's abort ends the call and resets the stream", async (t) => {
  const resets: number[] = [];
  const never: StreamHandler = (stream) => stream.on("close", () => resets.push(stream.rstCode));
  const until = async (done: () => boolean) => {
    while (!done()) await new Promise((resolve) => setTimeout(resolve, 1));
  };
  await t.step("deadline", async () => {
    await withClient(never, async (client) => {
      equal((await failure(client.admin.listTasks(LIST, { timeoutMs: 30 }))).status, "DeadlineExceeded");
      await until(() => resets.length === 1);
      // Connect resets a stream past its deadline with INTERNAL_ERROR, one the caller cancelled with CANCEL.
      deepEqual(resets, [http2.constants.NGHTTP2_INTERNAL_ERROR]);
      // The connection is still usable afterwards: the next call reaches the server.
      equal((await failure(client.admin.listTasks(LIST, { timeoutMs: 30 }))).status, "DeadlineExceeded");
      await until(() => resets.length === 2);
    });
  });
  await t.step("abort", async () => {
    await withClient(never, async (client) => {
      const controller = new AbortController();
      const call = client.admin.listTasks(LIST, { signal: controller.signal });
      setTimeout(() => controller.abort(), 20);
      equal((await failure(call)).status, "Canceled");
      await until(() => resets.length === 3);
      equal(resets[2], http2.constants.NGHTTP2_CANCEL);
    });
  });
  await t.step("already aborted", async () => {
    await withClient(never, async (client, { seen }) => {
      equal((await failure(client.admin.listTasks(LIST, { signal: AbortSignal.abort() }))).status, "Canceled");
      equal(seen.length, 0);
    });
  });
});

Deno.test("admin client: a caller's abort ends the wait between attempts; an interceptor's own error wins over the abort", async (t) => {
  const never: StreamHandler = () => {};
  await t.step("retried call", async () => {
    await withRawServer(never, async (server) => {
      const retry = { maxAttempts: 4, perAttemptTimeoutMs: 50, maxBackoffMs: 60_000, initialBackoffMs: 60_000 };
      const client = createAdminClient({ endpoint: server.endpoint, insecure: true, retry });
      try {
        const controller = new AbortController();
        const started = performance.now();
        const call = client.admin.listTasks(LIST, { signal: controller.signal });
        // The first attempt times out after 50 ms; the abort comes during the minute's wait before the second.
        setTimeout(() => controller.abort(), 200);
        equal((await failure(call)).status, "Canceled");
        ok(performance.now() - started < 5_000, "the wait between attempts ended at the abort");
        equal(server.seen.length, 1);
      } finally {
        client.close();
      }
    });
  });
  await t.step("an interceptor's InterruptedError", async () => {
    // As the auth interceptor does while a sign-in waits for the user: it ends on the same Ctrl-C with its own error.
    const controller = new AbortController();
    const signIn: Interceptor = () => () =>
      new Promise((_, reject) =>
        controller.signal.addEventListener(
          "abort",
          () => reject(new InterruptedError("interrupted while waiting for the sign-in")),
        )
      );
    await withClient(never, async (client) => {
      const call = client.admin.listTasks(LIST, { signal: controller.signal });
      setTimeout(() => controller.abort(), 20);
      await rejects(call, (err) => err instanceof InterruptedError && /the sign-in/.test(err.message));
    }, [signIn]);
  });
});

Deno.test("admin client: an unreachable admin is UNAVAILABLE", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const client = createAdminClient({ endpoint: `http://127.0.0.1:${port}` });
  try {
    equal((await failure(client.admin.listTasks(LIST))).status, "Unavailable");
  } finally {
    client.close();
  }
});

Deno.test("admin client: a deadline ends a call whose connection never gets made", async () => {
  // A TLS endpoint whose server accepts TCP and stays silent: the handshake, so the session, never completes.
  const silent = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of silent) held.push(conn);
  })();
  const client = createAdminClient({ endpoint: `https://127.0.0.1:${(silent.addr as Deno.NetAddr).port}` });
  try {
    const started = performance.now();
    const error = await failure(client.admin.listTasks(LIST, { timeoutMs: 100 }));
    equal(error.status, "DeadlineExceeded");
    ok(performance.now() - started < 5_000, "the call ended at its deadline");
    // The message names the endpoint and what to change, not only the status.
    const endpoint = `https://127.0.0.1:${(silent.addr as Deno.NetAddr).port}`;
    ok(
      error.message.startsWith(
        `connection to ${endpoint} (insecure: false, auth: none): ListTasks failed: DeadlineExceeded`,
      ),
      error.message,
    );
    ok(error.message.endsWith("raise --admin.perRetryTimeout, or check the endpoint and the network)"), error.message);
  } finally {
    client.close();
    silent.close();
    for (const conn of held) conn.close();
    await accepting.catch(() => {});
  }
});
