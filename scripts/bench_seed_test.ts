import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { createAdminClient } from "../src/admin/client.ts";
import { ResourceType } from "../proto/gen/flyteidl/core/identifier_pb.ts";
import { seededWorkflowName } from "./bench_seed.ts";

const ADMIN = new URL("./bench_admin.ts", import.meta.url).pathname;
const scope = { project: "flytesnacks", domain: "development" };

/** A page of up to 200, so that more than 100 would show. */
const page = { limit: 200 };

Deno.test("the bench admin serves 100 tasks, projects, workflow names and versions, launch plans and executions", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--allow-net", "--allow-read", "--allow-env", ADMIN, "--stdin", "--latency", "5"].concat(
      ["--tasks", "--projects", "--workflows", "--launchplans", "--executions"].flatMap((flag) => [flag, "100"]),
    ),
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the bench admin ended before printing its endpoint: "${text}"`);
    text += value;
  }
  const client = createAdminClient({ endpoint: text.split("\n")[0], insecure: true });
  try {
    const counts = {
      tasks: (await client.admin.listTasks({ id: scope, ...page })).tasks.length,
      projects: (await client.admin.listProjects(page)).projects.length,
      workflowNames:
        (await client.admin.listNamedEntities({ ...scope, resourceType: ResourceType.WORKFLOW, ...page })).entities
          .length,
      workflowVersions:
        (await client.admin.listWorkflows({ id: { ...scope, name: seededWorkflowName(0) }, ...page })).workflows.length,
      launchPlans: (await client.admin.listLaunchPlans({ id: scope, ...page })).launchPlans.length,
      executions: (await client.admin.listExecutions({ id: scope, ...page })).executions.length,
    };
    assertEquals(counts, {
      tasks: 100,
      projects: 100,
      workflowNames: 100,
      workflowVersions: 100,
      launchPlans: 100,
      executions: 100,
    });
  } finally {
    client.close();
    await child.stdin.close();
    await reader.cancel();
    await child.status;
  }
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
