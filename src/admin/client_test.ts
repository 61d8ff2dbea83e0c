import { equal, rejects } from "node:assert/strict";
import * as http2 from "node:http2";
import type { ServerHttp2Stream } from "node:http2";
import { createServer as createHttp1Server } from "node:http";
import { type AddressInfo, createServer as createNetServer } from "node:net";
import { createAdminClient } from "./client.ts";
import { AdminError } from "./errors.ts";
import { create, toBinary } from "@bufbuild/protobuf";
import { TaskListSchema } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import { answer, grpcFrame, withRawServer } from "./_test_raw_http2_server.ts";

const LIST = { id: { project: "p", domain: "d" }, limit: 1 };
const EMPTY_LIST = toBinary(TaskListSchema, create(TaskListSchema));
/** The hint of a connection made, then closed: something is there, so "is it running?" would mislead. */
const CLOSED_HINT = "(a server is there, but closed the connection: is admin.insecure right for it, and is this its " +
  "gRPC endpoint?)";

Deno.test("connect() opens the one connection ahead of the first call, which then uses it", async () => {
  const server = http2.createServer();
  let sessions = 0;
  server.on("session", () => sessions++);
  server.on("stream", (stream) => {
    stream.resume();
    stream.respond({ ":status": 200, "content-type": "application/grpc+proto", "grpc-status": "5" }, {
      endStream: true,
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const client = createAdminClient({
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    insecure: true,
  });
  try {
    await client.connect();
    equal(sessions, 1, "connected before any call");
    await rejects(client.admin.listTasks(LIST), (err) => err instanceof AdminError && err.status === "NotFound");
    equal(sessions, 1, "the call used the open connection");
  } finally {
    client.close();
    await new Promise((resolve) => server.close(resolve));
  }
});

Deno.test("close() ends the connection, twice is fine; a call after it opens a new one", async () => {
  await withRawServer(answer(grpcFrame(EMPTY_LIST)), async (server) => {
    const client = createAdminClient({ endpoint: server.endpoint, insecure: true });
    try {
      await client.admin.listTasks(LIST);
      equal(server.sessions.length, 1);
      const closed = new Promise((resolve) => server.sessions[0].once("close", resolve));
      client.close();
      client.close();
      await closed;
      await client.admin.listTasks(LIST);
      equal(server.sessions.length, 2);
    } finally {
      client.close();
    }
  });
});

Deno.test("close() under a call cancels it: CANCELED, not retried, no new connection", async () => {
  const silent = (stream: ServerHttp2Stream) => void stream; // never answers
  await withRawServer(silent, async (server) => {
    const retry = { maxAttempts: 3, initialBackoffMs: 1, maxBackoffMs: 1, perAttemptTimeoutMs: 0 };
    const client = createAdminClient({ endpoint: server.endpoint, insecure: true, retry });
    try {
      const call = client.admin.listTasks(LIST);
      while (server.seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      client.close();
      await rejects(call, (err) => err instanceof AdminError && err.status === "Canceled");
      equal(server.seen.length, 1, "not retried");
      equal(server.sessions.length, 1, "no new connection");
    } finally {
      client.close();
    }
  });
});

Deno.test("calls share one connection; after GOAWAY or a dropped connection the next call opens a new one", async () => {
  // In a process of its own, tried again only when Deno's nghttp2 aborted it (see _test_goaway_scenario.ts).
  const scenario = new URL("./_test_goaway_scenario.ts", import.meta.url).pathname;
  const config = new URL("../../deno.json", import.meta.url).pathname;
  for (let attempt = 1;; attempt++) {
    const { success, code, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", "--config", config, "--allow-net", "--allow-read", scenario],
      env: { NO_COLOR: "1" },
      stdout: "null",
      stderr: "piped",
    }).output();
    if (success) return;
    const message = new TextDecoder().decode(stderr);
    if (attempt < 3 && message.includes("find_stream_on_goaway_func")) continue;
    throw new Error(`the GOAWAY scenario failed (exit ${code}, attempt ${attempt}):\n${message}`);
  }
});

Deno.test("connect() to an admin that is not there resolves; the first call reports UNAVAILABLE", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const client = createAdminClient({ endpoint: `http://127.0.0.1:${port}`, insecure: true });
  try {
    await client.connect();
    await rejects(client.admin.listTasks(LIST), (err) => err instanceof AdminError && err.status === "Unavailable");
  } finally {
    client.close();
  }
});

Deno.test("an HTTP/1-only server at the endpoint is UNAVAILABLE with the hint for a server that is there, not INTERNAL", async () => {
  const server = createHttp1Server((_req, res) => res.end("not gRPC"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = createAdminClient({ endpoint, insecure: true });
  try {
    await rejects(
      client.admin.listTasks(LIST),
      (err) =>
        err instanceof AdminError && err.status === "Unavailable" && err.message.includes(CLOSED_HINT) &&
        !err.message.includes("running"),
    );
  } finally {
    client.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

Deno.test("a server that resets the connection once it reads the preface: UNAVAILABLE with the hint for a server that is there, retried", async () => {
  // Node's ECONNRESET, which Connect's Node client calls ABORTED (not retried): a broken connection.
  let connections = 0;
  const server = createNetServer((socket) => {
    connections++;
    socket.once("data", () => socket.resetAndDestroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const retry = { maxAttempts: 3, initialBackoffMs: 1, maxBackoffMs: 1, perAttemptTimeoutMs: 0 };
  const client = createAdminClient({ endpoint, insecure: true, retry });
  try {
    await rejects(
      client.admin.listTasks(LIST),
      (err) =>
        err instanceof AdminError && err.status === "Unavailable" &&
        err.message.startsWith(
          `connection to ${endpoint} (insecure: true, auth: none): ListTasks failed: Unavailable:`,
        ) &&
        err.message.includes(CLOSED_HINT) && !err.message.includes("running"),
    );
    equal(connections, 3, "each attempt reconnects");
  } finally {
    client.close();
    await new Promise((resolve) => server.close(resolve));
  }
});

Deno.test("a server that closes every connection at once: each call is UNAVAILABLE, nothing is thrown uncaught", async () => {
  // Under Deno the socket's EPIPE reaches the HTTP/2 session a tick after it connected; Connect's
  // session manager had no listener on it yet, and the process ended with a stack trace.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const accepting = (async () => {
    for await (const conn of listener) conn.close();
  })();
  const endpoint = `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`;
  try {
    for (let i = 0; i < 10; i++) {
      const client = createAdminClient({ endpoint, insecure: true });
      if (i % 2 === 1) void client.connect();
      try {
        await rejects(client.admin.listTasks(LIST), (err) => err instanceof AdminError && err.status === "Unavailable");
      } finally {
        client.close();
      }
    }
  } finally {
    listener.close();
    await accepting.catch(() => {});
  }
});
