/** Retries against the in-process admin service with injected failures. */
import { equal, rejects } from "node:assert/strict";
import * as http2 from "node:http2";
import { Code } from "@connectrpc/connect";
import { createAdminClient } from "./client.ts";
import type { RetryOptions } from "./retry.ts";
import { startSandbox } from "../sandbox/mod.ts";
import { parseServiceConfig } from "../config/service_config.ts";
import { taskSpec } from "../../tests/task_fixtures.ts";
import { type StreamHandler, withRawServer } from "./_test_raw_http2_server.ts";

const FAST: RetryOptions = { maxAttempts: 4, perAttemptTimeoutMs: 5_000, maxBackoffMs: 2, initialBackoffMs: 1 };
const LIST = { id: { project: "flytesnacks", domain: "development" }, limit: 10 };

async function withClient(
  retry: RetryOptions,
  fn: (s: Awaited<ReturnType<typeof startSandbox>>, c: ReturnType<typeof createAdminClient>) => Promise<void>,
) {
  const sandbox = await startSandbox();
  const client = createAdminClient({ endpoint: sandbox.endpoint, retry });
  try {
    await fn(sandbox, client);
  } finally {
    client.close();
    await sandbox.close();
  }
}

const count = (sandbox: { requests: { method: string }[] }, method: string) =>
  sandbox.requests.filter((r) => r.method === method).length;

Deno.test("retries: every read succeeds while half of all calls fail UNAVAILABLE", async () => {
  await withClient(FAST, async (sandbox, client) => {
    sandbox.failRatio("ListTasks", Code.Unavailable, 0.5);
    for (let i = 0; i < 10; i++) await client.admin.listTasks(LIST);
    equal(count(sandbox, "ListTasks"), 20);
  });
});

Deno.test("retries: at most maxAttempts attempts, then the last error", async () => {
  for (const maxAttempts of [1, 2, 4]) {
    await withClient({ ...FAST, maxAttempts }, async (sandbox, client) => {
      sandbox.failNext("ListTasks", Code.ResourceExhausted, 10);
      await rejects(client.admin.listTasks(LIST), /ResourceExhausted/);
      equal(count(sandbox, "ListTasks"), maxAttempts);
    });
  }
});

Deno.test("retries: statuses other than UNAVAILABLE and RESOURCE_EXHAUSTED are not retried", async () => {
  await withClient(FAST, async (sandbox, client) => {
    sandbox.failNext("ListTasks", Code.Internal, 10);
    await rejects(client.admin.listTasks(LIST), /Internal/);
    equal(count(sandbox, "ListTasks"), 1);
  });
});

Deno.test("retries: a read whose attempt runs out of time is retried; a create is not", async () => {
  await withClient({ ...FAST, maxAttempts: 3, perAttemptTimeoutMs: 30 }, async (sandbox, client) => {
    sandbox.setLatency(300);
    await rejects(client.admin.listTasks(LIST), /DeadlineExceeded/);
    equal(count(sandbox, "ListTasks"), 3);
    const spec = taskSpec({ name: "t", version: "v1" });
    await rejects(client.admin.createTask({ id: spec.template!.id, spec }), /DeadlineExceeded/);
    equal(count(sandbox, "CreateTask"), 1);
  });
});

Deno.test("retries: a create retried after a failure that answers ALREADY_EXISTS is a success", async () => {
  await withClient(FAST, async (sandbox, client) => {
    const spec = taskSpec({ name: "t", version: "v1" });
    await client.admin.createTask({ id: spec.template!.id, spec });
    // The first attempt "fails" as if its answer was lost; the retry finds the task already there.
    sandbox.failNext("CreateTask", Code.Unavailable, 1);
    await client.admin.createTask({ id: spec.template!.id, spec });
    equal(count(sandbox, "CreateTask"), 3);
    // Without an earlier failed attempt ALREADY_EXISTS is the caller's to judge.
    await rejects(client.admin.createTask({ id: spec.template!.id, spec }), /AlreadyExists/);
  });
});

Deno.test("retries: a service config's retry policy and method timeout win where they apply", async () => {
  const serviceConfig = parseServiceConfig(JSON.stringify({
    loadBalancingConfig: [{ round_robin: {} }],
    methodConfig: [
      {
        name: [{ service: "flyteidl.service.AdminService", method: "ListTasks" }],
        retryPolicy: {
          maxAttempts: 2,
          initialBackoff: "0.001s",
          maxBackoff: "0.002s",
          backoffMultiplier: 2,
          retryableStatusCodes: ["UNAVAILABLE", "INTERNAL"],
        },
      },
      { name: [{ service: "flyteidl.service.AdminService", method: "GetTask" }], timeout: "0.05s" },
    ],
  }));
  await withClient({ ...FAST, serviceConfig }, async (sandbox, client) => {
    sandbox.failNext("ListTasks", Code.Internal, 10);
    await rejects(client.admin.listTasks(LIST), /Internal/);
    equal(count(sandbox, "ListTasks"), 2);
    sandbox.clearFaults();
    sandbox.setLatency(500);
    const started = performance.now();
    await rejects(
      client.admin.getTask({ id: { project: "p", domain: "d", name: "n", version: "v" } }),
      /DeadlineExceeded/,
    );
    equal(performance.now() - started < 400, true, "the method timeout ended the call");
  });
});

Deno.test("retries: every attempt sends its own grpc-timeout; the caller's cancel ends an attempt and is not retried", async () => {
  const seen: http2.IncomingHttpHeaders[] = [];
  const resets: number[] = [];
  // The first attempt is refused (UNAVAILABLE, retried); later ones are left unanswered.
  const handler: StreamHandler = (stream, headers) => {
    seen.push(headers);
    stream.on("close", () => resets.push(stream.rstCode));
    if (seen.length === 1) {
      stream.respond({ ":status": 200, "content-type": "application/grpc", "grpc-status": "14" }, { endStream: true });
    }
  };
  await withRawServer(handler, async (server) => {
    const retry = { ...FAST, perAttemptTimeoutMs: 4_000 };
    const client = createAdminClient({ endpoint: server.endpoint, insecure: true, retry });
    try {
      const controller = new AbortController();
      const call = client.admin.listTasks(LIST, { signal: controller.signal });
      while (seen.length < 2) await new Promise((resolve) => setTimeout(resolve, 1));
      controller.abort();
      await rejects(call, /Canceled/);
      while (resets.length < 2) await new Promise((resolve) => setTimeout(resolve, 1));
      equal(seen.length, 2);
      equal(resets[1], http2.constants.NGHTTP2_CANCEL);
      for (const headers of seen) equal(headers["grpc-timeout"], "4000m");
    } finally {
      client.close();
    }
  });
});
