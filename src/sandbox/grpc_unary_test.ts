/**
 * The sandbox's unary path against Connect's own: the same services and interceptors served by the sandbox's
 * router and by Connect's stock `connectNodeAdapter`, the same raw calls sent to both, and their answers (headers,
 * message bytes, trailers) and what the interceptors and implementations saw compared. Every kind of call is
 * here: plain ones, which the sandbox answers itself, and those it leaves to Connect (compression, malformed
 * deadlines, broken envelopes), whose answers must not change either.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import * as http2 from "node:http2";
import { Buffer } from "node:buffer";
import { create, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError, type ConnectRouter, type Interceptor, type ServiceImpl } from "@connectrpc/connect";
import { encodeEnvelope } from "@connectrpc/connect/protocol";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { ResourceListRequestSchema } from "../../proto/gen/flyteidl/admin/common_pb.ts";
import { ObjectGetRequestSchema } from "../../proto/gen/flyteidl/admin/common_pb.ts";
import { AdminService } from "../../proto/gen/flyteidl/service/admin_pb.ts";
import { createGrpcRouter } from "./grpc_router.ts";
import { listenHttp2 } from "./http2_listener.ts";
import { type RawAnswer, type RawCall, rawGrpcCall } from "./_test_raw_grpc.ts";

const ADMIN = "/flyteidl.service.AdminService";
const getTaskBody = () =>
  toBinary(
    ObjectGetRequestSchema,
    create(ObjectGetRequestSchema, { id: { project: "p", domain: "d", name: "t", version: "v1" } }),
  );

/** What one side's interceptor and implementations saw, in order. */
type Seen = string[];

/** The services both sides serve, recording into `seen`; `entered` tells when GetLaunchPlan is waiting. */
function services(seen: Seen, entered: () => void): {
  admin: Partial<ServiceImpl<typeof AdminService>>;
  interceptors: Interceptor[];
} {
  const record: Interceptor = (next) => async (request) => {
    const header = [...request.header].filter(([name]) => name !== "host").map((pair) => pair.join(": "));
    const url = request.url.replace(/:\d+\//, ":PORT/");
    const message = request.stream
      ? "stream"
      : Buffer.from(toBinary(request.method.input, request.message)).toString("hex");
    seen.push(`${request.requestMethod} ${url} ${request.method.name} [${header.join(", ")}] ${message}`);
    try {
      const response = await next(request);
      response.header.set("x-intercepted", "yes");
      response.trailer.set("x-intercepted-trailer", "yes");
      return response;
    } catch (err) {
      seen.push(`failed: ${Code[ConnectError.from(err).code]} ${ConnectError.from(err).rawMessage}`);
      throw err;
    }
  };
  const admin: Partial<ServiceImpl<typeof AdminService>> = {
    getTask: (request, context) => {
      context.responseHeader.set("x-impl", "header");
      context.responseHeader.append("x-impl", "repeated");
      context.responseTrailer.set("x-impl-trailer", "trailer");
      seen.push(`deadline: ${context.timeoutMs() !== undefined}`);
      return { id: request.id, shortDescription: "échoed ✓" };
    },
    listTasks: () => {
      throw new ConnectError("listing refused: 100%", Code.FailedPrecondition, { "x-meta": "metadata" }, [
        { desc: ResourceListRequestSchema, value: { limit: 7 } },
      ]);
    },
    createTask: () => {
      throw new Error("a bug with private details");
    },
    getLaunchPlan: async (_request, context) => {
      entered();
      const reason = await new Promise<unknown>((resolve) => {
        context.signal.addEventListener("abort", () => resolve(context.signal.reason), { once: true });
      });
      const error = ConnectError.from(reason);
      seen.push(`signal: ${Code[error.code]} ${error.rawMessage}`);
      throw error;
    },
    updateLaunchPlan: () => ({}),
    // An answer larger than HTTP/2's initial flow-control window (64 KiB): written before the client reads it.
    getWorkflow: (request) => ({ id: request.id, shortDescription: "large ".repeat(200_000) }),
  };
  return { admin, interceptors: [record] };
}

interface Side {
  session: http2.ClientHttp2Session;
  seen: Seen;
  /** Resolves once GetLaunchPlan has been entered since the last call of `waitEntered`. */
  waitEntered(): Promise<void>;
  close(): Promise<void>;
}

/** Serves the services with the sandbox's router (`sandbox`) or Connect's adapter, and connects a raw session. */
async function startSide(kind: "sandbox" | "connect"): Promise<Side> {
  const seen: Seen = [];
  let onEntered = () => {};
  const { admin, interceptors } = services(seen, () => onEntered());
  const routes = (router: ConnectRouter) => void router.service(AdminService, admin);
  const shutdownSignal = new AbortController().signal;
  const onRequest = kind === "sandbox"
    ? createGrpcRouter({ routes, interceptors, shutdownSignal })
    : connectNodeAdapter({
      routes,
      interceptors,
      shutdownSignal,
      grpc: true,
      grpcWeb: false,
      connect: false,
      acceptCompression: [],
    });
  const server = await listenHttp2(onRequest, { port: 0, hostname: "127.0.0.1" });
  const session = http2.connect(`http://127.0.0.1:${server.port}`);
  return {
    session,
    seen,
    waitEntered: () => new Promise((resolve) => (onEntered = resolve)),
    close: async () => {
      session.close();
      await server.close();
    },
  };
}

/** An answer as comparable text: status, headers (without the date), body bytes, trailers. */
function describe(answer: RawAnswer): string {
  const headers = Object.entries(answer.headers).filter(([name]) => name !== "date");
  return JSON.stringify({ headers, body: answer.body.toString("hex"), trailers: Object.entries(answer.trailers) });
}

async function withBothSides(fn: (sandbox: Side, connect: Side) => Promise<void>): Promise<void> {
  const sandbox = await startSide("sandbox");
  const connect = await startSide("connect");
  try {
    await fn(sandbox, connect);
  } finally {
    await sandbox.close();
    await connect.close();
  }
}

const message = getTaskBody();
const envelope = encodeEnvelope(0, message);
const CALLS: [string, RawCall][] = [
  ["a plain call", { path: `${ADMIN}/GetTask`, body: envelope }],
  ["a body in three frames", {
    path: `${ADMIN}/GetTask`,
    body: [envelope.subarray(0, 2), envelope.subarray(2, 9), envelope.subarray(9)],
  }],
  ["request headers of every kind", {
    path: `${ADMIN}/GetTask?query=1`,
    headers: { "user-agent": "raw/1", "x-repeated": ["a", "b"], "grpc-encoding": "identity", "grpc-timeout": "5S" },
    body: envelope,
  }],
  ["an answer larger than the flow-control window", { path: `${ADMIN}/GetWorkflow`, body: envelope }],
  ["an empty answer", { path: `${ADMIN}/UpdateLaunchPlan`, body: encodeEnvelope(0, new Uint8Array()) }],
  ["a ConnectError with metadata and details", { path: `${ADMIN}/ListTasks`, body: envelope }],
  ["an error that is not a ConnectError", { path: `${ADMIN}/CreateTask`, body: encodeEnvelope(0, new Uint8Array()) }],
  ["a deadline that passes", { path: `${ADMIN}/GetLaunchPlan`, headers: { "grpc-timeout": "20m" }, body: envelope }],
  ["a method not implemented", { path: `${ADMIN}/ListMatchableAttributes`, body: encodeEnvelope(0, new Uint8Array()) }],
  ["a requested compression", { path: `${ADMIN}/GetTask`, headers: { "grpc-encoding": "gzip" }, body: envelope }],
  ["a malformed deadline", { path: `${ADMIN}/GetTask`, headers: { "grpc-timeout": "soon" }, body: envelope }],
  ["a compressed envelope", { path: `${ADMIN}/GetTask`, body: encodeEnvelope(1, message) }],
  ["a truncated envelope", { path: `${ADMIN}/GetTask`, body: envelope.subarray(0, 8) }],
  ["a body shorter than a prefix", { path: `${ADMIN}/GetTask`, body: envelope.subarray(0, 3) }],
  ["an empty body", { path: `${ADMIN}/GetTask`, body: new Uint8Array() }],
  ["two messages", { path: `${ADMIN}/GetTask`, body: Buffer.concat([envelope, envelope]) }],
  ["a message that is not protobuf", { path: `${ADMIN}/GetTask`, body: encodeEnvelope(0, new Uint8Array([0xff])) }],
];

Deno.test("every kind of unary call is answered, intercepted and implemented exactly as Connect's adapter does", async () => {
  await withBothSides(async (sandbox, connect) => {
    for (const [name, call] of CALLS) {
      const [ours, theirs] = [await rawGrpcCall(sandbox.session, call), await rawGrpcCall(connect.session, call)];
      assertEquals(describe(ours), describe(theirs), name);
      if (call.path.endsWith("/GetWorkflow")) assert(ours.body.length > 1_000_000, `${ours.body.length} bytes`);
      assertEquals(sandbox.seen.splice(0), connect.seen.splice(0), name);
    }
  });
});

Deno.test("a call reset by its client aborts its signal with the reset's error, as Connect's adapter does", async () => {
  await withBothSides(async (sandbox, connect) => {
    for (const code of [http2.constants.NGHTTP2_CANCEL, http2.constants.NGHTTP2_REFUSED_STREAM]) {
      for (const side of [sandbox, connect]) {
        const entered = side.waitEntered();
        const stream = side.session.request({
          ":method": "POST",
          ":path": `${ADMIN}/GetLaunchPlan`,
          "content-type": "application/grpc",
        });
        stream.on("error", () => {});
        stream.end(envelope);
        await entered;
        stream.close(code);
        await new Promise((resolve) => stream.on("close", resolve));
        while (!side.seen.some((line) => line.startsWith("signal:"))) await new Promise((r) => setTimeout(r, 2));
      }
      assert(sandbox.seen.some((line) => line.startsWith("signal: ")), sandbox.seen.join("\n"));
      assertEquals(sandbox.seen.splice(0), connect.seen.splice(0), `reset ${code}`);
    }
    // Both still serve on the same connection.
    const call = { path: `${ADMIN}/GetTask`, body: envelope };
    assertEquals(
      describe(await rawGrpcCall(sandbox.session, call)),
      describe(await rawGrpcCall(connect.session, call)),
    );
  });
});

Deno.test("a call reset by its client while its body is being sent reaches no interceptor, as with Connect's adapter", async () => {
  await withBothSides(async (sandbox, connect) => {
    for (const side of [sandbox, connect]) {
      const stream = side.session.request({
        ":method": "POST",
        ":path": `${ADMIN}/GetTask`,
        "content-type": "application/grpc",
      });
      stream.on("error", () => {});
      // Headers and a part of the envelope, flushed to the server before the reset.
      await new Promise((resolve) => stream.write(envelope.subarray(0, 7), resolve));
      stream.close(http2.constants.NGHTTP2_CANCEL);
      await new Promise((resolve) => stream.on("close", resolve));
    }
    // Both still serve on the same connection, and saw only that next call.
    const call = { path: `${ADMIN}/GetTask`, body: envelope };
    assertEquals(
      describe(await rawGrpcCall(sandbox.session, call)),
      describe(await rawGrpcCall(connect.session, call)),
    );
    assertEquals(sandbox.seen.length, 2, sandbox.seen.join("\n"));
    assertEquals(sandbox.seen.splice(0), connect.seen.splice(0));
  });
});
