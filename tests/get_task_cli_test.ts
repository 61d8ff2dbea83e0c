import { deepEqual, equal, match, ok as assert } from "node:assert/strict";
import { createAdminClient } from "../src/admin/client.ts";
import { startSandbox } from "../src/sandbox/mod.ts";
import { SimpleType } from "../proto/gen/flyteidl/core/types_pb.ts";
import { runFctl, runFctlProcess } from "./helpers.ts";
import { CORE_WORKFLOW, registerCore } from "./entity_fixtures.ts";
import { seedTasks, type TestTask } from "./task_fixtures.ts";

const TASKS: TestTask[] = [
  {
    name: "core.basic.hello",
    version: "v1",
    inputs: { name: { type: SimpleType.STRING } },
    outputs: { o0: { type: SimpleType.STRING, description: "greeting" } },
  },
  {
    name: "core.basic.hello",
    version: "v2",
    inputs: { name: { type: SimpleType.STRING }, times: { type: SimpleType.INTEGER, description: "repeat count" } },
    outputs: { o0: { type: SimpleType.STRING, description: "greeting" } },
    discoverable: true,
    discoveryVersion: "1.0",
  },
  { name: "core.basic.add", version: "v1", inputs: { a: { type: SimpleType.INTEGER } } },
];

async function withSandbox(
  fn: (endpoint: string, requests: () => { method: string; request: unknown }[]) => Promise<void>,
) {
  const sandbox = await startSandbox();
  const client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
  try {
    await seedTasks(client, TASKS);
    sandbox.clearRequests();
    await fn(sandbox.endpoint, () => sandbox.requests);
  } finally {
    client.close();
    await sandbox.close();
  }
}

const scope = (endpoint: string) => ["-p", "flytesnacks", "-d", "development", "--admin.endpoint", endpoint];

Deno.test("get task lists every task as a table, newest first", async () => {
  await withSandbox(async (endpoint, requests) => {
    const { code, stdout, stderr } = await runFctl(["get", "task", ...scope(endpoint)]);
    equal(stderr, "");
    equal(code, 0);
    const lines = stdout.split("\n");
    match(
      lines[1],
      /^\| VERSION \| NAME\s+\| TYPE\s+\| INPUTS\s+\| OUTPUTS\s+\| DISCOVERABLE \| DISCOVERY VERSION \| CREATED AT\s+\|$/,
    );
    const nameOrder = [...stdout.matchAll(/^\| (v\d) +\| (\S+)/gm)].map((m) => `${m[2]}@${m[1]}`);
    deepEqual(nameOrder, ["core.basic.add@v1", "core.basic.hello@v2", "core.basic.hello@v1"]);
    assert(stdout.includes("| times: repeat count"), "multi-line inputs with descriptions");
    assert(stdout.includes("| true         | 1.0"), "discoverable column prints true");
    assert(stdout.endsWith("3 rows\n"));
    assert(!stdout.includes("\x1b["), "no escape codes when piped");
    const [list] = requests();
    equal(list.method, "ListTasks");
    const request = list.request as {
      id: { project: string; domain: string; name: string };
      limit: number;
      token: string;
      sortBy: { key: string; direction: number };
      filters: string;
    };
    deepEqual(
      {
        project: request.id.project,
        domain: request.id.domain,
        name: request.id.name,
        limit: request.limit,
        token: request.token,
        key: request.sortBy.key,
        direction: request.sortBy.direction,
        filters: request.filters,
      },
      {
        project: "flytesnacks",
        domain: "development",
        name: "",
        limit: 100,
        token: "",
        key: "created_at",
        direction: 0,
        filters: "",
      },
    );
  });
});

Deno.test("get task accepts global flags after the subcommand and the `tasks` shorthand", async () => {
  await withSandbox(async (endpoint) => {
    const before = await runFctl([...scope(endpoint), "get", "tasks", "core.basic.hello"]);
    const after = await runFctl(["tasks", "core.basic.hello", ...scope(endpoint)]);
    equal(before.code, 0, before.stderr);
    equal(after.stdout, before.stdout);
    assert(before.stdout.endsWith("2 rows\n"));
  });
});

Deno.test("get task --version reads one version with GetTask and prints one JSON object", async () => {
  await withSandbox(async (endpoint, requests) => {
    const { code, stdout, stderr } = await runFctl([
      "get",
      "task",
      "core.basic.hello",
      "--version",
      "v1",
      "-o",
      "json",
      ...scope(endpoint),
    ]);
    equal(code, 0, stderr);
    const doc = JSON.parse(stdout);
    deepEqual(doc.id, {
      resourceType: "TASK",
      project: "flytesnacks",
      domain: "development",
      name: "core.basic.hello",
      version: "v1",
    });
    equal(requests()[0].method, "GetTask");
  });
});

Deno.test("get task --latest prints the newest version; listings are JSON arrays and YAML lists", async () => {
  await withSandbox(async (endpoint) => {
    const latest = await runFctl([
      "get",
      "task",
      "core.basic.hello",
      "--latest",
      "--version",
      "v1",
      "-o",
      "JSON",
      ...scope(endpoint),
    ]);
    equal(latest.code, 0, latest.stderr);
    equal(JSON.parse(latest.stdout).id.version, "v2");
    const list = await runFctl(["get", "task", "core.basic.hello", "-o", "json", ...scope(endpoint)]);
    equal(JSON.parse(list.stdout).length, 2);
    const yaml = await runFctl(["get", "task", "core.basic.hello", "-o", "yaml", ...scope(endpoint)]);
    assert(yaml.stdout.startsWith("- id:\n    resourceType: TASK\n"), yaml.stdout.slice(0, 80));
  });
});

Deno.test("get task --version without a name filters the listing", async () => {
  await withSandbox(async (endpoint, requests) => {
    const { code, stdout } = await runFctl(["get", "task", "--version", "v2", "-o", "json", ...scope(endpoint)]);
    equal(code, 0);
    deepEqual(JSON.parse(stdout).map((t: { id: { name: string } }) => t.id.name), ["core.basic.hello"]);
    equal((requests()[0].request as { filters: string }).filters, "eq(task.version,v2)");
  });
});

Deno.test("get task of an unknown name fails naming project, domain and name", async () => {
  await withSandbox(async (endpoint) => {
    const { code, stdout, stderr } = await runFctl(["get", "task", "nope", ...scope(endpoint)]);
    equal(code, 1);
    equal(stdout, "");
    equal(stderr, 'Error: task "nope" not found in project "flytesnacks", domain "development"\n');
  });
});

Deno.test("get task|workflow|launchplan of an unknown version: one line naming it, where, and the newest; exit 1", async () => {
  const sandbox = await startSandbox();
  try {
    await registerCore(sandbox, ["v1", "v2"]);
    const where = 'in project "flytesnacks", domain "development"';
    const newest = `${where}; its newest version is "v2"`;
    const cases = [
      ["task", "core.flyte_basics.lp.greet", `task "core.flyte_basics.lp.greet" has no version "v9" ${newest}`],
      ["workflow", CORE_WORKFLOW, `workflow "${CORE_WORKFLOW}" has no version "v9" ${newest}`],
      ["launchplan", CORE_WORKFLOW, `launch plan "${CORE_WORKFLOW}" has no version "v9" ${newest}`],
      ["task", "nope", `task "nope" not found ${where} (asked for version "v9")`],
    ];
    for (const [kind, name, message] of cases) {
      const { code, stdout, stderr } = await runFctlProcess([
        "get",
        kind,
        name,
        "--version",
        "v9",
        ...scope(sandbox.endpoint),
      ]);
      deepEqual([code, stdout, stderr], [1, "", `Error: ${message}\n`]);
    }
  } finally {
    await sandbox.close();
  }
});

Deno.test("--latest (and get workflow's --version) without a name: one line saying what to give, exit 2, as fresh processes", async () => {
  await withSandbox(async (endpoint, requests) => {
    const cases = [
      ["task", "--latest", "task"],
      ["launchplan", "--latest", "launch plan"],
      ["workflow", "--latest", "workflow"],
      ["workflow", "--version", "workflow"],
    ];
    for (const [kind, flag, noun] of cases) {
      const value = flag === "--version" ? ["v1"] : [];
      const { code, stdout, stderr } = await runFctlProcess(["get", kind, flag, ...value, ...scope(endpoint)]);
      const example = flag === "--version" ? "--version V" : flag;
      deepEqual([code, stdout, stderr], [
        2,
        "",
        `Error: ${flag} needs a ${noun} name: give one (fctl get ${kind} NAME ${example}), or leave ${flag} out to ` +
        "list them all (flytectl ignores it without a name)\n",
      ]);
    }
    deepEqual(requests(), []);
  });
});

Deno.test("an empty listing prints an empty table and exits 0", async () => {
  await withSandbox(async (endpoint) => {
    const { code, stdout } = await runFctl([
      "get",
      "task",
      "-p",
      "other",
      "-d",
      "development",
      "--admin.endpoint",
      endpoint,
    ]);
    equal(code, 0);
    assert(stdout.endsWith("0 rows\n"));
    const json = await runFctl([
      "get",
      "task",
      "-o",
      "json",
      "-p",
      "other",
      "-d",
      "development",
      "--admin.endpoint",
      endpoint,
    ]);
    equal(json.stdout, "[]\n");
  });
});

Deno.test("usage errors fail before any connection with exit 2 and one line", async () => {
  const cases: [string[], RegExp][] = [
    [
      ["get", "task", "-d", "development", "--admin.endpoint", "http://127.0.0.1:1"],
      /^Error: project and domain are required parameters\n$/,
    ],
    [
      ["get", "task", "-p", "p", "-d", "d", "-o", "xml", "--admin.endpoint", "http://127.0.0.1:1"],
      /^Error: invalid value "xml" for --output: expected one of TABLE, JSON, YAML, DOT, DOTURL, SVG \(case-insensitive\)\n$/,
    ],
    [
      ["get", "task", "-p", "p", "-d", "d", "-o", "dot", "--admin.endpoint", "http://127.0.0.1:1"],
      /^Error: visualization is only supported on workflows: -o DOT cannot show this command's output; use TABLE, JSON or YAML\n$/,
    ],
    [
      ["get", "task", "-p", "p", "-d", "d"],
      /^Error: no admin endpoint is configured; set --admin.endpoint, FCTL_ADMIN_ENDPOINT or admin.endpoint in the config file\n$/,
    ],
    [
      ["get", "task", "-p", "p", "-d", "d", "--admin.endpoint", "ftp://x"],
      /^Error: invalid admin endpoint "ftp:\/\/x": unknown scheme "ftp"/,
    ],
    [
      ["get", "task", "--admin.insecure=maybe"],
      /^Error: invalid value "maybe" for --admin.insecure: expected true or false\n$/,
    ],
    [["get", "task", "--nope"], /^Error: unknown option '--nope'\n$/],
    [["register", "examples"], /^Error: project and domain are required parameters\n$/],
  ];
  for (const [args, expected] of cases) {
    const { code, stdout, stderr } = await runFctl(args);
    equal(code, 2, `${args.join(" ")}: ${stderr}`);
    equal(stdout, "");
    match(stderr, expected);
    equal(stderr.trim().split("\n").length, 1, `one line for ${args.join(" ")}`);
  }
});

Deno.test("an unreachable admin service is one line naming the endpoint, exit 1", async () => {
  const { code, stderr } = await runFctl([
    "get",
    "task",
    "-p",
    "p",
    "-d",
    "d",
    "--admin.endpoint",
    "http://127.0.0.1:1",
  ]);
  equal(code, 1);
  match(
    stderr,
    /^Error: connection to http:\/\/127\.0\.0\.1:1 \(insecure: true, auth: none\): ListTasks failed: Unavailable: .*is the admin service running.*\n$/,
  );
});

Deno.test("--help and --version succeed without touching the network", async () => {
  const help = await runFctl(["--help"]);
  equal(help.code, 0);
  assert(help.stdout.includes("Usage: fctl"));
  const version = await runFctl(["--version"]);
  equal(version.code, 0);
  match(version.stdout, /^\d+\.\d+\.\d+\n$/);
  const taskHelp = await runFctl(["get", "task", "--help"]);
  assert(taskHelp.stdout.includes("--latest"));
});

Deno.test("an answer larger than admin.maxMessageSizeBytes fails at once, naming the limit and the option", async () => {
  await withSandbox(async (endpoint, requests) => {
    const { code, stdout, stderr } = await runFctl([
      "get",
      "task",
      ...scope(endpoint),
      "--admin.maxMessageSizeBytes",
      "64",
    ]);
    equal(code, 1);
    equal(stdout, "");
    match(
      stderr,
      /^Error: ListTasks failed: the answer of \d+ bytes is larger than the limit of 64 bytes \(admin\.maxMessageSizeBytes\); raise --admin\.maxMessageSizeBytes, or ask for less \(e\.g\. --filter\.limit\)\n$/,
    );
    // Not retried: the same answer would be as large.
    equal(requests().filter((r) => r.method === "ListTasks").length, 1);
    // The default (32 MiB) reads the same listing.
    equal((await runFctl(["get", "task", ...scope(endpoint)])).code, 0);
  });
});
