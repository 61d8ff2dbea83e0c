/**
 * Every read command in every output format it accepts, as fresh fctl processes against one populated sandbox: the
 * flytesnacks core package registered at two versions, a second project with nothing in it, an archived project,
 * and executions driven by the sandbox's clock to SUCCEEDED, FAILED and still RUNNING, of workflows with task nodes,
 * sub-workflows and branches. Each case is generated from the command's naming forms and formats and checked for
 * what its format promises: JSON parses (an array for a list, an object for one), YAML to the same data, a table
 * has its header and one row per item of the JSON, a graph is DOT, one URL or SVG; an unsupported format is one
 * usage line, exit 2.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { parse as parseYaml } from "yaml";
import { LaunchPlanState } from "../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import { ResourceType } from "../proto/gen/flyteidl/core/identifier_pb.ts";
import { startSandbox } from "../src/sandbox/mod.ts";
import { collection, int, type LiteralInit, str } from "../src/_test_literals.ts";
import { runFctlProcess, type RunResult } from "./helpers.ts";
import {
  CORE_WORKFLOW,
  createScheduledCopies,
  registerCore,
  seedProjects,
  startCoreExecutions,
  withFullAdmin,
} from "./entity_fixtures.ts";

/** What the output of a case is: a listing, one entity, or an execution's node tree. */
type Shape = "list" | "one" | "tree";

/** One naming form of a read command: its arguments (after `get`) and what it prints. */
interface Form {
  args: string[];
  shape: Shape;
  /** Whether it draws a graph too (`-o dot|doturl|svg`: one workflow). */
  graph?: boolean;
}

/** A case's label, for assertion messages. */
const label = (args: readonly string[]) => `fctl get ${args.join(" ")}`;

const START = Date.parse("2026-03-01T00:00:00Z");
const SUBWORKFLOWS = "core.control_flow.subworkflows.nested_parent_wf";
const BRANCHES = "core.control_flow.run_merge_sort.merge_sort";
const SCHEDULED = "morning_greeting";
const TASK = "core.flyte_basics.basic_workflow.t1";

/** Runs `jobs` at most `width` at a time (2 cores: fresh processes overlap their start-up with the others' calls). */
async function inPool<T>(jobs: (() => Promise<T>)[], width: number): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  }));
  return results;
}

/**
 * The rows a piped table shows, each as its cells' first lines by header: the rules are the top, the one under the
 * header, and one under each row; the count after the table says as many.
 */
function tableRows(stdout: string, what: string): Record<string, string>[] {
  const lines = stdout.split("\n");
  const rule = lines[0];
  match(rule, /^ (-+ )+$/, `${what}: a table starts with a rule\n${stdout}`);
  match(lines[1], /^\| [A-Z]/, `${what}: a header line\n${stdout}`);
  const cells = (line: string) => line.slice(2, -2).split(" | ").map((cell) => cell.trim());
  const headers = cells(lines[1]);
  const rows = lines.flatMap((line, i) => i > 2 && lines[i - 1] === rule && line.startsWith("| ") ? [line] : [])
    .map((line) => Object.fromEntries(cells(line).map((cell, i) => [headers[i], cell])));
  equal(lines.filter((line) => line === rule).length, rows.length + 2, `${what}: a rule under each row\n${stdout}`);
  const count = /^(\d+) rows?$/m.exec(stdout);
  ok(count, `${what}: the row count after the table\n${stdout}`);
  equal(Number(count[1]), rows.length, `${what}: the count says as many rows as the table draws\n${stdout}`);
  return rows;
}

/** An item of a JSON listing as a table row identifies it: NAME, VERSION, or a project's ID. */
function rowKey(item: { id?: string | { name?: string; version?: string } }): Record<string, string> {
  if (typeof item.id === "string") return { ID: item.id };
  return { NAME: item.id?.name ?? "", ...item.id?.version ? { VERSION: item.id.version } : {} };
}

/** The top-level nodes a `--details` text tree shows: one unindented `<node> - <PHASE>` line each. */
function treeNodes(stdout: string): string[] {
  return stdout.split("\n").filter((line) => /^\S+ - [A-Z_]+/.test(line)).map((line) => line.split(" ")[0]);
}

/** Checks one form's JSON, YAML and TABLE (and graph) outputs against each other. */
function checkForm(form: Form, results: Record<string, RunResult>): void {
  const what = label(form.args);
  for (const [format, result] of Object.entries(results)) {
    equal(result.code, 0, `${what} -o ${format}: ${result.stderr}`);
    equal(result.stderr, "", `${what} -o ${format}: nothing on stderr`);
    match(result.stdout, /[^\n]\n$/, `${what} -o ${format}: ends its last line, once`);
  }
  const json = JSON.parse(results.json.stdout);
  if (form.shape === "one") ok(json && typeof json === "object" && !Array.isArray(json), `${what}: an object`);
  else ok(Array.isArray(json), `${what}: an array`);
  // A generic (YAML 1.2) reader and a Go/viper (YAML 1.1) one read the JSON's data.
  deepEqual(parseYaml(results.yaml.stdout), json, `${what} -o yaml (1.2) is the JSON's data`);
  deepEqual(parseYaml(results.yaml.stdout, { version: "1.1" }), json, `${what} -o yaml (1.1) is the JSON's data`);
  const items = form.shape === "one" ? [json] : json;
  for (const format of ["table", "table --wide"]) {
    const table = results[format];
    if (!table) continue;
    if (form.shape === "tree") {
      deepEqual(
        treeNodes(table.stdout),
        json.map((node: { node_exec: { id: { nodeId: string } } }) => node.node_exec.id.nodeId),
        `${what}: the text tree shows the JSON's nodes\n${table.stdout}`,
      );
    } else {
      // One row per item of the JSON, the same items in the same order.
      const rows = tableRows(table.stdout, `${what} ${format}`);
      deepEqual(
        rows.map((row, i) => Object.fromEntries(Object.keys(rowKey(items[i] ?? {})).map((key) => [key, row[key]]))),
        items.map(rowKey),
        `${what} ${format}: one row per item\n${table.stdout}`,
      );
    }
  }
  if (results.dot) match(results.dot.stdout, /^strict digraph /, `${what} -o dot`);
  if (results.doturl) match(results.doturl.stdout, /^https?:\/\/\S+\n$/, `${what} -o doturl: one URL line`);
  if (results.svg) {
    match(results.svg.stdout, /^(<\?xml|<svg)/, `${what} -o svg`);
    match(results.svg.stdout, /<\/svg>\s*$/, `${what} -o svg ends its drawing`);
  }
}

/**
 * The formats a form is run in: `-o` values, and `table --wide` for a command's first form (piped, a table is
 * already whole: the flag is only to be taken).
 */
function formatsOf(form: Form, first: boolean): string[] {
  return ["json", "yaml", "table", ...first ? ["table --wide"] : [], ...form.graph ? GRAPHS : []];
}

const GRAPHS = ["dot", "doturl", "svg"];

Deno.test("every read command, naming form and output format prints what it promises on a populated admin", async () => {
  let ms = START;
  const sandbox = await startSandbox({ now: () => new Date(ms) });
  try {
    await registerCore(sandbox, ["v1", "v2"]);
    await seedProjects(sandbox, [
      { id: "second", name: "Second", description: "nothing in it" },
      { id: "retired", name: "Retired", description: "archived", archived: true },
    ]);
    const plans = sandbox.store.executions;
    plans.plan({ execution: "good" }, { startAfter: 1000, after: 63_000 });
    plans.plan({ execution: "bad" }, { outcome: "FAILED", after: 4000, message: "OOMKilled", attempts: 2 });
    plans.plan({ execution: "running" }, { outcome: "never" });
    plans.plan({ execution: "stopped" }, { outcome: "never" });
    plans.plan({ execution: "queued" }, { startAfter: 3_600_000, after: 3_600_000 });
    // Inputs a YAML reader could take for another type, and the largest int64, which must print whole.
    const inputs: Record<string, [bigint, string]> = {
      good: [3n, "yes"],
      bad: [9223372036854775807n, "2026-03-01"],
      running: [-9223372036854775808n, "1_000"],
      stopped: [0n, "~"],
      queued: [1n, "010"],
    };
    for (const [name, [a, b]] of Object.entries(inputs)) {
      await startCoreExecutions(sandbox, [name], { inputs: { a: int(a), b: str(b) } });
    }
    // Sub-workflows, a branch, a dynamic workflow, a map task, and outputs of a schema, custom types and named tuples.
    const others: [string, string, Record<string, LiteralInit>][] = [
      ["nested", SUBWORKFLOWS, { a: int(3) }],
      ["sorted", BRANCHES, {
        numbers: collection(int(3), int(1), int(2)),
        numbers_count: int(3),
        run_local_at_count: int(5),
      }],
      ["dynamic", "core.control_flow.dynamics.wf", { s1: str("Flyte"), s2: str("flight") }],
      ["mapped", "core.control_flow.map_task.my_map_workflow", { a: collection(int(1), int(2)) }],
      ["schema", "core.type_system.schema.df_wf", { a: int(42) }],
      ["custom", "core.extend_flyte.run_custom_types.wf", {}],
      ["named", "core.flyte_basics.named_outputs.my_wf", {}],
    ];
    for (const [name, launchPlan, inputs] of others) await startCoreExecutions(sandbox, [name], { launchPlan, inputs });
    await withFullAdmin(sandbox, async (admin) => {
      const id = { project: "flytesnacks", domain: "development" };
      // Text a table must keep on one line and YAML must quote: a line break, a colon, a YAML 1.1 boolean.
      await admin.registerProject({
        project: {
          id: "labelled",
          name: "yes",
          description: "",
          labels: { values: { team: "no", cost: "010", since: "2026-03-01" } },
        },
      });
      await admin.updateNamedEntity({
        resourceType: ResourceType.WORKFLOW,
        id: { ...id, name: CORE_WORKFLOW },
        metadata: { description: "adds: a and b\nthen greets\tyes" },
      });
      await admin.terminateExecution({ id: { ...id, name: "stopped" }, cause: "stopped by the test" });
      // Launch plans with a schedule, active: the package's own have none.
      const lp = { ...id, resourceType: ResourceType.LAUNCH_PLAN, name: CORE_WORKFLOW, version: "v1" };
      await admin.updateLaunchPlan({ id: lp, state: LaunchPlanState.ACTIVE });
      await createScheduledCopies(admin, lp, true);
    });
    ms += 600_000;

    // In flytesnacks/development unless the case names its project.
    const run = (args: string[]) =>
      runFctlProcess([
        ...args,
        ...args.includes("-p") ? [] : ["-p", "flytesnacks"],
        ...["-d", "development", "--admin.endpoint", sandbox.endpoint],
      ]);
    const paging = ["--filter.limit", "2", "--filter.page", "2"];
    const forms: Form[] = [];
    for (const kind of ["task", "workflow", "launchplan"]) {
      const name = kind === "task" ? TASK : CORE_WORKFLOW;
      const graph = kind === "workflow";
      forms.push(
        { args: [kind], shape: "list" },
        { args: [kind, ...paging], shape: "list" },
        { args: [kind, name], shape: "list", graph },
        { args: [kind, name, "--latest"], shape: "one", graph },
        { args: [kind, name, "--version", "v1"], shape: "one", graph },
        { args: [kind, name, "--filter.limit", "1", "--filter.page", "2"], shape: "list" },
      );
      // A version without a name filters the listing (a workflow's is refused below).
      if (kind !== "workflow") forms.push({ args: [kind, "--version", "v1"], shape: "list" });
    }
    forms.push(
      { args: ["workflow", SUBWORKFLOWS, "--latest"], shape: "one", graph: true },
      { args: ["workflow", BRANCHES, "--latest"], shape: "one", graph: true },
      { args: ["launchplan", "--workflow", CORE_WORKFLOW], shape: "list" },
      { args: ["launchplan", SCHEDULED, "--latest"], shape: "one" },
      { args: ["launchplan", "cron_lp", "--latest"], shape: "one" },
      { args: ["launchplan", "rate_lp", "--version", "v1"], shape: "one" },
      { args: ["execution"], shape: "list" },
      { args: ["execution", ...paging], shape: "list" },
      { args: ["project"], shape: "list" },
      { args: ["project", "--filter.limit", "1", "--filter.page", "2"], shape: "list" },
      { args: ["project", "labelled"], shape: "one" },
      { args: ["project", "--archived"], shape: "list" },
      { args: ["project", "flytesnacks"], shape: "one" },
      { args: ["project", "retired"], shape: "one" },
      // Empty listings: a project with nothing in it, and projects no filter matches.
      ...["task", "workflow", "launchplan", "execution"].map((kind): Form => ({
        args: [kind, "-p", "second"],
        shape: "list",
      })),
      { args: ["project", "--filter.fieldSelector", "name=nothing"], shape: "list" },
    );
    const executions = [...Object.keys(inputs), ...others.map(([name]) => name)];
    for (const name of executions) {
      forms.push({ args: ["execution", name], shape: "one" });
      if (name !== "queued") forms.push({ args: ["execution", name, "--details"], shape: "tree" });
    }
    // Each execution's node tree names the nodes `--nodeID` reads: the start node (no task executions), a node with
    // nodes below it and the first of those where there is one, else the last.
    const trees = await inPool(
      executions.map((name) => () => run(["get", "execution", name, "--details", "-o", "json"])),
      3,
    );
    executions.forEach((name, i) => {
      equal(trees[i].code, 0, trees[i].stderr);
      if (name === "queued") return;
      const nodes: { node_exec: { id: { nodeId: string } }; child_nodes?: unknown[] }[] = JSON.parse(trees[i].stdout);
      ok(nodes.length > 0, `${name} has nodes`);
      const parent = nodes.find((node) => node.child_nodes?.length) ?? nodes[nodes.length - 1];
      const child = (parent.child_nodes as typeof nodes | undefined)?.[0];
      for (
        const node of new Set([
          "start-node",
          parent.node_exec.id.nodeId,
          (child ?? nodes[nodes.length - 1]).node_exec.id.nodeId,
        ])
      ) {
        forms.push({ args: ["execution", name, "--details", "--nodeID", node], shape: "tree" });
      }
    });

    const jobs = forms.flatMap((form, i) =>
      formatsOf(
        form,
        !forms.slice(0, i).some((earlier) => earlier.args[0] === form.args[0] && earlier.shape === form.shape),
      ).map((format) => async () => {
        const [output, ...rest] = format.split(" ");
        return [form, format, await run(["get", ...form.args, "-o", output, ...rest])] as const;
      })
    );
    // Unsupported: a graph of anything but one workflow.
    const refused = [
      // A graph is of one workflow: of no other entity, nor of a listing of workflow names.
      ...[
        ["task"],
        ["launchplan"],
        ["execution"],
        ["project"],
        ["workflow"],
        ["task", TASK],
        ["launchplan", CORE_WORKFLOW, "--latest"],
        ["execution", "good"],
        ["execution", "good", "--details"],
        ["project", "flytesnacks"],
      ].flatMap((args) => GRAPHS.map((format) => [args, format] as const)),
      // A version or the newest of nothing named.
      ...["task", "workflow", "launchplan"].map((kind) => [[kind, "--latest"], "json"] as const),
      [["workflow", "--version", "v1"], "yaml"] as const,
    ].map(([args, format]) => async () => [args, format, await run(["get", ...args, "-o", format])] as const);
    const [outputs, refusals] = [await inPool(jobs, 3), await inPool(refused, 3)];
    for (const form of forms) {
      const results = Object.fromEntries(
        outputs.filter(([f]) => f === form).map(([, format, result]) => [format, result]),
      );
      checkForm(form, results);
      if (form.args.includes("nothing") || form.args.includes("second")) {
        deepEqual(JSON.parse(results.json.stdout), [], `${label(form.args)} is empty`);
        equal(results.yaml.stdout, "[]\n", `${label(form.args)} -o yaml is an empty sequence`);
      }
    }
    // An execution with no nodes yet: an empty tree as a document, and as text nothing, saying so on stderr.
    const queued = await Promise.all(
      ["json", "yaml", "table"].map((format) => run(["get", "execution", "queued", "--details", "-o", format])),
    );
    deepEqual(queued.map(({ code, stdout, stderr }) => [code, stdout, stderr]), [
      [0, "[]\n", ""],
      [0, "[]\n", ""],
      [0, "", "execution queued has no nodes yet\n"],
    ]);
    for (const [name, [a]] of Object.entries(inputs)) {
      if (name === "queued") continue;
      for (const [form, format, result] of outputs) {
        if (form.args[1] !== name || form.args[2] !== "--details" || form.args.length !== 3) continue;
        ok(result.stdout.includes(`${a}`), `${label(form.args)} -o ${format} shows ${a} whole\n${result.stdout}`);
      }
    }
    for (const [args, format, result] of refusals) {
      const what = `${label(args)} -o ${format}`;
      deepEqual([result.code, result.stdout], [2, ""], `${what}: ${result.stderr}`);
      match(result.stderr, /^Error: [^\n]*\n$/, `${what}: one usage line`);
    }
  } finally {
    await sandbox.close();
  }
});
