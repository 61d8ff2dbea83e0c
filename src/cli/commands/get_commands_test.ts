/**
 * The options steps of the `get` commands, through the runF seam (`parseToOptions`): flytectl's flag spellings
 * to each command's options object, and the usage errors found before anything loads or connects.
 */
import { deepEqual, equal } from "node:assert/strict";
import { parseToOptions } from "../run.ts";
import { optionsOf, usageError } from "./_test_seam.ts";
import { oneVersionFlag } from "../get_flags.ts";

const SCOPE = ["-p", "flytesnacks", "-d", "development"];

/** The paging flags as the options carry them, for the library's refusal to name. */
const PAGING_OF = (limit?: string, page?: string) => ({
  limit: { flag: "filter.limit", raw: limit },
  page: { flag: "filter.page", raw: page },
});

Deno.test("get task: flytectl's flags to the library's query, the spec file and the output", async () => {
  deepEqual(await parseToOptions(["get", "task", ...SCOPE]), {
    command: ["get", "task"],
    warnings: [],
    options: {
      query: {
        project: "flytesnacks",
        domain: "development",
        name: undefined,
        version: undefined,
        latest: false,
        newest: false,
        fieldSelector: undefined,
        sortBy: undefined,
        asc: false,
        limit: undefined,
        page: undefined,
      },
      flagOf: { ...PAGING_OF(), latest: oneVersionFlag("latest", "task"), newest: { flag: "execFile" } },
      execFile: undefined,
      format: "TABLE",
      wide: false,
    },
  });
  const args = [
    "get",
    "task",
    "core.basic.hello",
    ...SCOPE,
    "--version",
    "v1",
    "--latest",
    "--execFile",
    "exec.yaml",
    "--filter.fieldSelector",
    "task.name=t1",
    "--filter.sortBy",
    "name",
    "--filter.asc",
    "--filter.limit",
    "3",
    "--filter.page=2",
    "-o",
    "yaml",
    "--wide",
  ];
  deepEqual(await optionsOf(args), {
    query: {
      project: "flytesnacks",
      domain: "development",
      name: "core.basic.hello",
      version: "v1",
      latest: true,
      newest: true,
      fieldSelector: "task.name=t1",
      sortBy: "name",
      asc: true,
      limit: 3,
      page: 2,
    },
    flagOf: { ...PAGING_OF("3", "2"), latest: oneVersionFlag("latest", "task"), newest: { flag: "execFile" } },
    execFile: "exec.yaml",
    format: "YAML",
    wide: true,
  });
});

Deno.test("get task: the root shorthand and cobra's flags before the subcommand reach the same options", async () => {
  const shorthand = await parseToOptions(["tasks", ...SCOPE, "--filter.limit", "3"]);
  equal(shorthand.command.join(" "), "task");
  const before = await parseToOptions(["get", "--filter.limit", "3", "task", ...SCOPE]);
  deepEqual(before.options, shorthand.options);
  deepEqual(before.options, await optionsOf(["get", "task", ...SCOPE, "--filter.limit=3"]));
});

Deno.test("get: paging is converted, not checked: the library refuses it and the run names the flag", async () => {
  // A number that is not whole becomes NaN, which the library's query refuses (see flag_values.ts).
  const options = await optionsOf<{ query: { limit: number; page: number } }>(
    ["get", "task", ...SCOPE, "--filter.limit", "ten", "--filter.page", "1.5"],
  );
  deepEqual([options.query.limit, options.query.page], [NaN, NaN]);
  equal((await optionsOf<{ query: { asc: boolean } }>(["get", "task", ...SCOPE, "--no-filter.asc"])).query.asc, false);
});

Deno.test("get: project and domain, the output format and empty values are refused before anything loads", async () => {
  for (const command of ["task", "workflow", "launchplan", "execution"]) {
    equal(await usageError(["get", command, "-p", "flytesnacks"]), "project and domain are required parameters");
    equal(await usageError(["get", command, "-d", "development"]), "project and domain are required parameters");
  }
  const graph = "visualization is only supported on workflows: -o SVG cannot show this command's output; " +
    "use TABLE, JSON or YAML";
  for (const command of [["task"], ["launchplan"], ["execution"], ["project"], ["workflow"]]) {
    equal(await usageError(["get", ...command, ...SCOPE, "-o", "svg"]), graph, command.join(" "));
  }
  equal(
    await usageError(["get", "task", "t", ...SCOPE, "--execFile", ""]),
    'invalid value "" for --execFile: expected a file path',
  );
  equal(
    await usageError(["get", "launchplan", "lp", ...SCOPE, "--execFile", ""]),
    'invalid value "" for --execFile: expected a file path',
  );
  equal(await usageError(["get", "project", " "]), 'invalid project id "": expected a project id');
  equal(
    await usageError(["get", "task", ...SCOPE, "--filter.asc=maybe"]),
    'invalid value "maybe" for --filter.asc: expected true or false',
  );
});

Deno.test("get project: an id or a page, --archived, and no project or domain needed", async () => {
  deepEqual(await parseToOptions(["get", "projects"]), {
    command: ["get", "project"],
    warnings: [],
    options: {
      id: undefined,
      list: {
        fieldSelector: undefined,
        sortBy: undefined,
        asc: false,
        limit: undefined,
        page: undefined,
        archived: false,
      },
      flagOf: PAGING_OF(),
      format: "TABLE",
      wide: false,
    },
  });
  deepEqual(await optionsOf(["get", "project", "flytesnacks", "--archived", "--filter.limit", "5", "-o", "json"]), {
    id: "flytesnacks",
    list: { fieldSelector: undefined, sortBy: undefined, asc: false, limit: 5, page: undefined, archived: true },
    flagOf: PAGING_OF("5", undefined),
    format: "JSON",
    wide: false,
  });
});

Deno.test("get workflow: a graph format is of one workflow, the newest unless --version", async () => {
  const query = (options: Record<string, unknown>) => (options as { query: Record<string, unknown> }).query;
  const plain = await optionsOf(["get", "workflow", "wf", ...SCOPE]);
  deepEqual([query(plain).latest, query(plain).asc, plain.graph, plain.format], [false, undefined, false, "TABLE"]);
  const dot = await optionsOf(["get", "workflow", "wf", ...SCOPE, "-o", "dot"]);
  deepEqual([query(dot).latest, dot.graph, dot.format], [true, true, "DOT"]);
  const versioned = await optionsOf(["get", "workflow", "wf", ...SCOPE, "-o", "doturl", "--version", "v1"]);
  deepEqual([query(versioned).latest, query(versioned).version, versioned.graph], [false, "v1", true]);
  // --filter.asc is passed on only when given: names sort ascending by default.
  equal(query(await optionsOf(["get", "workflow", ...SCOPE, "--filter.asc=false"])).asc, false);
  deepEqual((await optionsOf(["get", "workflow", ...SCOPE])).flagOf, {
    ...PAGING_OF(),
    latest: oneVersionFlag("latest", "workflow"),
    version: oneVersionFlag("version", "workflow"),
  });
  equal(
    await usageError(["get", "workflow", ...SCOPE, "-o", "dot"]),
    "visualization is only supported on workflows: -o DOT cannot show this command's output; use TABLE, JSON or YAML",
  );
});

Deno.test("get launchplan: --workflow, --latest, --version and --execFile", async () => {
  const options = await optionsOf(
    ["get", "launchplans", "lp", ...SCOPE, "--workflow", "core.basic.wf", "--latest", "--execFile", "spec.yaml"],
  );
  deepEqual(options.query, {
    project: "flytesnacks",
    domain: "development",
    name: "lp",
    version: undefined,
    latest: true,
    workflow: "core.basic.wf",
    newest: true,
    fieldSelector: undefined,
    sortBy: undefined,
    asc: false,
    limit: undefined,
    page: undefined,
  });
  deepEqual([options.execFile, options.flagOf], [
    "spec.yaml",
    { ...PAGING_OF(), latest: oneVersionFlag("latest", "launchplan"), newest: { flag: "execFile" } },
  ]);
});

Deno.test("get execution: --details and --nodeID need a name; the listing's paging", async () => {
  deepEqual(await parseToOptions(["get", "execution", "f8a1b2c3d4", ...SCOPE, "--nodeID", "n0", "-o", "yaml"]), {
    command: ["get", "execution"],
    warnings: [],
    options: {
      id: { project: "flytesnacks", domain: "development", name: "f8a1b2c3d4" },
      details: true,
      nodeId: "n0",
      list: { fieldSelector: undefined, sortBy: undefined, asc: false, limit: undefined, page: undefined },
      flagOf: PAGING_OF(),
      format: "YAML",
      wide: false,
    },
  });
  const list = await optionsOf(["get", "executions", ...SCOPE, "--filter.fieldSelector", "execution.phase=FAILED"]);
  deepEqual([list.details, (list.list as { fieldSelector: string }).fieldSelector], [false, "execution.phase=FAILED"]);
  equal((await optionsOf(["get", "execution", "e", ...SCOPE, "--details"])).details, true);
  equal(await usageError(["get", "execution", ...SCOPE, "--details"]), "--details needs an execution name");
  equal(await usageError(["get", "execution", ...SCOPE, "--nodeID", "n0"]), "--nodeID needs an execution name");
  equal(
    await usageError(["get", "execution", "e", ...SCOPE, "--nodeID", ""]),
    'invalid value "" for --nodeID: expected a node id',
  );
});
