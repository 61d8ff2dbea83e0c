/**
 * `get task` sends exactly the requests flytectl sends, with fctl's fixes, for every flag.
 */
import { deepEqual, equal, match } from "node:assert/strict";
import { runCli } from "../src/cli/run.ts";
import { SimpleType } from "../proto/gen/flyteidl/core/types_pb.ts";
import { captureIo, runFctl } from "./helpers.ts";
import { scope, type TaskCall, taskCalls, type TestTask, withTaskSandbox } from "./task_fixtures.ts";

const TASKS: TestTask[] = [
  { name: "core.basic.hello", version: "v1", inputs: { name: { type: SimpleType.STRING } } },
  { name: "core.basic.hello", version: "v2", inputs: { name: { type: SimpleType.STRING } } },
  { name: "core.basic.add", version: "v1" },
];

function list(overrides: Partial<Extract<TaskCall, { method: "ListTasks" }>> = {}): TaskCall {
  return {
    method: "ListTasks",
    project: "flytesnacks",
    domain: "development",
    name: "",
    limit: 100,
    token: "",
    filters: "",
    sortBy: { key: "created_at", direction: "DESCENDING" },
    ...overrides,
  };
}

Deno.test("every flag combination sends flytectl's request", async () => {
  const cases: [string[], TaskCall][] = [
    [["get", "task"], list()],
    [["get", "tasks", "--filter.limit", "2", "--filter.page", "3"], list({ limit: 2, token: "4" })],
    [["get", "task", "--filter.limit=5", "--filter.page=1"], list({ limit: 5 })],
    [["get", "task", "--filter.page", "2"], list({ token: "100" })],
    [
      ["get", "task", "--filter.sortBy", "name", "--filter.asc"],
      list({ sortBy: { key: "name", direction: "ASCENDING" } }),
    ],
    [["get", "task", "--filter.asc=true"], list({ sortBy: { key: "created_at", direction: "ASCENDING" } })],
    [["get", "task", "--filter.asc=false"], list()],
    [
      ["get", "task", "--filter.fieldSelector", "task.name=core.basic.add,created_at>=2021-05-24T21:43:12.325335Z"],
      list({ filters: "eq(task.name,core.basic.add)+gte(created_at,2021-05-24T21:43:12.325335Z)" }),
    ],
    [
      ["get", "task", "--version", "v1", "--filter.fieldSelector", "task.name contains basic"],
      list({ filters: "contains(task.name,basic)+eq(task.version,v1)" }),
    ],
    [["get", "task", "core.basic.hello"], list({ name: "core.basic.hello" })],
    [
      ["get", "task", "core.basic.hello", "--filter.fieldSelector", "task.version in (v1;v2)", "--filter.limit", "7"],
      list({ name: "core.basic.hello", filters: "value_in(task.version,v1;v2)", limit: 7 }),
    ],
    // fctl: --latest is the newest by created_at whatever the sort flags; it honours the selector.
    [
      [
        "get",
        "task",
        "core.basic.hello",
        "--latest",
        "--filter.asc",
        "--filter.sortBy",
        "name",
        "--filter.page",
        "3",
        "--filter.fieldSelector",
        "task.version!=v9",
      ],
      list({ name: "core.basic.hello", limit: 1, filters: "ne(task.version,v9)" }),
    ],
    [
      ["get", "task", "core.basic.hello", "--latest", "--version", "v1"],
      list({ name: "core.basic.hello", limit: 1 }),
    ],
    [
      ["get", "task", "core.basic.hello", "--version", "v1", "--filter.fieldSelector", "task.name=ignored"],
      {
        method: "GetTask",
        resourceType: 1,
        project: "flytesnacks",
        domain: "development",
        name: "core.basic.hello",
        version: "v1",
      },
    ],
    // Local flags before `task` (cobra allows it) and the root shorthands.
    [
      ["get", "--filter.limit", "3", "--filter.asc", "task"],
      list({
        limit: 3,
        sortBy: { key: "created_at", direction: "ASCENDING" },
      }),
    ],
    [["tasks", "core.basic.add", "--filter.limit", "4"], list({ name: "core.basic.add", limit: 4 })],
    [["task", "--filter.page", "2", "--filter.limit", "1"], list({ limit: 1, token: "1" })],
  ];
  await withTaskSandbox(TASKS, async (sandbox) => {
    for (const [args, expected] of cases) {
      sandbox.clearRequests();
      const { code, stderr } = await runFctl([...args, ...scope(sandbox.endpoint)]);
      equal(code, 0, `${args.join(" ")}: ${stderr}`);
      equal(stderr, "");
      deepEqual(taskCalls(sandbox), [expected], args.join(" "));
    }
  });
});

Deno.test("bad flags are one-line usage errors (exit 2) before any RPC", async () => {
  const cases: [string[], string][] = [
    [["--filter.limit", "0"], 'Error: invalid value "0" for --filter.limit: expected a whole number of 1 or more'],
    [["--filter.limit", "-3"], 'Error: invalid value "-3" for --filter.limit: expected a whole number of 1 or more'],
    [["--filter.limit", "ten"], 'Error: invalid value "ten" for --filter.limit: expected a whole number of 1 or more'],
    [["--filter.page", "0"], 'Error: invalid value "0" for --filter.page: expected a whole number of 1 or more'],
    [["--filter.page=1.5"], 'Error: invalid value "1.5" for --filter.page: expected a whole number of 1 or more'],
    [["--filter.asc=maybe"], 'Error: invalid value "maybe" for --filter.asc: expected true or false'],
    [
      ["--latest"],
      `Error: --latest needs a task name: give one (fctl get task NAME --latest), or leave --latest out to list them all (flytectl ignores it without a name)`,
    ],
    [["--execFile", "spec.yaml"], "Error: --execFile needs a task name"],
    [
      ["--filter.fieldSelector", "hello="],
      'Error: Please add a valid field selector: an empty value in term "hello=" (terms are ' +
      '<field><operator><value> separated by ","; operators: =, !=, >, >=, <, <=, " contains ", " in (a;b)")',
    ],
    [
      ["core.basic.hello", "--filter.fieldSelector", "task.version"],
      'Error: Please add a valid field selector: no operator in term "task.version" (terms are ' +
      '<field><operator><value> separated by ","; operators: =, !=, >, >=, <, <=, " contains ", " in (a;b)")',
    ],
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
    // FlyteAdmin's filter grammar splits on "," and "+": such a value would be misread, so it is never sent.
    [
      ["--filter.fieldSelector", "task.name=a\\,b"],
      'Error: Please add a valid field selector: the value "a,b" contains "," or "+", which FlyteAdmin\'s filters ' +
      'cannot express in term "task.name=a\\\\,b" (terms are <field><operator><value> separated by ","; operators: ' +
      '=, !=, >, >=, <, <=, " contains ", " in (a;b)")',
    ],
    [
      ["--filter.fieldSelector", "task.name=a+b"],
      'Error: Please add a valid field selector: the value "a+b" contains "," or "+", which FlyteAdmin\'s filters ' +
      'cannot express in term "task.name=a+b" (terms are <field><operator><value> separated by ","; operators: ' +
      '=, !=, >, >=, <, <=, " contains ", " in (a;b)")',
    ],
  ];
  await withTaskSandbox(TASKS, async (sandbox) => {
    for (const [args, message] of cases) {
      const { code, stdout, stderr } = await runFctl(["get", "task", ...args, ...scope(sandbox.endpoint)]);
      equal(code, 2, `${args.join(" ")}: ${stderr}`);
      equal(stdout, "");
      equal(stderr, message + "\n");
    }
    deepEqual(sandbox.requests, [], "no request was made");
  });
});

async function runWithTerminalStderr(args: string[]) {
  const io = { ...captureIo(), stderrIsTerminal: true };
  const code = await runCli(args, io);
  return { code, stdout: io.out(), stderr: io.err() };
}

Deno.test("a full page tells a terminal there may be more, and how to get the next page", async () => {
  const MAY_BE_MORE = (page: number) =>
    `a full page: there may be more tasks; add --filter.page ${page} for the next\n`;
  await withTaskSandbox(TASKS, async (sandbox) => {
    const first = await runWithTerminalStderr(["get", "task", "--filter.limit", "2", ...scope(sandbox.endpoint)]);
    equal(first.code, 0);
    equal(first.stderr, MAY_BE_MORE(2));
    const last = await runWithTerminalStderr([
      "get",
      "task",
      "--filter.limit",
      "2",
      "--filter.page",
      "2",
      ...scope(sandbox.endpoint),
    ]);
    equal(last.stderr, "", "a page that is not full is the last: no hint");
    match(last.stdout, /1 row\n$/);
    // The page ends exactly at the last task: FlyteAdmin still gives a next token, and the next page is empty. fctl
    // cannot know without asking for more than the user did, so it says "may".
    const exact = await runWithTerminalStderr(["get", "task", "--filter.limit", "3", ...scope(sandbox.endpoint)]);
    equal(exact.stderr, MAY_BE_MORE(2));
    const next = await runWithTerminalStderr([
      "get",
      "task",
      "--filter.limit",
      "3",
      "--filter.page",
      "2",
      ...scope(sandbox.endpoint),
    ]);
    deepEqual([next.code, next.stderr], [0, ""]);
    match(next.stdout, /0 rows\n$/);
    const piped = await runFctl(["get", "task", "--filter.limit", "2", ...scope(sandbox.endpoint)]);
    equal(piped.stderr, "", "no hint when stderr is not a terminal");
  });
});

Deno.test("--latest picks the newest even with --filter.asc; unknown names fail naming the scope", async () => {
  await withTaskSandbox(TASKS, async (sandbox) => {
    const latest = await runFctl([
      "get",
      "task",
      "core.basic.hello",
      "--latest",
      "--filter.asc",
      "-o",
      "json",
      ...scope(sandbox.endpoint),
    ]);
    equal(latest.code, 0, latest.stderr);
    equal(JSON.parse(latest.stdout).id.version, "v2");
    const missing = await runFctl(["get", "task", "nope", "--latest", ...scope(sandbox.endpoint)]);
    equal(missing.code, 1);
    equal(missing.stderr, 'Error: task "nope" not found in project "flytesnacks", domain "development"\n');
  });
});
