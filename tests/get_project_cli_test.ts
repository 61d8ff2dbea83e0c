/**
 * `get project`: the ListProjects and GetProject requests it sends (flytectl's, with fctl's fixes), the archived
 * projects the admin hides unless asked, its table and documents, and one fresh process against a production admin.
 */
import { deepEqual, equal, match } from "node:assert/strict";
import type { ProjectGetRequest, ProjectListRequest } from "../proto/gen/flyteidl/admin/project_pb.ts";
import { type Sandbox, startSandbox } from "../src/sandbox/mod.ts";
import { runProductionProcess, seedProjects, type TestProject } from "./entity_fixtures.ts";
import { runFctl } from "./helpers.ts";

/** Registered after the seed project a fresh admin has (flytesnacks, "Default project setup."). */
const PROJECTS: TestProject[] = [
  { id: "alpha", name: "Alpha", description: "first" },
  { id: "old", name: "Old", description: "gone", archived: true },
];

async function withProjects(fn: (sandbox: Sandbox) => Promise<void>): Promise<void> {
  const sandbox = await startSandbox();
  try {
    await seedProjects(sandbox, PROJECTS);
    await fn(sandbox);
  } finally {
    await sandbox.close();
  }
}

type Call =
  | { method: "ListProjects"; limit: number; token: string; filters: string; sortBy?: [string, number] }
  | { method: "GetProject"; id: string };

function calls(sandbox: Sandbox): Call[] {
  return sandbox.requests.map(({ method, request }) => {
    if (method === "GetProject") return { method, id: (request as ProjectGetRequest).id };
    if (method !== "ListProjects") throw new Error(`unexpected ${method}`);
    const r = request as ProjectListRequest;
    return {
      method,
      limit: r.limit,
      token: r.token,
      filters: r.filters,
      sortBy: r.sortBy && [r.sortBy.key, r.sortBy.direction],
    };
  });
}

const list = (overrides: Partial<Call> = {}): Call => ({
  method: "ListProjects",
  limit: 100,
  token: "",
  filters: "",
  sortBy: ["created_at", 0],
  ...overrides,
} as Call);

Deno.test("get project sends ListProjects with flytectl's paging, sort and filters, and --archived's filter", async () => {
  const cases: [string[], Call][] = [
    [["get", "project"], list()],
    [["get", "projects", "--filter.limit", "2", "--filter.page", "3"], list({ limit: 2, token: "4" })],
    [["get", "project", "--filter.sortBy", "name", "--filter.asc"], list({ sortBy: ["name", 1] })],
    [["get", "project", "--filter.fieldSelector", "state=1"], list({ filters: "eq(state,1)" })],
    [["get", "project", "--archived"], list({ filters: "eq(state,1)" })],
    [
      ["get", "project", "--archived", "--filter.fieldSelector", "name contains O"],
      list({ filters: "contains(name,O)+eq(state,1)" }),
    ],
    [["get", "project", "alpha"], { method: "GetProject", id: "alpha" }],
  ];
  await withProjects(async (sandbox) => {
    for (const [args, expected] of cases) {
      sandbox.clearRequests();
      const { code, stderr } = await runFctl([...args, "--admin.endpoint", sandbox.endpoint]);
      equal(code, 0, `${args.join(" ")}: ${stderr}`);
      deepEqual(calls(sandbox), [expected], args.join(" "));
    }
  });
});

Deno.test("get project: archived projects are hidden unless asked for, then shown with their STATE", async () => {
  await withProjects(async (sandbox) => {
    const endpoint = ["--admin.endpoint", sandbox.endpoint];
    const all = await runFctl(["get", "project", "--filter.sortBy", "identifier", "--filter.asc", ...endpoint]);
    equal(all.code, 0, all.stderr);
    equal(
      all.stdout,
      " ------------- ------------- ------------------------ \n| ID          | NAME        | DESCRIPTION            |\n" +
        " ------------- ------------- ------------------------ \n| alpha       | Alpha       | first                  |\n" +
        " ------------- ------------- ------------------------ \n| flytesnacks | flytesnacks | Default project setup. |\n" +
        " ------------- ------------- ------------------------ \n2 rows\n",
    );
    const archived = await runFctl(["get", "project", "--archived", ...endpoint]);
    equal(
      archived.stdout,
      " ----- ------ ------------- ---------- \n| ID  | NAME | DESCRIPTION | STATE    |\n" +
        " ----- ------ ------------- ---------- \n| old | Old  | gone        | ARCHIVED |\n" +
        " ----- ------ ------------- ---------- \n1 row\n",
    );
    const one = await runFctl(["get", "project", "old", "-o", "json", ...endpoint]);
    equal(one.code, 0, one.stderr);
    const project = JSON.parse(one.stdout);
    deepEqual([project.id, project.state, project.domains.map((d: { id: string }) => d.id)], [
      "old",
      "ARCHIVED",
      ["development", "staging", "production"],
    ]);
    const yaml = await runFctl(["get", "project", "--archived", "-o", "yaml", ...endpoint]);
    match(yaml.stdout, /^- id: old\n/);
  });
});

Deno.test("get project: an unknown id fails naming it (exit 1); bad flags are usage errors before any call", async () => {
  await withProjects(async (sandbox) => {
    const endpoint = ["--admin.endpoint", sandbox.endpoint];
    const missing = await runFctl(["get", "project", "nope", ...endpoint]);
    deepEqual([missing.code, missing.stdout, missing.stderr], [1, "", 'Error: project "nope" not found\n']);
    sandbox.clearRequests();
    const cases: [string[], string][] = [
      [["--filter.limit", "0"], 'Error: invalid value "0" for --filter.limit: expected a whole number of 1 or more'],
      [["--filter.page", "x"], 'Error: invalid value "x" for --filter.page: expected a whole number of 1 or more'],
      [
        ["--filter.fieldSelector", "state"],
        'Error: Please add a valid field selector: no operator in term "state" (terms are ' +
        '<field><operator><value> separated by ","; operators: =, !=, >, >=, <, <=, " contains ", " in (a;b)")',
      ],
      [
        ["-o", "dot"],
        "Error: visualization is only supported on workflows: -o DOT cannot show this command's output; " +
        "use TABLE, JSON or YAML",
      ],
    ];
    for (const [args, message] of cases) {
      const result = await runFctl(["get", "project", ...args, ...endpoint]);
      deepEqual([result.code, result.stdout, result.stderr], [2, "", message + "\n"], args.join(" "));
    }
    deepEqual(sandbox.requests, [], "no request was made");
  });
});

Deno.test("production admin: get project as a fresh process (TLS, OAuth client credentials, declared permissions)", async () => {
  const sandbox = await startSandbox({ production: true });
  try {
    await seedProjects(sandbox, PROJECTS);
    const result = await runProductionProcess(sandbox, ["get", "project", "flytesnacks", "-o", "json"]);
    equal(result.code, 0, result.stderr);
    equal(JSON.parse(result.stdout).description, "Default project setup.");
    equal(result.stderr, "");
  } finally {
    await sandbox.close();
  }
});
