/**
 * registerFiles on every real package of the shared fixtures, against the in-process admin over gRPC,
 * asserting exactly what reaches the admin service.
 */
import { deepStrictEqual as assertEquals, ok as assert, rejects as assertRejects } from "node:assert/strict";
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import type { AdminClient } from "../admin/client.ts";
import { OperationError } from "../errors.ts";
import { LaunchPlanSchema, LaunchPlanState } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import { ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { SimpleType } from "../../proto/gen/flyteidl/core/types_pb.ts";
import type { TaskCreateRequest } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import type { Sandbox } from "../sandbox/mod.ts";
import { MemStore } from "../storage/mod.ts";
import {
  DEFAULT_CONCURRENCY,
  registerFiles,
  type RegisterFilesOptions,
  type RegisterReport,
} from "./register_files.ts";
import { extractionDirs, fixture } from "./_test_helpers.ts";
import { sleepNode, withSandbox } from "../sandbox/_test_helpers.ts";
import { simple, str } from "../_test_literals.ts";

const BASE = { project: "flytesnacks", domain: "development", version: "v1", archive: true };
const CORE_SOURCE = "core/_pb_output/fasted4a62b5c4359e9aed745fa1197a9ea0.tar.gz";

const register = (
  client: AdminClient,
  options: Partial<RegisterFilesOptions> & { paths: string[] },
  ...rest: Parameters<typeof registerFiles> extends [unknown, unknown, ...infer R] ? R : never
) => registerFiles(client, { ...BASE, ...options }, ...rest);

function countMethods(sandbox: Sandbox): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { method } of sandbox.requests) counts[method] = (counts[method] ?? 0) + 1;
  return counts;
}

/** Every flyteidl Identifier inside the recorded requests. */
function identifiers(value: unknown, found: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (value === null || typeof value !== "object") return found;
  const record = value as Record<string, unknown>;
  if (record.$typeName === "flyteidl.core.Identifier") found.push(record);
  for (const child of Object.values(record)) identifiers(child, found);
  return found;
}

/** Every string inside the recorded requests. */
function strings(value: unknown, found: string[] = []): string[] {
  if (typeof value === "string") found.push(value);
  else if (value !== null && typeof value === "object") {
    for (const child of Object.values(value)) strings(child, found);
  }
  return found;
}

/** Most entities whose create intervals overlap, from the report's timings. */
function maxOverlap(report: RegisterReport): number {
  const events = report.entries.flatMap((e) =>
    e.startedMs === undefined ? [] : [[e.startedMs, 1], [e.startedMs + e.durationMs!, -1]]
  ).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let active = 0;
  let max = 0;
  for (const [, delta] of events) max = Math.max(max, active += delta);
  return max;
}

Deno.test("flytesnacks-core.tgz: one upload, 39/21/24 creates, every placeholder replaced, its widest round at once", async () => {
  await withSandbox(async (sandbox, client) => {
    const before = await extractionDirs();
    const report = await register(client, { paths: [fixture("flytesnacks-core.tgz")] });
    assertEquals(countMethods(sandbox), {
      CreateUploadLocation: 1,
      CreateTask: 39,
      CreateWorkflow: 21,
      CreateLaunchPlan: 24,
    });
    assertEquals(sandbox.uploads.size, 1);
    assertEquals(report.failed, 0);
    assertEquals(report.entries.length, 84);
    // The package serializes the task cookbook.sqlite3.sample twice (32_ and 36_), identically.
    assertEquals(
      report.entries.filter((e) => e.info !== "Successfully registered file").map((e) => [e.name, e.status, e.info]),
      [["core/_pb_output/36_cookbook.sqlite3.sample_1.pb", "Success", "AlreadyExists"]],
    );
    assertEquals(report.entries.map((e) => e.kind).filter((k) => k === "task").length, 39);

    const sent = sandbox.requests.map((r) => r.request);
    const all = strings(sent);
    // `{{.input}}` and friends are execution-time templates for the Flyte engine and must stay.
    const placeholders = /\{\{ *(registration\.|\.remote_package_path|\.dest_dir)/;
    assertEquals(all.filter((s) => placeholders.test(s)), [], "no registration placeholder left in any request");
    assert(all.includes("{{.input}}"), "execution-time templates are untouched");
    for (const id of identifiers(sent)) {
      assertEquals([id.project, id.domain, id.version], ["flytesnacks", "development", "v1"]);
    }
    const location = [...sandbox.uploads.keys()][0];
    const tasks = sandbox.requests.filter((r) => r.method === "CreateTask").map((r) => r.request as TaskCreateRequest);
    const withSource = tasks.filter((t) =>
      t.spec?.template?.target.case === "container" && t.spec.template.target.value.args.includes(location)
    );
    assertEquals(withSource.length, 35);
    const firstWithSource = sandbox.requests.findIndex((r) => withSource.includes(r.request as TaskCreateRequest));
    const uploadLocation = sandbox.requests.findIndex((r) => r.method === "CreateUploadLocation");
    assert(uploadLocation < firstWithSource, "the upload location is asked for before any task uses it");
    // The 35 tasks that carry the source's location are all ready when the upload ends.
    const overlap = maxOverlap(report);
    assert(overlap >= 35 && overlap <= DEFAULT_CONCURRENCY, `the default concurrency is used: ${overlap} at once`);
    assert(report.timings.totalMs >= report.timings.prepareMs + report.timings.registerMs);
    assert(report.timings.registerMs >= report.timings.uploadMs);
    // The upload runs alongside the creates that do not need it; the tasks carrying its location wait for it.
    const uploaded = report.timings.prepareMs + report.timings.uploadMs;
    const sourceUsers = new Set(withSource.map((t) => t.id?.name));
    const taskEntries = report.entries.filter((e) => e.kind === "task");
    for (const entry of taskEntries.filter((e) => sourceUsers.has(e.id?.name))) {
      assert(entry.startedMs! >= uploaded, `${entry.name} started before the source was uploaded`);
    }
    const overlapping = taskEntries.filter((e) => e.startedMs! < uploaded).map((e) => e.name);
    assertEquals(overlapping.length, 4, `the tasks without the source overlap the upload: ${overlapping}`);
    assertEquals(await extractionDirs(), before, "temp dirs removed");
  });
});

for (const concurrency of [1, 8]) {
  Deno.test(`--concurrency ${concurrency} makes ${concurrency} creates at a time and ends in the same admin state`, async () => {
    await withSandbox(async (sandbox, client) => {
      const report = await register(client, { paths: [fixture("flytesnacks-core.tgz")], concurrency });
      assertEquals(report.failed, 0);
      assertEquals(maxOverlap(report), concurrency);
      assertEquals(
        [sandbox.store.tasks().length, sandbox.store.workflows().length, sandbox.store.launchPlans().length],
        [38, 21, 24], // 39 task files, one of them twice
      );
    });
  });
}

Deno.test("re-registering flytesnacks-core.tgz: every entity AlreadyExists, nothing fails", async () => {
  await withSandbox(async (sandbox, client) => {
    await register(client, { paths: [fixture("flytesnacks-core.tgz")] });
    sandbox.clearRequests();
    const again = await register(client, { paths: [fixture("flytesnacks-core.tgz")] });
    assertEquals(again.failed, 0);
    assert(again.entries.every((e) => e.status === "Success" && e.info === "AlreadyExists"));
    assertEquals(countMethods(sandbox).CreateLaunchPlan, 24);
  });
});

Deno.test("failure-node.tgz: empty project, domain and version are filled in; 4/6/6 creates", async () => {
  await withSandbox(async (sandbox, client) => {
    const report = await register(client, { paths: [fixture("failure-node.tgz")], version: "fn1" });
    assertEquals(report.failed, 0, JSON.stringify(report.entries.filter((e) => e.status !== "Success")));
    assertEquals(countMethods(sandbox), { CreateTask: 4, CreateWorkflow: 6, CreateLaunchPlan: 6 });
    const ids = identifiers(sandbox.requests.map((r) => r.request));
    assert(ids.length > 16);
    for (const id of ids) assertEquals([id.project, id.domain, id.version], ["flytesnacks", "development", "fn1"]);
  });
});

Deno.test("invalid-fast.tgz: the unexpected members are named and nothing is sent", async () => {
  await withSandbox(async (sandbox, client) => {
    const report = await register(client, { paths: [fixture("invalid-fast.tgz")] });
    const failed = report.entries.filter((e) => e.status === "Failed").map((e) => e.name);
    assertEquals(failed, [
      "core/_pb_output/.DS_Store",
      "core/_pb_output/._.DS_Store",
      "core/_pb_output/._fastb17d7d7f43e1611d1c7a82d5e0296977.tagz.gz",
      "core/_pb_output/fastb17d7d7f43e1611d1c7a82d5e0296977.tagz.gz",
    ]);
    assertEquals(report.entries.filter((e) => e.status === "Skipped").length, 101);
    assertEquals(sandbox.requests, []);
    assertEquals(sandbox.uploads.size, 0);
  });
});

Deno.test("dry run of flytesnacks-core.tgz: zero mutating requests and zero uploads; the report says so", async () => {
  await withSandbox(async (sandbox, client) => {
    const report = await register(client, { paths: [fixture("flytesnacks-core.tgz")], dryRun: true });
    assertEquals(report.dryRun, true);
    assertEquals(report.entries.length, 84);
    assertEquals(sandbox.requests, []);
    assertEquals(sandbox.uploads.size, 0);
  });
});

Deno.test("storage fallback: UNIMPLEMENTED upload location writes <container>/fast/<version>-<file>", async () => {
  await withSandbox(async (sandbox, client) => {
    const mem = new MemStore("my-bucket");
    sandbox.failNext("CreateUploadLocation", Code.Unimplemented);
    const report = await register(client, { paths: [fixture("flytesnacks-core.tgz")] }, undefined, {
      openStorage: () => mem,
      allowLocalStorage: true,
    });
    const location = "mem://my-bucket/fast/v1-fasted4a62b5c4359e9aed745fa1197a9ea0.tar.gz";
    assertEquals(report.source?.name, CORE_SOURCE);
    assertEquals(report.source?.location, location);
    assertEquals(report.source?.via, "storage");
    assertEquals([...mem.objects.keys()], [location]);
    assertEquals(sandbox.uploads.size, 0);
    const args = strings(sandbox.requests.filter((r) => r.method === "CreateTask").map((r) => r.request));
    assertEquals(args.filter((a) => a === location).length, 35);
  });
});

// --- Scheduled launch plans (152_my_cron_scheduled_lp_3.pb) ---

const SCHEDULED_WORKFLOW = "core.scheduled_workflows.lp_schedules.date_formatter_wf";

/** The workflow the scheduled launch plan fixture runs: inputs kickoff_time and name. */
function seedScheduledWorkflow(sandbox: Sandbox): void {
  const id = {
    resourceType: ResourceType.WORKFLOW,
    project: "flytesnacks",
    domain: "development",
    name: SCHEDULED_WORKFLOW,
    version: "v1",
  };
  const variable = (type: SimpleType) => ({ type: simple(type) });
  sandbox.store.addWorkflow({
    id,
    spec: {
      template: {
        id,
        interface: {
          inputs: { variables: { kickoff_time: variable(SimpleType.DATETIME), name: variable(SimpleType.STRING) } },
        },
        nodes: [sleepNode()],
      },
    },
  });
}

/** The fixture with a default for `name`, written to a temp file. */
async function scheduledWithDefault(dir: string): Promise<string> {
  const plan = fromBinary(LaunchPlanSchema, await Deno.readFile(fixture("152_my_cron_scheduled_lp_3.pb")));
  const parameter = plan.spec!.defaultInputs!.parameters["name"];
  parameter.behavior = {
    case: "default",
    value: str("x"),
  };
  const path = `${dir}/152_my_cron_scheduled_lp_3.pb`;
  await Deno.writeFile(path, toBinary(LaunchPlanSchema, plan));
  return path;
}

Deno.test("a scheduled launch plan whose workflow input has no value is Failed before it is created", async () => {
  await withSandbox(async (sandbox, client) => {
    seedScheduledWorkflow(sandbox);
    const report = await register(client, { paths: [fixture("152_my_cron_scheduled_lp_3.pb")], archive: false });
    assertEquals(report.entries.map((e) => [e.status, e.info]), [[
      "Failed",
      "Error registering file due to param values are missing on scheduled workflow for the following params " +
      "[name]. Either specify them having a default or fixed value",
    ]]);
    assertEquals(sandbox.requests.map((r) => r.method), ["GetWorkflow"]);
  });
});

Deno.test("--enableSchedule activates scheduled launch plans only", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fctl-register-test-" });
  try {
    await withSandbox(async (sandbox, client) => {
      seedScheduledWorkflow(sandbox);
      const scheduled = await register(client, { paths: [await scheduledWithDefault(dir)], archive: false }, undefined);
      assertEquals(scheduled.entries[0].info, "Successfully registered file");
      assertEquals(sandbox.requests.map((r) => r.method), ["GetWorkflow", "CreateLaunchPlan"]);
      const lpId = { ...scheduled.entries[0].id!, resourceType: ResourceType.LAUNCH_PLAN };
      assertEquals(sandbox.store.getLaunchPlan(lpId).closure?.state, LaunchPlanState.INACTIVE);

      sandbox.clearRequests();
      const again = await register(client, {
        paths: [await scheduledWithDefault(dir)],
        archive: false,
        enableSchedule: true,
      });
      assertEquals(again.entries[0].info, "AlreadyExists; schedule activated");
      assertEquals(sandbox.requests.map((r) => r.method), ["GetWorkflow", "CreateLaunchPlan", "UpdateLaunchPlan"]);
      assertEquals(sandbox.store.getLaunchPlan(lpId).closure?.state, LaunchPlanState.ACTIVE);

      sandbox.clearRequests();
      await register(client, { paths: [fixture("valid-register.tgz")], enableSchedule: true });
      assert(!sandbox.requests.some((r) => r.method === "UpdateLaunchPlan"), "unscheduled launch plans stay inactive");
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// --- Archives over HTTP ---

async function withFileServer(fn: (base: string, seen: string[]) => Promise<void>): Promise<void> {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    seen.push(url.pathname + url.search);
    const name = url.pathname.slice(1);
    if (!/^[\w.-]+$/.test(name)) return new Response("bad name", { status: 400 });
    try {
      const file = await Deno.open(fixture(name));
      return new Response(file.readable);
    } catch {
      return new Response("Not Found", { status: 404, statusText: "Not Found" });
    }
  });
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`, seen);
  } finally {
    await server.shutdown();
  }
}

Deno.test("an http archive URL is streamed into extraction and registered", async () => {
  await withFileServer(async (base, seen) => {
    await withSandbox(async (sandbox, client) => {
      const progress: number[] = [];
      const report = await register(client, { paths: [`${base}/valid-register.tgz?sig=s3cret`] }, undefined, {
        onDownloadProgress: (p) => void (p.done && progress.push(p.received)),
      });
      assertEquals(seen, ["/valid-register.tgz?sig=s3cret"]);
      assertEquals(report.entries.map((e) => e.status), ["Success", "Success", "Success", "Success"]);
      assertEquals(progress, [(await Deno.stat(fixture("valid-register.tgz"))).size]);
      assertEquals(sandbox.requests.length, 4);
    });
  });
});

Deno.test("a non-2xx download is one error naming the URL (without its query); nothing is registered", async () => {
  await withFileServer(async (base) => {
    await withSandbox(async (sandbox, client) => {
      await assertRejects(register(client, { paths: [`${base}/missing.tgz?sig=s3cret`] }), (err: Error) => {
        assert(err instanceof OperationError);
        assertEquals(err.message, `cannot download "${base}/missing.tgz": HTTP 404 Not Found`);
        return true;
      });
      await assertRejects(register(client, { paths: [`${base}/invalid.tgz`] }), /is not a valid gzip-compressed tar/);
      assertEquals(sandbox.requests, []);
    });
  });
});

// --- Ctrl-C ---

Deno.test("an abort stops scheduling, lets in-flight creates finish, reports the rest, removes temp dirs", async () => {
  await withSandbox(async (sandbox, client) => {
    sandbox.setLatency(10);
    const before = await extractionDirs();
    const controller = new AbortController();
    const report = await register(
      client,
      { paths: [fixture("flytesnacks-core.tgz")], concurrency: 4 },
      controller.signal,
      {
        onProgress: (p) => {
          if (p.phase === "create" && p.done === 6) controller.abort();
        },
      },
    );
    assertEquals(report.interrupted, true);
    const creates = sandbox.requests.filter((r) =>
      r.method.startsWith("Create") && r.method !== "CreateUploadLocation"
    );
    const succeeded = report.entries.filter((e) => e.status === "Success");
    assertEquals(succeeded.length, creates.length, "every create that was sent is reported as registered");
    assert(succeeded.length >= 6 && succeeded.length <= 9, String(succeeded.length));
    const rest = report.entries.filter((e) => e.status !== "Success");
    assertEquals(rest.length, 84 - succeeded.length);
    assert(rest.every((e) => e.status === "Skipped" && e.info === "Not registered: interrupted"));
    assertEquals(await extractionDirs(), before);
  });
});
