/**
 * `get launchplan`: the ListLaunchPlans and GetLaunchPlan requests it sends (flytectl's, with fctl's fixes),
 * `--workflow`, STATE and SCHEDULE, the flytesnacks core package registered and read back, `--execFile`, and one
 * fresh process against a production admin.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import { parse } from "yaml";
import type { ConnectRouter } from "@connectrpc/connect";
import { LaunchPlanListSchema, LaunchPlanSchema } from "../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import { AdminService } from "../proto/gen/flyteidl/service/admin_pb.ts";
import { createGrpcRouter } from "../src/sandbox/grpc_router.ts";
import { listenHttp2 } from "../src/sandbox/http2_listener.ts";
import { SimpleType } from "../proto/gen/flyteidl/core/types_pb.ts";
import type { ObjectGetRequest, ResourceListRequest } from "../proto/gen/flyteidl/admin/common_pb.ts";
import { type Sandbox, startSandbox } from "../src/sandbox/mod.ts";
import { runFctl, runFctlProcess } from "./helpers.ts";
import {
  CORE_WORKFLOW as WF,
  createScheduledCopies,
  registerCore,
  runProductionProcess,
  withFullAdmin,
} from "./entity_fixtures.ts";

const SORT = "core.control_flow.run_merge_sort.merge_sort";
const SCOPE = ["-p", "flytesnacks", "-d", "development"];

async function withCore(fn: (sandbox: Sandbox, endpoint: string[]) => Promise<void>): Promise<void> {
  const sandbox = await startSandbox();
  try {
    await registerCore(sandbox, ["v1", "v2"]);
    await fn(sandbox, [...SCOPE, "--admin.endpoint", sandbox.endpoint]);
  } finally {
    await sandbox.close();
  }
}

function calls(sandbox: Sandbox): unknown[] {
  return sandbox.requests.map(({ method, request }) => {
    if (method === "ListLaunchPlans") {
      const r = request as ResourceListRequest;
      return [method, r.id?.name, r.limit, r.token, r.filters, r.sortBy?.key, r.sortBy?.direction];
    }
    if (method === "GetLaunchPlan") {
      const id = (request as ObjectGetRequest).id!;
      return [method, id.resourceType, id.project, id.domain, id.name, id.version];
    }
    throw new Error(`unexpected ${method}`);
  });
}

const list = (
  name = "",
  limit = 100,
  token = "",
  filters = "",
  key = "created_at",
  direction = 0,
) => ["ListLaunchPlans", name, limit, token, filters, key, direction];

Deno.test("get launchplan sends flytectl's requests, --workflow's selector and fctl's --latest", async () => {
  const cases: [string[], unknown[][]][] = [
    [["get", "launchplan"], [list()]],
    [["get", "launchplans", "--filter.limit", "2", "--filter.page", "2"], [list("", 2, "2")]],
    [["get", "launchplan", "--workflow", WF], [list("", 100, "", `eq(workflow.name,${WF})`)]],
    [["get", "launchplan", "--version", "v1"], [list("", 100, "", "eq(launch_plan.version,v1)")]],
    [["get", "launchplan", WF, "--filter.sortBy", "version", "--filter.asc"], [list(WF, 100, "", "", "version", 1)]],
    [["get", "launchplan", WF, "--latest", "--filter.asc"], [list(WF, 1)]],
    [["get", "launchplan", WF, "--version", "v1"], [["GetLaunchPlan", 3, "flytesnacks", "development", WF, "v1"]]],
  ];
  await withCore(async (sandbox, endpoint) => {
    for (const [args, expected] of cases) {
      sandbox.clearRequests();
      const { code, stderr } = await runFctl([...args, ...endpoint]);
      equal(code, 0, `${args.join(" ")}: ${stderr}`);
      deepEqual(calls(sandbox), expected, args.join(" "));
    }
  });
});

Deno.test("get launchplan: bad input is one usage line before any call; an unknown name is exit 1 naming it", async () => {
  await withCore(async (sandbox, endpoint) => {
    const cases: [string[], string][] = [
      [
        ["--workflow", WF, "--filter.fieldSelector", "name=x"],
        "Error: fieldSelector cannot be specified with workflow flag",
      ],
      [
        ["--latest"],
        `Error: --latest needs a launch plan name: give one (fctl get launchplan NAME --latest), or leave --latest out to list them all (flytectl ignores it without a name)`,
      ],
      [["--execFile", "spec.yaml"], "Error: --execFile needs a launch plan name"],
      [["--filter.page", "0"], 'Error: invalid value "0" for --filter.page: expected a whole number of 1 or more'],
      [
        ["-o", "doturl"],
        "Error: visualization is only supported on workflows: -o DOTURL cannot show this command's output; " +
        "use TABLE, JSON or YAML",
      ],
      [
        ["-o", "svg"],
        "Error: visualization is only supported on workflows: -o SVG cannot show this command's output; " +
        "use TABLE, JSON or YAML",
      ],
    ];
    for (const [args, message] of cases) {
      const result = await runFctl(["get", "launchplan", ...args, ...endpoint]);
      deepEqual([result.code, result.stdout, result.stderr], [2, "", message + "\n"], args.join(" "));
    }
    deepEqual(sandbox.requests, [], "no request was made");
    const missing = await runFctl(["get", "launchplan", "nope", ...endpoint]);
    deepEqual([missing.code, missing.stderr], [
      1,
      'Error: launch plan "nope" not found in project "flytesnacks", domain "development"\n',
    ]);
  });
});

Deno.test("get launchplan --workflow: an empty name or one FlyteAdmin's filters cannot carry is refused naming --workflow", async () => {
  await withCore(async (sandbox, endpoint) => {
    const cannot = 'a workflow name without "," or "+" (FlyteAdmin\'s filters cannot express them)';
    const cases: [string, string][] = [
      ["", 'Error: invalid value "" for --workflow: expected a workflow name'],
      ["a,b", `Error: invalid value "a,b" for --workflow: expected ${cannot}`],
      ["a+b", `Error: invalid value "a+b" for --workflow: expected ${cannot}`],
    ];
    for (const [workflow, line] of cases) {
      const result = await runFctlProcess(["get", "launchplan", "--workflow", workflow, ...endpoint]);
      deepEqual([result.code, result.stdout, result.stderr], [2, "", line + "\n"], workflow);
    }
    deepEqual(sandbox.requests, [], "no request was made");
  });
});

Deno.test("get launchplan reads back the core package: STATE from the closure, SCHEDULE as text, inputs and outputs", async () => {
  await withCore(async (sandbox, endpoint) => {
    const all = await runFctl(["get", "launchplan", "--workflow", WF, ...endpoint]);
    match(all.stdout, /\| VERSION \| NAME +\| TYPE +\| CREATED AT +\|/);
    match(all.stdout, /\| v2 +\| core\.flyte_basics\.basic_workflow\.my_wf \| LAUNCH_PLAN \|/);
    match(all.stdout, /2 rows\n$/);
    // Activate v1 and give two copies of it a schedule each, through the admin's own API.
    await withFullAdmin(sandbox, async (admin) => {
      const id = { resourceType: 3, project: "flytesnacks", domain: "development", name: WF, version: "v1" };
      await admin.updateLaunchPlan({ id, state: 1 });
      await createScheduledCopies(admin, id, false);
    });
    const versions = await runFctl(["get", "launchplan", WF, ...endpoint]);
    match(versions.stdout, /\| VERSION \| NAME +\| STATE +\| SCHEDULE \| INPUTS \| OUTPUTS \| CREATED AT +\|/);
    match(versions.stdout, /\| v2 +\| core\.flyte_basics\.basic_workflow\.my_wf \| INACTIVE \| +\| a +\| o0 +\|/);
    match(versions.stdout, /\| v1 +\| core\.flyte_basics\.basic_workflow\.my_wf \| ACTIVE +\| +\| a +\| o0 +\|/);
    // Active versions only, with FlyteAdmin's state column.
    const active = await runFctl(["get", "launchplan", "--filter.fieldSelector", "state=1", "-o", "json", ...endpoint]);
    deepEqual(JSON.parse(active.stdout).map((lp: { id: { name: string; version: string } }) => lp.id), [
      { resourceType: "LAUNCH_PLAN", project: "flytesnacks", domain: "development", name: WF, version: "v1" },
    ]);
    const cron = await runFctl(["get", "launchplan", "cron_lp", "--latest", ...endpoint]);
    match(cron.stdout, /\| v1 +\| cron_lp \| INACTIVE \| cron\(0 \* \* \* \*\) \| a +\| o0 +\|/);
    const rate = await runFctl(["get", "launchplan", "rate_lp", "--version", "v1", "-o", "yaml", ...endpoint]);
    match(rate.stdout, /unit: MINUTE|value: 5/);
    const rateTable = await runFctl(["get", "launchplan", "rate_lp", "--version", "v1", ...endpoint]);
    match(rateTable.stdout, /\| rate\(5 MINUTE\) \|/);
    const json = JSON.parse((await runFctl(["get", "launchplan", WF, "--latest", "-o", "json", ...endpoint])).stdout);
    deepEqual([json.id.version, json.closure.state ?? "INACTIVE"], ["v2", "INACTIVE"]);
  });
});

Deno.test("a launch plan registered without default inputs shows its workflow's unbound inputs as required, as FlyteAdmin's", async () => {
  await withCore(async (sandbox, endpoint) => {
    const { fixture } = await import("./helpers.ts");
    const register = () =>
      runFctl(["register", "files", "--archive", fixture("valid-register.tgz"), "--version", "r1", ...endpoint]);
    const registered = await register();
    equal(registered.code, 0, registered.stderr);
    // Its launch plan names no default input; its workflow takes `a` and `b`, which FlyteAdmin adds to the default
    // inputs as required (ValidateLaunchPlan), and the closure's expected inputs are the same.
    const name = "recipes.core.basic.basic_workflow.my_wf";
    const shown = await runFctlProcess(["get", "launchplan", name, "--latest", "-o", "json", ...endpoint]);
    equal(shown.code, 0, shown.stderr);
    const lp = JSON.parse(shown.stdout);
    const required = (name: string, simple: string) => ({
      var: { type: { simple }, description: name },
      required: true,
    });
    const parameters = { a: required("a", "INTEGER"), b: required("b", "STRING") };
    deepEqual(lp.spec.defaultInputs, { parameters });
    deepEqual(lp.closure.expectedInputs, { parameters });
    const dir = await Deno.makeTempDir({ prefix: "fctl-lp-required-" });
    try {
      const file = `${dir}/exec.yaml`;
      const written = await runFctlProcess(["get", "launchplan", name, "--execFile", file, ...endpoint]);
      equal(written.code, 0, written.stderr);
      ok(
        (await Deno.readTextFile(file)).startsWith(
          'iamRoleARN: ""\ninputs:\n  # required\n  a: 0\n  # required\n  b: ""\n',
        ),
      );
      // The same registration again is the same launch plan: AlreadyExists, not a different structure.
      const again = await register();
      equal(again.code, 0, again.stderr);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
    sandbox.clearRequests();
  });
});

Deno.test("get launchplan --execFile writes the spec of the newest version: defaults, required inputs marked", async () => {
  await withCore(async (_sandbox, endpoint) => {
    const dir = await Deno.makeTempDir({ prefix: "fctl-lp-exec-" });
    try {
      const file = `${dir}/exec.yaml`;
      const result = await runFctl(["get", "launchplan", SORT, "--execFile", file, ...endpoint]);
      equal(result.code, 0, result.stderr);
      equal(result.stderr, `wrote the execution spec of ${SORT} version v2 to ${file}\n`);
      const text = await Deno.readTextFile(file);
      equal(
        text,
        `iamRoleARN: ""
inputs:
  # required
  numbers:
    - 0
  # required
  numbers_count: 0
  run_local_at_count: 10
envs: {}
kubeServiceAcct: ""
targetDomain: ""
targetProject: ""
version: v2
workflow: ${SORT}
`,
      );
      deepEqual(parse(text).inputs.run_local_at_count, 10);
      equal((await Deno.stat(file)).mode! & 0o777, 0o600);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});

Deno.test("production admin: get launchplan as a fresh process (TLS, OAuth client credentials, declared permissions)", async () => {
  const sandbox = await startSandbox({ production: true });
  try {
    const { fixture } = await import("./helpers.ts");
    const register = ["register", "files", "--archive", fixture("flytesnacks-core.tgz"), "--version", "v1"];
    equal((await runProductionProcess(sandbox, register)).code, 0);
    const result = await runProductionProcess(sandbox, ["get", "launchplan", WF, "--latest", "-o", "json"]);
    equal(result.code, 0, result.stderr);
    equal(JSON.parse(result.stdout).id.version, "v1");
    equal(result.stderr, "");
  } finally {
    await sandbox.close();
  }
});

Deno.test("get launchplan --execFile: msgpack defaults nested thousands deep (a few KiB an admin answers) are written as their bytes, not a stack overflow", async () => {
  // Arrays in one another, 1,000 to 8,000 deep: decoded whole, some overflowed the stack of the YAML writer (how
  // deep depends on the stack), one deeper the decoder's (and were shown as their bytes).
  const depths = Array.from({ length: 71 }, (_, i) => 1_000 + 100 * i);
  const nested = (depth: number) => {
    const bytes = new Uint8Array(depth + 1).fill(0x91);
    bytes[depth] = 0xc0;
    return bytes;
  };
  const id = { resourceType: 3, project: "flytesnacks", domain: "development", name: "deep_lp", version: "v1" };
  const launchPlan = create(LaunchPlanSchema, {
    id,
    spec: {
      workflowId: { ...id, resourceType: 2 },
      defaultInputs: {
        // Dataclass inputs, whose defaults flytekit writes as msgpack.
        parameters: Object.fromEntries(depths.map((depth) => [`d${depth}`, {
          var: { type: { type: { case: "simple" as const, value: SimpleType.STRUCT } } },
          behavior: {
            case: "default" as const,
            value: {
              value: {
                case: "scalar" as const,
                value: { value: { case: "binary" as const, value: { value: nested(depth), tag: "msgpack" } } },
              },
            },
          },
        }])),
      },
    },
  });
  // A hand-written admin over real gRPC: the sandbox's checks would refuse such a launch plan, another admin need not.
  const shutdown = new AbortController();
  const onRequest = createGrpcRouter({
    routes: (router: ConnectRouter) =>
      void router.service(AdminService, {
        listLaunchPlans: () => create(LaunchPlanListSchema, { launchPlans: [launchPlan] }),
        getLaunchPlan: () => launchPlan,
      }),
    interceptors: [],
    shutdownSignal: shutdown.signal,
  });
  const server = await listenHttp2(onRequest, { port: 0, hostname: "127.0.0.1" });
  const dir = await Deno.makeTempDir({ prefix: "fctl-lp-deep-" });
  try {
    const file = `${dir}/exec.yaml`;
    const written = await runFctlProcess([
      "get",
      "launchplan",
      "deep_lp",
      "--execFile",
      file,
      ...SCOPE,
      "--admin.endpoint",
      `dns:///127.0.0.1:${server.port}`,
      "--admin.insecure",
    ]);
    equal(written.code, 0, written.stderr);
    const inputs = parse(await Deno.readTextFile(file)).inputs;
    for (const depth of depths) deepEqual(inputs[`d${depth}`], { value: [...nested(depth)], tag: "msgpack" });
  } finally {
    await Deno.remove(dir, { recursive: true });
    shutdown.abort();
    await server.close();
  }
});
