/**
 * `get workflow`: the ListNamedEntities, ListWorkflows and GetWorkflow requests it sends (flytectl's, with fctl's
 * fixes), the flytesnacks core package registered and read back, `-o dot|doturl|svg`, and one fresh process against a
 * production admin.
 */
import { deepEqual, equal, match, ok as assert } from "node:assert/strict";
import type {
  NamedEntityListRequest,
  ObjectGetRequest,
  ResourceListRequest,
} from "../proto/gen/flyteidl/admin/common_pb.ts";
import { type Sandbox, startSandbox } from "../src/sandbox/mod.ts";
import { captureIo, runFctl, runFctlProcess } from "./helpers.ts";
import { CORE_WORKFLOW as WF, registerCore, runProductionProcess } from "./entity_fixtures.ts";
import { runCli } from "../src/cli/run.ts";

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

/** A request reduced to what flytectl compatibility is about. */
function calls(sandbox: Sandbox): unknown[] {
  return sandbox.requests.map(({ method, request }) => {
    if (method === "ListNamedEntities") {
      const r = request as NamedEntityListRequest;
      return [
        method,
        r.resourceType,
        r.project,
        r.domain,
        r.limit,
        r.token,
        r.filters,
        r.sortBy?.key,
        r.sortBy?.direction,
      ];
    }
    if (method === "ListWorkflows") {
      const r = request as ResourceListRequest;
      return [method, r.id?.name, r.limit, r.token, r.filters, r.sortBy?.key, r.sortBy?.direction];
    }
    if (method === "GetWorkflow") {
      const id = (request as ObjectGetRequest).id!;
      return [method, id.resourceType, id.project, id.domain, id.name, id.version];
    }
    throw new Error(`unexpected ${method}`);
  });
}

const ASC = 1;
const DESC = 0;
const names = (
  limit = 100,
  token = "",
  filters = "",
  key = "name",
  direction = ASC,
) => ["ListNamedEntities", 2, "flytesnacks", "development", limit, token, filters, key, direction];
const versions = (
  limit = 100,
  token = "",
  filters = "",
  key = "created_at",
  direction = DESC,
) => ["ListWorkflows", WF, limit, token, filters, key, direction];
const get = (version: string) => ["GetWorkflow", 2, "flytesnacks", "development", WF, version];

Deno.test("get workflow sends flytectl's requests: names sorted by name, versions newest first, one version whole", async () => {
  const cases: [string[], unknown[][]][] = [
    [["get", "workflow"], [names()]],
    [["get", "workflows", "--filter.limit", "2", "--filter.page", "3"], [names(2, "4")]],
    [["get", "workflow", "--filter.asc=false"], [names(100, "", "", "name", DESC)]],
    [["get", "workflow", "--filter.sortBy", "project"], [names(100, "", "", "project", DESC)]],
    [["get", "workflow", "--filter.fieldSelector", "name contains basic"], [names(100, "", "contains(name,basic)")]],
    [["get", "workflow", WF], [versions()]],
    [["get", "workflow", WF, "--filter.asc", "--filter.limit", "1"], [versions(1, "", "", "created_at", ASC)]],
    [
      ["get", "workflow", WF, "--filter.fieldSelector", "workflow.version=v1", "--filter.limit", "1"],
      [versions(1, "", "eq(workflow.version,v1)")],
    ],
    [
      ["get", "workflow", WF, "--filter.limit", "1", "--filter.page", "2"],
      [versions(1, "1")],
    ],
    // fctl: --latest is the newest by created_at whatever the sort flags; the listed closure is not whole, so it is read.
    [["get", "workflow", WF, "--latest", "--filter.asc", "--filter.sortBy", "name"], [versions(1), get("v2")]],
    [["get", "workflow", WF, "--latest", "--version", "v1"], [versions(1), get("v2")]],
    [["get", "workflow", WF, "--version", "v1"], [get("v1")]],
    [["get", "workflow", WF, "-o", "dot"], [versions(1), get("v2")]],
    [["get", "workflow", WF, "--version", "v1", "-o", "doturl"], [get("v1")]],
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

Deno.test("get workflow reads back the registered flytesnacks core package", async () => {
  await withCore(async (_sandbox, endpoint) => {
    const all = await runFctl(["get", "workflow", "-o", "json", ...endpoint]);
    equal(all.code, 0, all.stderr);
    const listed = JSON.parse(all.stdout).map((e: { id: { name: string } }) => e.id.name);
    assert(listed.includes(WF), listed.join(" "));
    deepEqual(listed, [...listed].sort(), "names in ascending order");
    const table = await runFctl(["get", "workflow", ...endpoint]);
    match(table.stdout, /\| PROJECT +\| DOMAIN +\| NAME +\| DESCRIPTION \| STATE +\|/);
    match(
      table.stdout,
      new RegExp(`\\| flytesnacks \\| development \\| ${WF.replaceAll(".", "\\.")} +\\| +\\| NAMED_ENTITY_ACTIVE \\|`),
    );
    const history = await runFctl(["get", "workflow", WF, ...endpoint]);
    match(history.stdout, /\| VERSION \| NAME +\| CREATED AT +\|/);
    match(history.stdout, /\| v2 +\|[^\n]*\n[^\n]*\n\| v1 /);
    match(history.stdout, /2 rows\n$/);
    const latest = await runFctl(["get", "workflow", WF, "--latest", ...endpoint]);
    match(latest.stdout, /\| VERSION \| NAME +\| INPUTS \| OUTPUTS \| CREATED AT +\|/);
    match(latest.stdout, /\| v2 +\| core\.flyte_basics\.basic_workflow\.my_wf \| a +\| o0 +\|/);
    const one = JSON.parse(
      (await runFctl(["get", "workflow", WF, "--version", "v1", "-o", "json", ...endpoint])).stdout,
    );
    deepEqual([
      one.id.version,
      Object.keys(one.closure.compiledWorkflow.primary.template.interface.inputs.variables).sort(),
    ], [
      "v1",
      ["a", "b"],
    ]);
    const dot = await runFctl(["get", "workflow", WF, "-o", "dot", ...endpoint]);
    match(dot.stdout, /^strict digraph/);
    // The sandbox compiles as FlyteAdmin does: start and end nodes, and edges from the connections.
    for (const edge of ["n0->n1;", "n1->end_node;", "start_node->n0;", "start_node->n1;"]) {
      assert(dot.stdout.includes(`\t${edge}\n`), `${edge} in\n${dot.stdout}`);
    }
    const url = await runFctl(["get", "workflow", WF, "-o", "doturl", ...endpoint]);
    match(url.stdout, /^http:\/\/graph\.flyte\.org\/#strict%20digraph/);
  });
});

Deno.test("get workflow -o svg as a fresh process: a drawing with every node and every connection", async () => {
  await withCore(async (_sandbox, endpoint) => {
    const one = await runFctl(["get", "workflow", WF, "--latest", "-o", "json", ...endpoint]);
    const primary = JSON.parse(one.stdout).closure.compiledWorkflow.primary;
    const nodes: string[] = primary.template.nodes.map((node: { id: string }) => node.id.replaceAll("-", "_"));
    // The edges drawn: every (from, to) pair of the compiled connections, in either list.
    const edges = new Set<string>();
    const lists = (map: Record<string, { ids: string[] }> | undefined) => Object.entries(map ?? {});
    for (const [to, { ids }] of lists(primary.connections?.upstream)) {
      for (const from of ids) edges.add(`${from}>${to}`);
    }
    for (const [from, { ids }] of lists(primary.connections?.downstream)) {
      for (const to of ids) edges.add(`${from}>${to}`);
    }
    const result = await runFctlProcess(["get", "workflow", WF, "--latest", "-o", "svg", ...endpoint]);
    equal(result.code, 0, result.stderr);
    equal(result.stderr, "");
    match(result.stdout, /^<\?xml[^]*<svg [^]*<\/svg>\n$/);
    const titles = (kind: string) =>
      [...result.stdout.matchAll(new RegExp(`<g id="[^"]+" class="${kind}">\\n<title>([^<]*)</title>`, "g"))]
        .map((m) => m[1]);
    assert(nodes.includes("start_node") && nodes.includes("end_node") && edges.size >= 4, JSON.stringify(primary));
    deepEqual(titles("node").sort(), nodes.sort(), "a node drawn for every node");
    equal(titles("edge").length, edges.size, "an edge drawn for every connection");
  });
});

Deno.test({
  name: "get workflow -o doturl prints the URL, and on a terminal opens it with the browser opener, which may fail",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    await withCore(async (_sandbox, endpoint) => {
      const bin = await Deno.makeTempDir();
      try {
        const opened = `${bin}/opened`;
        // The platform's opener, as the sign-in runs it: xdg-open with a display. This one records the URL, then fails.
        await Deno.writeTextFile(`${bin}/xdg-open`, `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\nexit 3\n`, {
          mode: 0o755,
        });
        const env = { PATH: bin, DISPLAY: ":0" };
        const args = ["get", "workflow", WF, "-o", "doturl", ...endpoint];
        const piped = captureIo({ env });
        equal(await runCli(args, piped), 0, piped.err());
        const url = piped.out();
        match(url, /^http:\/\/graph\.flyte\.org\/#strict%20digraph[^\n]*\n$/);
        await Deno.stat(opened).then(() => assert(false, "opened without a terminal"), () => {});
        const terminal = { ...captureIo({ env }), stdoutIsTerminal: true };
        equal(await runCli(args, terminal), 0, terminal.err());
        deepEqual([terminal.out(), terminal.err()], [url, ""], "the opener's failure costs nothing");
        equal(await Deno.readTextFile(opened), url.trimEnd());
      } finally {
        await Deno.remove(bin, { recursive: true });
      }
    });
  },
});

Deno.test("get workflow: bad input is one usage line before any call; an unknown name is exit 1 naming it", async () => {
  await withCore(async (sandbox, endpoint) => {
    const cases: [string[], string][] = [
      [
        ["--latest"],
        `Error: --latest needs a workflow name: give one (fctl get workflow NAME --latest), or leave --latest out to list them all (flytectl ignores it without a name)`,
      ],
      [
        ["--version", "v1"],
        `Error: --version needs a workflow name: give one (fctl get workflow NAME --version V), or leave --version out to list them all (flytectl ignores it without a name)`,
      ],
      [["--filter.limit", "0"], 'Error: invalid value "0" for --filter.limit: expected a whole number of 1 or more'],
      [
        ["-o", "dot"],
        "Error: visualization is only supported on workflows: -o DOT cannot show this command's output; " +
        "use TABLE, JSON or YAML",
      ],
    ];
    for (const [args, message] of cases) {
      const result = await runFctl(["get", "workflow", ...args, ...endpoint]);
      deepEqual([result.code, result.stdout, result.stderr], [2, "", message + "\n"], args.join(" "));
    }
    deepEqual(sandbox.requests, [], "no request was made");
    const missing = await runFctl(["get", "workflow", "nope", "--latest", ...endpoint]);
    deepEqual([missing.code, missing.stderr], [
      1,
      'Error: workflow "nope" not found in project "flytesnacks", domain "development"\n',
    ]);
  });
});

Deno.test("get workflow|launchplan NAME: a filter or page that leaves out every version says so, not 'not found'", async () => {
  await withCore(async (_sandbox, endpoint) => {
    const where = 'in project "flytesnacks", domain "development"';
    const cases: [string[], string][] = [
      [
        ["workflow", WF, "--filter.fieldSelector", "version=zz"],
        `Error: no version of workflow "${WF}" ${where} matches the filter eq(version,zz)`,
      ],
      [
        ["workflow", WF, "--filter.limit", "1", "--filter.page", "3"],
        `Error: no version of workflow "${WF}" ${where} is on page 3 (1 per page)`,
      ],
      [
        ["launchplan", WF, "--filter.fieldSelector", "version=v1", "--filter.limit", "1", "--filter.page", "2"],
        `Error: no version of launch plan "${WF}" ${where} matching the filter eq(version,v1) is on page 2 (1 per page)`,
      ],
      [
        ["launchplan", WF, "--latest", "--filter.fieldSelector", "version=zz"],
        `Error: no version of launch plan "${WF}" ${where} matches the filter eq(version,zz)`,
      ],
      [["workflow", "nope", "--filter.page", "2"], `Error: workflow "nope" not found ${where}`],
    ];
    for (const [args, line] of cases) {
      const result = await runFctlProcess(["get", ...args, ...endpoint]);
      deepEqual([result.code, result.stdout, result.stderr], [1, "", line + "\n"], args.join(" "));
    }
  });
});

Deno.test("get task|workflow|launchplan|execution: an empty name or --version is a usage line, not every entity", async () => {
  await withCore(async (sandbox, endpoint) => {
    const cases: [string[], string][] = [
      [["task", ""], 'Error: invalid task name "": expected a task name'],
      [["workflow", ""], 'Error: invalid workflow name "": expected a workflow name'],
      [["launchplan", " "], 'Error: invalid launch plan name " ": expected a launch plan name'],
      [["execution", ""], 'Error: invalid execution name "": expected an execution name'],
      [["task", "--version", ""], 'Error: invalid value "" for --version: expected a version'],
      [["workflow", WF, "--version", ""], 'Error: invalid value "" for --version: expected a version'],
      [["launchplan", "--version", ""], 'Error: invalid value "" for --version: expected a version'],
    ];
    for (const [args, line] of cases) {
      const result = await runFctlProcess(["get", ...args, ...endpoint]);
      deepEqual([result.code, result.stdout, result.stderr], [2, "", line + "\n"], args.join(" "));
    }
    deepEqual(sandbox.requests, [], "no request was made");
  });
});

Deno.test("get workflow: a full page tells a terminal there may be more", async () => {
  await withCore(async (sandbox, endpoint) => {
    const io = { ...captureIo(), stderrIsTerminal: true };
    equal(await runCli(["get", "workflow", "--filter.limit", "2", ...endpoint], io), 0);
    equal(io.err(), "a full page: there may be more workflows; add --filter.page 2 for the next\n");
    sandbox.clearRequests();
  });
});

Deno.test("production admin: get workflow as a fresh process (TLS, OAuth client credentials, declared permissions)", async () => {
  const sandbox = await startSandbox({ production: true });
  try {
    await registerCoreProduction(sandbox);
    const result = await runProductionProcess(sandbox, ["get", "workflow", WF, "--latest", "-o", "json"]);
    equal(result.code, 0, result.stderr);
    equal(JSON.parse(result.stdout).id.version, "v1");
    equal(result.stderr, "");
  } finally {
    await sandbox.close();
  }
});

/** The core package registered into a production-shaped sandbox, as a fresh process would (TLS, OAuth). */
async function registerCoreProduction(sandbox: Sandbox): Promise<void> {
  const { fixture } = await import("./helpers.ts");
  const result = await runProductionProcess(sandbox, [
    "register",
    "files",
    "--archive",
    fixture("flytesnacks-core.tgz"),
    "--version",
    "v1",
  ]);
  if (result.code !== 0) throw new Error(result.stderr);
}
