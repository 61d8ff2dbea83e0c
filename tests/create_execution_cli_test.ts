/**
 * `create execution`: a spec file written by `get task|launchplan --execFile`, edited, and run by a fresh fctl
 * process; the inputs the sandbox stored equal the intended literals exactly (int64 edges, a union); the requests
 * it sends; bad spec files refused on one line with nothing created; relaunch, recover, --dryRun; and one fresh
 * process against the production-shaped admin (TLS, OAuth).
 */
import { decode } from "@msgpack/msgpack";
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { create, equals, type JsonValue, toJson } from "@bufbuild/protobuf";
import {
  ExecutionCreateRequestSchema,
  ExecutionRecoverRequestSchema,
  ExecutionRelaunchRequestSchema,
} from "../proto/gen/flyteidl/admin/execution_pb.ts";
import type { ExecutionCreateRequest } from "../proto/gen/flyteidl/admin/execution_pb.ts";
import { ResourceType } from "../proto/gen/flyteidl/core/identifier_pb.ts";
import { type Literal, LiteralSchema } from "../proto/gen/flyteidl/core/literals_pb.ts";
import { SimpleType } from "../proto/gen/flyteidl/core/types_pb.ts";
import { type Sandbox, startSandbox } from "../src/sandbox/mod.ts";
import { bool, int, simple, str, unionOf } from "../src/_test_literals.ts";
import { runFctl, runFctlProcess } from "./helpers.ts";
import { registerCore, runProductionProcess, withFullAdmin } from "./entity_fixtures.ts";

const SCOPE = ["-p", "flytesnacks", "-d", "development"];
const TASK = "core.flyte_basics.lp.greet";
const LAUNCH_PLAN = "core.flyte_basics.lp.go_greet";
const UNION_TASK = "test.union_task";

async function withCore(fn: (sandbox: Sandbox, endpoint: string[], dir: string) => Promise<void>): Promise<void> {
  const sandbox = await startSandbox();
  const dir = await Deno.makeTempDir({ prefix: "fctl-create-execution-" });
  try {
    await registerCore(sandbox, ["v1"]);
    await fn(sandbox, [...SCOPE, "--admin.endpoint", sandbox.endpoint], dir);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** Registers a copy of the core package's greet task under `name` and `version`, with these input variables. */
async function registerTask(sandbox: Sandbox, name: string, version: string, variables: object): Promise<void> {
  await withFullAdmin(sandbox, async (admin) => {
    const greet = await admin.getTask({
      id: { resourceType: ResourceType.TASK, project: "flytesnacks", domain: "development", name: TASK, version: "v1" },
    });
    const template = greet.closure!.compiledTask!.template!;
    const id = { resourceType: ResourceType.TASK, project: "flytesnacks", domain: "development", name, version };
    const taskInterface = { inputs: { variables }, outputs: template.interface?.outputs };
    const { $typeName: _, ...fields } = template;
    await admin.createTask({ id, spec: { template: { ...fields, id, interface: taskInterface } as never } });
  });
}

/** A task with a union input (`x: int | str`) and an int input. */
function registerUnionTask(sandbox: Sandbox): Promise<void> {
  const union = unionOf(
    { type: simple(SimpleType.INTEGER).type, structure: { tag: "int" } },
    { type: simple(SimpleType.STRING).type, structure: { tag: "str" } },
  );
  return registerTask(sandbox, UNION_TASK, "u1", {
    x: { type: union, description: "x" },
    n: { type: simple(SimpleType.INTEGER), description: "n" },
  });
}

/** The inputs the sandbox stored for an execution. */
async function storedInputs(sandbox: Sandbox, name: string, project = "flytesnacks"): Promise<Record<string, Literal>> {
  let inputs: Record<string, Literal> = {};
  await withFullAdmin(sandbox, async (admin) => {
    const data = await admin.getExecutionData({ id: { project, domain: "development", name } });
    inputs = data.fullInputs?.literals ?? {};
  });
  return inputs;
}

function sameLiterals(actual: Record<string, Literal>, expected: Record<string, Literal>): void {
  deepEqual(Object.keys(actual).sort(), Object.keys(expected).sort());
  for (const [name, literal] of Object.entries(expected)) {
    ok(equals(LiteralSchema, actual[name], literal), `${name}: ${JSON.stringify(toJson(LiteralSchema, actual[name]))}`);
  }
}

function createRequests(sandbox: Sandbox): JsonValue[] {
  return sandbox.requests.filter((r) => r.method === "CreateExecution").map((r) =>
    toJson(ExecutionCreateRequestSchema, r.request as ExecutionCreateRequest)
  );
}

const ID_LINE = /^execution identifier project:"flytesnacks" domain:"development" name:"([a-z0-9-]+)"\n$/;

Deno.test("create execution: a task's spec file, edited, runs with exactly the edited inputs (int64 edges)", async () => {
  await withCore(async (sandbox, endpoint, dir) => {
    const file = `${dir}/task.yaml`;
    const written = await runFctl(["get", "task", TASK, "--execFile", file, ...endpoint]);
    equal(written.code, 0, written.stderr);
    const text = (await Deno.readTextFile(file))
      .replace(/number: 0/, "number: 9223372036854775807")
      .replace(/day_of_week: ""/, 'day_of_week: "Monday"')
      .replace(/am: false/, "am: true");
    await Deno.writeTextFile(file, text);
    sandbox.requests.length = 0;
    const run = await runFctlProcess(["create", "execution", "--execFile", file, ...endpoint, "--envs", "A=1"]);
    equal(run.code, 0, run.stderr);
    const name = ID_LINE.exec(run.stdout)?.[1];
    ok(name, run.stdout);
    equal(run.stderr, "");
    deepEqual(sandbox.requests.map((r) => r.method), ["GetTask", "CreateExecution"]);
    sameLiterals(await storedInputs(sandbox, name), {
      number: int(9223372036854775807n),
      day_of_week: str("Monday"),
      am: bool(true),
    });
    const [request] = createRequests(sandbox) as Record<string, unknown>[];
    deepEqual({ ...request, inputs: undefined }, {
      project: "flytesnacks",
      domain: "development",
      spec: {
        launchPlan: { resourceType: "TASK", project: "flytesnacks", domain: "development", name: TASK, version: "v1" },
        metadata: { principal: "sdk" }, // mode MANUAL is 0, which protobuf JSON leaves out
        envs: { values: [{ key: "A", value: "1" }] },
      },
      inputs: undefined,
    });
  });
});

Deno.test("create execution: a union input and int64's minimum; the newest version when the file has none", async () => {
  await withCore(async (sandbox, endpoint, dir) => {
    await registerUnionTask(sandbox);
    const file = `${dir}/union.yaml`;
    await Deno.writeTextFile(file, `inputs:\n  x: -9223372036854775808\n  n: -1\ntask: ${UNION_TASK}\nversion: ""\n`);
    const run = await runFctlProcess(["create", "execution", "run-1", "--execFile", file, ...endpoint, "-o", "json"]);
    equal(run.code, 0, run.stderr);
    deepEqual(JSON.parse(run.stdout), { project: "flytesnacks", domain: "development", name: "run-1" });
    equal(run.stderr, "using version u1\n");
    const union = create(LiteralSchema, {
      value: {
        case: "scalar",
        value: {
          value: {
            case: "union",
            value: {
              value: int(-9223372036854775808n),
              type: { type: { case: "simple", value: SimpleType.INTEGER }, structure: { tag: "int" } },
            },
          },
        },
      },
    });
    sameLiterals(await storedInputs(sandbox, "run-1"), { x: union, n: int(-1n) });
  });
});

Deno.test("create execution: a launch plan's spec file, targets and settings from flags over the file", async () => {
  await withCore(async (sandbox, endpoint, dir) => {
    const file = `${dir}/lp.yaml`;
    equal((await runFctl(["get", "launchplan", LAUNCH_PLAN, "--execFile", file, ...endpoint])).code, 0);
    const text = (await Deno.readTextFile(file))
      .replace(/number: 0/, "number: -9007199254740993")
      .replace(/day_of_week: ""/, "day_of_week: Friday")
      .replace(/kubeServiceAcct: ""/, "kubeServiceAcct: file-sa")
      .replace(/targetProject: ""/, "targetProject: nowhere");
    await Deno.writeTextFile(file, text);
    sandbox.requests.length = 0;
    const run = await runFctlProcess([
      "create",
      "execution",
      "lp-run",
      "--execFile",
      file,
      ...endpoint,
      "--targetProject",
      "flytesnacks",
      "--iamRoleARN",
      "arn:role",
      "--clusterPool",
      "pool-a",
      "--targetExecutionCluster",
      "c1",
      "--overwriteCache",
    ]);
    equal(run.code, 0, run.stderr);
    equal(run.stdout, 'execution identifier project:"flytesnacks" domain:"development" name:"lp-run"\n');
    // Two calls, one after the other: the launch plan's version (its input types), then the execution.
    deepEqual(sandbox.requests.map((r) => r.method), ["GetLaunchPlan", "CreateExecution"]);
    const [request] = createRequests(sandbox) as { spec: Record<string, unknown> }[];
    deepEqual({ ...request.spec }, {
      launchPlan: {
        resourceType: "LAUNCH_PLAN",
        project: "flytesnacks",
        domain: "development",
        name: LAUNCH_PLAN,
        version: "v1",
      },
      metadata: { principal: "sdk" },
      authRole: { assumableIamRole: "arn:role", kubernetesServiceAccount: "file-sa" },
      securityContext: { runAs: { iamRole: "arn:role", k8sServiceAccount: "file-sa" } },
      clusterAssignment: { clusterPoolName: "pool-a" },
      overwriteCache: true,
      envs: {},
      executionClusterLabel: { value: "c1" },
    });
    const stored = await storedInputs(sandbox, "lp-run");
    ok(equals(LiteralSchema, stored.number, int(-9007199254740993n)));
    ok(equals(LiteralSchema, stored.day_of_week, str("Friday")));
  });
});

Deno.test("create execution: bad spec files are one line each, exit 2, and create nothing", async () => {
  await withCore(async (sandbox, endpoint, dir) => {
    const cases: [string, RegExp][] = [
      [`task: ${TASK}\ninputs:\n  nmber: 3\n`, /inputs\.nmber.*no such input.*number/],
      [`task: ${TASK}\ninputs:\n  number: ten\n`, /inputs\.number.*"ten".*integer/],
      [`task: ${TASK}\nworkflow: ${LAUNCH_PLAN}\n`, /either task or workflow name should be specified.*not both/],
      [`inputs: {}\n`, /either task or workflow name should be specified to launch an execution/],
      [`task: [unclosed\n`, /is not valid YAML/],
      [
        "task: core.flyte_basics.folders.rotate_all\ninputs:\n  img_dir: /tmp/local\n",
        /inputs\.img_dir: cannot upload "\/tmp\/local": no such file/,
      ],
    ];
    for (const [text, message] of cases) {
      const file = `${dir}/bad.yaml`;
      await Deno.writeTextFile(file, text);
      sandbox.requests.length = 0;
      const run = await runFctl(["create", "execution", "--execFile", file, ...endpoint]);
      equal(run.code, 2, `${text}: ${run.stderr}`);
      match(run.stderr, message);
      equal(run.stderr.trim().split("\n").length, 1, run.stderr);
      deepEqual(createRequests(sandbox), [], text);
    }
    const none = await runFctl(["create", "execution", ...endpoint]);
    equal(none.code, 2);
    equal(
      none.stderr.trim().split("\n")[0].replace(/^.*?executionConfig/, "executionConfig"),
      "executionConfig, relaunch and recover can't be empty. Run the fctl get task/launchplan to generate the config",
    );
    const flagCases: [string[], RegExp][] = [
      [
        ["--execFile", `${dir}/bad.yaml`, "--envs", "NOEQUALS"],
        /invalid value "NOEQUALS" for --envs: expected key=value/,
      ],
      [["--execFile", ""], /invalid value "" for --execFile: expected a file path/],
      [["--execFile", `${dir}/missing.yaml`], /cannot read exec file ".*missing\.yaml": no such file/],
      [
        ["--relaunch", "x", "-o", "dot"],
        /output format DOT is not available for create execution; use TABLE, JSON or YAML/,
      ],
    ];
    for (const [flags, message] of flagCases) {
      const run = await runFctl(["create", "execution", ...flags, ...endpoint]);
      equal(run.code, 2, `${flags.join(" ")}: ${run.stderr}`);
      match(run.stderr, message);
      equal(run.stderr.trim().split("\n").length, 1, run.stderr);
    }
    equal(sandbox.store.executions.summaries().length, 0);
  });
});

Deno.test("create execution: a flytectl spec file holding its flag keys runs as flytectl runs it, or is refused where that would be a trap", async () => {
  await withCore(async (sandbox, endpoint, dir) => {
    const file = `${dir}/flytectl.yaml`;
    const written = await runFctl(["get", "task", TASK, "--execFile", file, ...endpoint]);
    equal(written.code, 0, written.stderr);
    const base = await Deno.readTextFile(file);
    const spec = (extra: string) => `${base}${extra}`;
    // flytectl ignores execFile, a false dryRun and empty relaunch/recover: so does fctl, and creates the execution.
    await Deno.writeTextFile(file, spec("execFile: other.yaml\ndryRun: false\nrelaunch: ''\nrecover: ''\n"));
    sandbox.requests.length = 0;
    const run = await runFctlProcess(["create", "execution", "--execFile", file, ...endpoint]);
    deepEqual([run.code, run.stderr], [0, ""]);
    match(run.stdout, ID_LINE);
    equal(createRequests(sandbox).length, 1);
    // dryRun: true with --dryRun agrees: nothing is created.
    await Deno.writeTextFile(file, spec("dryRun: true\n"));
    const dry = await runFctlProcess(["create", "execution", "--execFile", file, "--dryRun", ...endpoint]);
    equal(dry.code, 0, dry.stderr);
    sandbox.requests.length = 0;
    // flytectl would create the execution a file asking for a dry run names, or run its task instead of relaunching.
    const refusals: [string, string][] = [
      [
        "dryRun: true\n",
        `exec file "${file}": dryRun: true is not applied from an exec file (flytectl ignores it and creates the ` +
        "execution): pass --dryRun for a dry run, or remove the key",
      ],
      [
        "relaunch: f8a1b2c3d4\n",
        `exec file "${file}": relaunch "f8a1b2c3d4" is not applied from an exec file (flytectl ignores it and runs ` +
        `the file's task or launch plan): pass --relaunch "f8a1b2c3d4" instead, or remove the key`,
      ],
    ];
    for (const [extra, message] of refusals) {
      await Deno.writeTextFile(file, spec(extra));
      const refused = await runFctlProcess(["create", "execution", "--execFile", file, ...endpoint]);
      deepEqual([refused.code, refused.stdout, refused.stderr], [2, "", `Error: ${message}\n`]);
    }
    deepEqual(createRequests(sandbox), []);
  });
});

Deno.test("create execution: a required input left out is one line naming it, exit 2, nothing created (--dryRun too)", async () => {
  await withCore(async (sandbox, endpoint, dir) => {
    const file = `${dir}/missing.yaml`;
    // The launch plan defaults `am` only: `day_of_week` and `number` are required, as FlyteAdmin's expected inputs say.
    const cases: [string, string][] = [
      [
        `workflow: ${LAUNCH_PLAN}\ninputs:\n  number: 3\n`,
        `Error: inputs.day_of_week: required input not set: launch plan "${LAUNCH_PLAN}" version v1 has no default ` +
        `for it; give it a value in "${file}"`,
      ],
      [
        `workflow: ${LAUNCH_PLAN}\ninputs: {}\n`,
        `Error: inputs: required inputs not set: day_of_week, number: launch plan "${LAUNCH_PLAN}" version v1 has no ` +
        `default for them; give them values in "${file}"`,
      ],
      [
        `task: ${TASK}\ninputs:\n  am: true\n  day_of_week: Monday\n`,
        `Error: inputs.number: required input not set: every input of task "${TASK}" version v1 is required; give it ` +
        `a value in "${file}"`,
      ],
    ];
    for (const [text, line] of cases) {
      await Deno.writeTextFile(file, text);
      for (const dryRun of [[], ["--dryRun"]]) {
        sandbox.requests.length = 0;
        const run = await runFctlProcess(["create", "execution", "--execFile", file, ...endpoint, ...dryRun]);
        equal(run.code, 2, `${text}: ${run.stderr}`);
        deepEqual(run.stderr.trim().split("\n"), [line]);
        equal(run.stdout, "");
        deepEqual(createRequests(sandbox), [], text);
      }
    }
    equal(sandbox.store.executions.summaries().length, 0);
  });
});

Deno.test("create execution: a name FlyteAdmin refuses is one line before any call, exit 2 (relaunch, recover, --dryRun)", async () => {
  await withCore(async (sandbox, endpoint, dir) => {
    const file = `${dir}/spec.yaml`;
    await Deno.writeTextFile(file, `workflow: ${LAUNCH_PLAN}\ninputs:\n  number: 3\n  day_of_week: Monday\n`);
    const rule = 'a letter, then letters, digits and "-", at most 63 characters (FlyteAdmin\'s execution names)';
    const long = "a".repeat(64);
    const cases: [string[], string][] = [
      [["Bad_Name", "--execFile", file], `Error: invalid execution name "Bad_Name": expected ${rule}`],
      [["1abc", "--execFile", file, "--dryRun"], `Error: invalid execution name "1abc": expected ${rule}`],
      [[long, "--execFile", file], `Error: invalid execution name "${long}": expected ${rule}`],
      [["ünï", "--relaunch", "first"], `Error: invalid execution name "ünï": expected ${rule}`],
      [["a.b", "--recover", "first"], `Error: invalid execution name "a.b": expected ${rule}`],
    ];
    for (const [args, line] of cases) {
      sandbox.requests.length = 0;
      const run = await runFctlProcess(["create", "execution", ...args, ...endpoint]);
      deepEqual([run.code, run.stdout, run.stderr], [2, "", `${line}\n`], args.join(" "));
      deepEqual(sandbox.requests, [], args.join(" "));
    }
    // FlyteAdmin checks the name lowercased: capitals pass.
    const capitals = await runFctlProcess(["create", "execution", "Run-1", "--execFile", file, ...endpoint]);
    equal(capitals.code, 0, capitals.stderr);
    equal(capitals.stdout, 'execution identifier project:"flytesnacks" domain:"development" name:"Run-1"\n');
  });
});

Deno.test("create execution: a name already taken is one line naming it, exit 1 (spec file, relaunch, recover)", async () => {
  await withCore(async (sandbox, endpoint, dir) => {
    const file = `${dir}/spec.yaml`;
    await Deno.writeTextFile(
      file,
      `workflow: ${LAUNCH_PLAN}\nversion: v1\ninputs:\n  number: 3\n  day_of_week: Monday\n`,
    );
    equal((await runFctlProcess(["create", "execution", "taken", "--execFile", file, ...endpoint])).code, 0);
    const line =
      'Error: execution "taken" already exists in project "flytesnacks", domain "development": give the new ' +
      "one another name, or none for the admin to choose one";
    for (const args of [["--execFile", file], ["--relaunch", "taken"], ["--recover", "taken"]]) {
      const run = await runFctlProcess(["create", "execution", "taken", ...args, ...endpoint]);
      deepEqual([run.code, run.stdout, run.stderr], [1, "", `${line}\n`], args.join(" "));
    }
    equal(sandbox.store.executions.summaries().length, 1);
  });
});

Deno.test("create execution --relaunch|--recover of an execution that does not exist: one line naming it, exit 1", async () => {
  await withCore(async (_sandbox, endpoint) => {
    for (const flag of ["--relaunch", "--recover"]) {
      const run = await runFctlProcess(["create", "execution", flag, "nope", ...endpoint]);
      const verb = flag.slice(2);
      deepEqual([run.code, run.stdout, run.stderr], [
        1,
        "",
        `Error: cannot ${verb}: execution "nope" not found in project "flytesnacks", domain "development"\n`,
      ], flag);
    }
  });
});

Deno.test("create execution: a spec file of two YAML documents, or nested past the parser, is one line saying so", async () => {
  await withCore(async (sandbox, endpoint, dir) => {
    const file = `${dir}/two.yaml`;
    await Deno.writeTextFile(file, `task: ${TASK}\n---\ntask: other\n`);
    const run = await runFctlProcess(["create", "execution", "--execFile", file, ...endpoint]);
    deepEqual([run.code, run.stdout, run.stderr], [
      2,
      "",
      `Error: exec file "${file}" is not valid YAML: a second document starts at line 2, column 1; an exec file is ` +
      "one document\n",
    ]);
    deepEqual(sandbox.requests, []);
    // Nesting too deep for the YAML parser itself: said so, not as the parser's stack overflow.
    await Deno.writeTextFile(file, `task: ${TASK}\ninputs:\n  x: ${"[".repeat(20000)}${"]".repeat(20000)}\n`);
    const deep = await runFctlProcess(["create", "execution", "--execFile", file, ...endpoint]);
    equal(deep.code, 2, deep.stderr);
    match(deep.stderr, /^Error: exec file ".*" is not valid YAML: nested too deeply at line 3, column \d+\n$/);
  });
});

Deno.test('create execution: null (or nothing) for an enum input is its first value, for a string input "", as flytectl', async () => {
  await withCore(async (sandbox, endpoint, dir) => {
    const colour = { type: { case: "enumType" as const, value: { values: ["RED", "GREEN"] } } };
    const text = simple(SimpleType.STRING);
    await registerTask(sandbox, "test.enum_task", "e1", {
      colour: { type: colour, description: "colour" },
      label: { type: text, description: "label" },
    });
    const cases: [string, string, Record<string, Literal>][] = [
      ["null-values", "colour: null\n  label: null", { colour: str("RED"), label: str("") }],
      ["empty-values", "colour:\n  label:", { colour: str("RED"), label: str("") }],
      ["given", "colour: GREEN\n  label: x", { colour: str("GREEN"), label: str("x") }],
    ];
    for (const [name, inputs, expected] of cases) {
      const file = `${dir}/${name}.yaml`;
      await Deno.writeTextFile(file, `task: test.enum_task\nversion: e1\ninputs:\n  ${inputs}\n`);
      const run = await runFctlProcess(["create", "execution", name, "--execFile", file, ...endpoint]);
      equal(run.code, 0, run.stderr);
      sameLiterals(await storedInputs(sandbox, name), expected);
    }
  });
});

Deno.test("create execution: an input the launch plan fixes is refused saying it is fixed, exit 2, nothing created", async () => {
  await withCore(async (sandbox, endpoint, dir) => {
    const file = `${dir}/fixed.yaml`;
    await Deno.writeTextFile(file, "workflow: morning_greeting\ninputs:\n  day_of_week: Monday\n  am: false\n");
    const run = await runFctlProcess(["create", "execution", "--execFile", file, ...endpoint]);
    deepEqual([run.code, run.stdout, run.stderr], [
      2,
      "",
      'Error: inputs.am: fixed by launch plan "morning_greeting" version v1, it cannot be set; valid inputs: ' +
      "day_of_week, number\n",
    ]);
    deepEqual(createRequests(sandbox), []);
  });
});

Deno.test("create execution --task|--workflow: flytectl's flags name what runs, over the file's task or workflow", async () => {
  await withCore(async (sandbox, endpoint, dir) => {
    const file = `${dir}/spec.yaml`;
    await Deno.writeTextFile(file, `task: ${TASK}\ninputs:\n  am: true\n  day_of_week: Monday\n  number: 1\n`);
    const ran = async (flags: string[]) => {
      sandbox.requests.length = 0;
      const run = await runFctlProcess(["create", "execution", "--execFile", file, ...flags, ...endpoint]);
      equal(run.code, 0, run.stderr);
      const [request] = createRequests(sandbox) as { spec: { launchPlan: JsonValue } }[];
      return request.spec.launchPlan;
    };
    const id = (resourceType: string, name: string) => ({
      resourceType,
      project: "flytesnacks",
      domain: "development",
      name,
      version: "v1",
    });
    deepEqual(await ran(["--workflow", LAUNCH_PLAN]), id("LAUNCH_PLAN", LAUNCH_PLAN));
    deepEqual(await ran(["--task", TASK]), id("TASK", TASK));
    await Deno.writeTextFile(
      file,
      `workflow: ${LAUNCH_PLAN}\ninputs:\n  am: false\n  day_of_week: Monday\n  number: 1\n`,
    );
    deepEqual(await ran(["--task", TASK, "--version", "v1"]), id("TASK", TASK));
    const cases: [string[], string][] = [
      [["--task", TASK, "--workflow", LAUNCH_PLAN], "Error: --task and --workflow both name what runs: give one"],
      [["--task", ""], 'Error: invalid value "" for --task: expected a task name'],
      [["--workflow", ""], 'Error: invalid value "" for --workflow: expected a launch plan name'],
    ];
    for (const [flags, line] of cases) {
      const run = await runFctlProcess(["create", "execution", "--execFile", file, ...flags, ...endpoint]);
      deepEqual([run.code, run.stdout, run.stderr], [2, "", line + "\n"], flags.join(" "));
    }
  });
});

Deno.test("a version holding an escape sequence is shown escaped by --execFile's and create execution's notes", async () => {
  const sandbox = await startSandbox();
  const dir = await Deno.makeTempDir({ prefix: "fctl-create-execution-escape-" });
  try {
    // FlyteAdmin takes any version text; this one would turn a terminal red.
    await registerCore(sandbox, ["v1\x1b[31m"]);
    const endpoint = [...SCOPE, "--admin.endpoint", sandbox.endpoint];
    const file = `${dir}/spec.yaml`;
    const written = await runFctlProcess(["get", "launchplan", LAUNCH_PLAN, "--execFile", file, ...endpoint]);
    equal(written.code, 0, written.stderr);
    equal(written.stderr, `wrote the execution spec of ${LAUNCH_PLAN} version v1\\x1b[31m to ${file}\n`);
    await Deno.writeTextFile(file, `workflow: ${LAUNCH_PLAN}\ninputs:\n  number: 1\n  day_of_week: Monday\n`);
    const run = await runFctlProcess(["create", "execution", "--execFile", file, "--dryRun", ...endpoint]);
    equal(run.code, 0, run.stderr);
    equal(run.stderr, "using version v1\\x1b[31m\n");
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("create execution: an integer input written with an exponent (1e3, 2.5E2) is that whole number, as flytectl reads it", async () => {
  await withCore(async (sandbox, endpoint, dir) => {
    const file = `${dir}/spec.yaml`;
    const spec = (number: string) => `task: ${TASK}\ninputs:\n  am: true\n  day_of_week: Monday\n  number: ${number}\n`;
    for (const [name, number, expected] of [["thousand", "1e3", 1000n], ["quarter", "2.5E2", 250n]] as const) {
      await Deno.writeTextFile(file, spec(number));
      const run = await runFctlProcess(["create", "execution", name, "--execFile", file, ...endpoint]);
      equal(run.code, 0, run.stderr);
      ok(equals(LiteralSchema, (await storedInputs(sandbox, name)).number, int(expected)), number);
    }
    for (
      const [number, line] of [
        ["1.5e0", "Error: inputs.number: 1.5e0 is not an integer"],
        ["1e30", "Error: inputs.number: 1e30 is out of range for an integer"],
      ]
    ) {
      await Deno.writeTextFile(file, spec(number));
      const run = await runFctlProcess(["create", "execution", "--execFile", file, ...endpoint]);
      equal(run.code, 2, run.stderr);
      ok(run.stderr.startsWith(line), run.stderr);
    }
  });
});

Deno.test("create execution: a float input written beyond a float64 (1e400) is refused, .inf is infinity", async () => {
  await withCore(async (sandbox, endpoint, dir) => {
    const float = simple(SimpleType.FLOAT);
    await registerTask(sandbox, "test.float_task", "f1", { x: { type: float, description: "x" } });
    const file = `${dir}/spec.yaml`;
    await Deno.writeTextFile(file, "task: test.float_task\ninputs:\n  x: 1e400\n");
    const run = await runFctlProcess(["create", "execution", "--execFile", file, ...endpoint]);
    deepEqual([run.code, run.stderr], [
      2,
      "Error: inputs.x: 1e400 is not a float (a number such as 1.5, -2e-3 or .inf)\n",
    ]);
    await Deno.writeTextFile(file, "task: test.float_task\ninputs:\n  x: .inf\n");
    const inf = await runFctlProcess(["create", "execution", "--execFile", file, "--dryRun", ...endpoint]);
    equal(inf.code, 0, inf.stderr);
    equal(JSON.parse(inf.stdout).request.inputs.literals.x.scalar.primitive.floatValue, "Infinity");
  });
});

Deno.test("create execution: Ctrl-C while the task is looked up ends the run at once (exit 130), nothing created", async () => {
  await withCore(async (sandbox, endpoint, dir) => {
    await Deno.writeTextFile(`${dir}/spec.yaml`, `task: ${TASK}\nversion: v1\n`);
    // An admin that would take a minute to answer the lookup: Ctrl-C must not wait for it.
    sandbox.setLatency(60_000);
    sandbox.clearRequests();
    const interrupt = new AbortController();
    const started = Date.now();
    const running = runFctl(["create", "execution", "--execFile", `${dir}/spec.yaml`, ...endpoint], {
      signal: interrupt.signal,
    });
    while (!sandbox.requests.some((r) => r.method === "GetTask")) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    interrupt.abort();
    const run = await running;
    equal(run.code, 130, run.stderr);
    equal(run.stderr.trim().split("\n").length, 1, run.stderr);
    ok(Date.now() - started < 30_000, "the lookup was waited out");
    sandbox.setLatency(0);
    equal(sandbox.requests.filter((r) => r.method === "CreateExecution").length, 0);
  });
});

Deno.test("create execution: --storage.allow-local-fallback is refused for an admin not on this machine, before any call", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fctl-cli-test-" });
  try {
    await Deno.writeTextFile(`${dir}/spec.yaml`, `task: ${TASK}\nversion: v1\n`);
    const result = await runFctl([
      ...["create", "execution", ...SCOPE, "--execFile", `${dir}/spec.yaml`],
      ...["--admin.endpoint", "dns:///flyte.example.com:443", "--storage.allow-local-fallback"],
    ]);
    equal(result.code, 2);
    equal(
      result.stderr,
      'Error: storage.allow-local-fallback needs an admin on this machine: admin.endpoint "dns:///flyte.example.com:443" ' +
        "is not a loopback address (localhost, 127.0.0.1, ::1), so its cluster could not read local or mem storage\n",
    );
    equal(result.stdout, "");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("create execution: a local file given as a blob input is uploaded through the data proxy; a directory is refused for it", async () => {
  await withCore(async (sandbox, endpoint, dir) => {
    const blob = { type: { case: "blob", value: { format: "csv", dimensionality: 0 } } };
    await registerTask(sandbox, "test.file_task", "f1", { f: { type: blob, description: "f" } });
    sandbox.uploads.clear(); // the core package's fast-registration archive
    await Deno.writeTextFile(`${dir}/data.csv`, "a,b\n1,2\n");
    const file = `${dir}/spec.yaml`;
    await Deno.writeTextFile(file, `task: test.file_task\ninputs:\n  f: ${dir}/data.csv\n`);
    const run = await runFctlProcess(["create", "execution", "with-file", "--execFile", file, ...endpoint]);
    equal(run.code, 0, run.stderr);
    deepEqual([...sandbox.uploads.values()].map((bytes) => new TextDecoder().decode(bytes)), ["a,b\n1,2\n"]);
    const [uri] = [...sandbox.uploads.keys()];
    match(uri, /^s3:\/\/.*\/data\.csv$/);
    const stored = (await storedInputs(sandbox, "with-file")).f;
    deepEqual(
      stored.value.case === "scalar" && stored.value.value.value.case === "blob" && stored.value.value.value.value.uri,
      uri,
    );
    await Deno.writeTextFile(file, `task: test.file_task\ninputs:\n  f: ${dir}\n`);
    const refused = await runFctlProcess(["create", "execution", "--execFile", file, ...endpoint]);
    equal(refused.code, 2, refused.stderr);
    match(
      refused.stderr,
      /inputs\.f: ".*" is a directory, but the input takes a file \(single blob\); give a file or a remote URI\n$/,
    );
    equal(sandbox.uploads.size, 1);
    equal(sandbox.store.executions.summaries().length, 1);
  });
});

Deno.test("create execution --dryRun checks local blob paths as a run does: a bad one is one line, exit 2", async () => {
  await withCore(async (sandbox, endpoint, dir) => {
    const blob = { type: { case: "blob", value: { format: "csv", dimensionality: 0 } } };
    await registerTask(sandbox, "test.file_task", "f1", { f: { type: blob, description: "f" } });
    sandbox.uploads.clear(); // the core package's fast-registration archive
    const file = `${dir}/spec.yaml`;
    const cases: [string, string][] = [
      [`${dir}/missing.csv`, `Error: inputs.f: cannot upload "${dir}/missing.csv": no such file`],
      [
        dir,
        `Error: inputs.f: "${dir}" is a directory, but the input takes a file (single blob); give a file or a remote URI`,
      ],
    ];
    for (const [path, line] of cases) {
      await Deno.writeTextFile(file, `task: test.file_task\ninputs:\n  f: ${path}\n`);
      const run = await runFctlProcess(["create", "execution", "--execFile", file, "--dryRun", ...endpoint]);
      deepEqual([run.code, run.stdout, run.stderr], [2, "", line + "\n"], path);
    }
    await Deno.writeTextFile(`${dir}/data.csv`, "a,b\n");
    await Deno.writeTextFile(file, `task: test.file_task\ninputs:\n  f: ${dir}/data.csv\n`);
    const good = await runFctlProcess(["create", "execution", "--execFile", file, "--dryRun", ...endpoint]);
    equal(good.code, 0, good.stderr);
    equal(JSON.parse(good.stdout).request.inputs.literals.f.scalar.blob.uri, `${dir}/data.csv`);
    equal(sandbox.uploads.size, 0, "a dry run uploads nothing");
    deepEqual(createRequests(sandbox), []);
  });
});

Deno.test("create execution of a spec file --execFile wrote, its file input left as the placeholder: one line saying so, exit 2", async () => {
  await withCore(async (sandbox, endpoint, dir) => {
    const blob = { type: { case: "blob", value: { format: "csv", dimensionality: 0 } } };
    await registerTask(sandbox, "test.file_task", "f1", { f: { type: blob, description: "f" } });
    const file = `${dir}/spec.yaml`;
    const written = await runFctlProcess(["get", "task", "test.file_task", "--execFile", file, ...endpoint]);
    equal(written.code, 0, written.stderr);
    const run = await runFctlProcess(["create", "execution", "--execFile", file, ...endpoint]);
    deepEqual([run.code, run.stdout, run.stderr], [
      2,
      "",
      'Error: inputs.f: "/tmp/somepath" is the placeholder --execFile writes; give the input\'s remote URI ' +
      "(s3://, gs://, abfs://, flyte://) or a local path to upload\n",
    ]);
    deepEqual(createRequests(sandbox), []);
  });
});

Deno.test("create execution: a mapping for a struct input goes as MessagePack, which the admin takes for a struct", async () => {
  await withCore(async (sandbox, endpoint, dir) => {
    const struct = simple(SimpleType.STRUCT);
    await registerTask(sandbox, "test.struct_task", "s1", { s: { type: struct, description: "s" } });
    const file = `${dir}/spec.yaml`;
    await Deno.writeTextFile(file, "task: test.struct_task\ninputs:\n  s: {a: 1, b: [x]}\n");
    const run = await runFctlProcess(["create", "execution", "mp", "--execFile", file, ...endpoint]);
    equal(run.code, 0, run.stderr);
    const stored = (await storedInputs(sandbox, "mp")).s;
    const binary = stored.value.case === "scalar" && stored.value.value.value.case === "binary"
      ? stored.value.value.value.value
      : undefined;
    equal(binary?.tag, "msgpack");
    deepEqual(decode(binary!.value), { a: 1, b: ["x"] });
  });
});

Deno.test("create execution: FLYTE_USE_OLD_DC_FORMAT=true sends a mapping for a struct input as protobuf Struct", async () => {
  await withCore(async (sandbox, endpoint, dir) => {
    const struct = simple(SimpleType.STRUCT);
    await registerTask(sandbox, "test.struct_task", "s1", { s: { type: struct, description: "s" } });
    const file = `${dir}/spec.yaml`;
    await Deno.writeTextFile(file, "task: test.struct_task\ninputs:\n  s: {a: 1, b: [x]}\n");
    const env = { FLYTE_USE_OLD_DC_FORMAT: "true" };
    const run = await runFctlProcess(["create", "execution", "old", "--execFile", file, ...endpoint], env);
    equal(run.code, 0, run.stderr);
    const stored = (await storedInputs(sandbox, "old")).s;
    const generic = stored.value.case === "scalar" && stored.value.value.value.case === "generic"
      ? stored.value.value.value.value
      : undefined;
    deepEqual(generic, { a: 1, b: ["x"] });
  });
});

Deno.test("create execution: --relaunch, --recover and --dryRun", async () => {
  await withCore(async (sandbox, endpoint, dir) => {
    const file = `${dir}/task.yaml`;
    await Deno.writeTextFile(
      file,
      `task: ${TASK}\nversion: v1\ninputs:\n  number: 2\n  day_of_week: Sunday\n  am: false\n`,
    );
    equal((await runFctl(["create", "execution", "first", "--execFile", file, ...endpoint])).code, 0);
    sandbox.requests.length = 0;
    const dry = await runFctlProcess(["create", "execution", "--execFile", file, ...endpoint, "--dryRun"]);
    equal(dry.code, 0, dry.stderr);
    const printed = JSON.parse(dry.stdout);
    equal(printed.rpc, "CreateExecution");
    equal(printed.request.inputs.literals.number.scalar.primitive.integer, "2");
    deepEqual(sandbox.requests.map((r) => r.method), ["GetTask"]);
    // -o yaml: the same document as YAML.
    const dryYaml = await runFctlProcess([
      "create",
      "execution",
      "--execFile",
      file,
      ...endpoint,
      "--dryRun",
      "-o",
      "yaml",
    ]);
    equal(dryYaml.code, 0, dryYaml.stderr);
    match(dryYaml.stdout, /^rpc: CreateExecution\nrequest:\n/);
    deepEqual((await import("yaml")).parse(dryYaml.stdout), printed);
    const relaunched = await runFctlProcess(["create", "execution", "again", "--relaunch", "first", ...endpoint]);
    equal(relaunched.code, 0, relaunched.stderr);
    equal(relaunched.stdout, 'execution identifier project:"flytesnacks" domain:"development" name:"again"\n');
    const recovered = await runFctl(["create", "execution", "--recover", "first", ...endpoint, "-o", "yaml"]);
    equal(recovered.code, 0, recovered.stderr);
    match(recovered.stdout, /^project: flytesnacks\ndomain: development\nname: [a-z0-9]+\n$/);
    const sent = (
      method: string,
      schema: typeof ExecutionRelaunchRequestSchema | typeof ExecutionRecoverRequestSchema,
    ) => sandbox.requests.filter((r) => r.method === method).map((r) => toJson(schema, r.request as never));
    const first = { project: "flytesnacks", domain: "development", name: "first" };
    deepEqual(sent("RelaunchExecution", ExecutionRelaunchRequestSchema), [{ id: first, name: "again" }]);
    deepEqual(sent("RecoverExecution", ExecutionRecoverRequestSchema), [{ id: first }]);
    sameLiterals(await storedInputs(sandbox, "again"), await storedInputs(sandbox, "first"));
  });
});

Deno.test("create execution: a fresh process against the production-shaped admin (TLS, OAuth)", async () => {
  const sandbox = await startSandbox({ production: true });
  const dir = await Deno.makeTempDir({ prefix: "fctl-create-execution-prod-" });
  try {
    const { fixture } = await import("./helpers.ts");
    const register = ["register", "files", "--archive", fixture("flytesnacks-core.tgz"), "--version", "v1"];
    equal((await runProductionProcess(sandbox, register)).code, 0);
    const file = `${dir}/spec.yaml`;
    await Deno.writeTextFile(file, `workflow: ${LAUNCH_PLAN}\ninputs:\n  number: 7\n  day_of_week: Tuesday\n`);
    const run = await runProductionProcess(sandbox, ["create", "execution", "prod-run", "--execFile", file]);
    equal(run.code, 0, run.stderr);
    equal(run.stdout, 'execution identifier project:"flytesnacks" domain:"development" name:"prod-run"\n');
    equal(run.stderr, "using version v1\n");
    ok(equals(LiteralSchema, (await storedInputs(sandbox, "prod-run")).number, int(7n)));
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});
