import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { createAdminClient } from "../src/admin/client.ts";
import { ResourceType } from "../proto/gen/flyteidl/core/identifier_pb.ts";
import { SimpleType } from "../proto/gen/flyteidl/core/types_pb.ts";
import { seededWorkflowName, typedLaunchPlanName } from "./bench_seed.ts";

const ADMIN = new URL("./bench_admin.ts", import.meta.url).pathname;
const scope = { project: "flytesnacks", domain: "development" };

/** A page of up to 200, so that more than 100 would show. */
const page = { limit: 200 };

/** Starts the bench admin with `flags`; `fn` gets its endpoint; the admin ends with `fn`. */
async function withBenchAdmin(flags: string[], fn: (endpoint: string) => Promise<void>): Promise<void> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--allow-net", "--allow-read", "--allow-env", ADMIN, "--stdin", ...flags],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  try {
    let text = "";
    while (!text.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the bench admin ended before printing its endpoint: "${text}"`);
      text += value;
    }
    await fn(text.split("\n")[0]);
  } finally {
    await child.stdin.close();
    await reader.cancel();
    await child.status;
  }
}

Deno.test("the bench admin serves 100 tasks, projects, workflow names and versions, launch plans and executions", async () => {
  const flags = ["--latency", "5"].concat(
    ["--tasks", "--projects", "--workflows", "--launchplans", "--executions"].flatMap((flag) => [flag, "100"]),
  );
  await withBenchAdmin(flags, async (endpoint) => {
    const client = createAdminClient({ endpoint, insecure: true });
    try {
      const counts = {
        tasks: (await client.admin.listTasks({ id: scope, ...page })).tasks.length,
        projects: (await client.admin.listProjects(page)).projects.length,
        workflowNames:
          (await client.admin.listNamedEntities({ ...scope, resourceType: ResourceType.WORKFLOW, ...page })).entities
            .length,
        workflowVersions:
          (await client.admin.listWorkflows({ id: { ...scope, name: seededWorkflowName(0) }, ...page })).workflows
            .length,
        launchPlans: (await client.admin.listLaunchPlans({ id: scope, ...page })).launchPlans.length,
        executions: (await client.admin.listExecutions({ id: scope, ...page })).executions.length,
      };
      assertEquals(counts, {
        tasks: 100,
        projects: 101, // and the admin's own seed, flytesnacks
        workflowNames: 100,
        workflowVersions: 100,
        launchPlans: 100,
        executions: 100,
      });
    } finally {
      client.close();
    }
  });
});

Deno.test("the bench admin serves typed launch plans of 20 inputs of varied types, each default accepted as an input", async () => {
  await withBenchAdmin(["--typedlaunchplans", "2"], async (endpoint) => {
    const client = createAdminClient({ endpoint, insecure: true });
    try {
      const launchPlans = (await client.admin.listLaunchPlans({ id: scope, ...page })).launchPlans;
      assertEquals(launchPlans.map((lp) => lp.id?.name).sort(), [typedLaunchPlanName(0), typedLaunchPlanName(1)]);
      const parameters = launchPlans[0].spec?.defaultInputs?.parameters ?? {};
      assertEquals(Object.keys(parameters).length, 20);
      const kinds = new Set(
        Object.values(parameters).map((p) => {
          const type = p.var?.type?.type;
          return type?.case === "simple" ? SimpleType[type.value] : type?.case;
        }),
      );
      assertEquals([...kinds].sort(), [
        "BOOLEAN",
        "DATETIME",
        "DURATION",
        "FLOAT",
        "INTEGER",
        "STRING",
        "STRUCT",
        "blob",
        "collectionType",
        "enumType",
        "mapValueType",
        "unionType",
      ]);
      // Every default given back as the user's input is of its input's type, as the admin checks it.
      const literals = Object.fromEntries(
        Object.entries(parameters).map(([name, p]) => [name, p.behavior.case === "default" ? p.behavior.value : {}]),
      );
      const created = await client.admin.createExecution({
        ...scope,
        name: "typed",
        spec: { launchPlan: launchPlans[0].id },
        inputs: { literals },
      });
      assertEquals(created.id?.name, "typed");
    } finally {
      client.close();
    }
  });
});

Deno.test("the bench admin refuses projects with the production profile in one line, exit 2", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--allow-net",
      "--allow-read",
      "--allow-env",
      ADMIN,
      "--projects",
      "1",
      "--production",
      "x",
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(out.code, 2);
  assertEquals(
    new TextDecoder().decode(out.stderr),
    "bench_admin: --projects cannot be seeded with --production (its admin registers projects only when signed in)\n",
  );
});
