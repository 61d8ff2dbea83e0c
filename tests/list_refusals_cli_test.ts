/**
 * The `get` listings' filters and sort keys that FlyteAdmin refuses: fctl passes its refusal on as one line, exit 1,
 * in FlyteAdmin's words, as a fresh process shows them. A database failure the admin answers (UNKNOWN) is the
 * admin's own, not the connection's: no connection description or hint.
 */
import { deepEqual } from "node:assert/strict";
import { startSandbox } from "../src/sandbox/mod.ts";
import { runFctlProcess } from "./helpers.ts";

Deno.test("get refuses a filter or sort key FlyteAdmin refuses in one line of its words, exit 1", async () => {
  const sandbox = await startSandbox();
  try {
    const flags = ["-p", "flytesnacks", "-d", "development", "--admin.endpoint", sandbox.endpoint];
    const cases: [string[], string][] = [
      [
        ["get", "task", "--filter.fieldSelector", "task.owner=me"],
        "Error: ListTasks failed: InvalidArgument: 't.owner' is invalid filter\n",
      ],
      [
        ["get", "launchplan", "--filter.fieldSelector", "task.name=x"],
        "Error: ListLaunchPlans failed: InvalidArgument: 't' entity is not allowed in filters\n",
      ],
      [
        ["get", "launchplan", "--filter.sortBy", "colour"],
        "Error: ListLaunchPlans failed: InvalidArgument: invalid sort key 'colour'\n",
      ],
      [
        ["get", "project", "--filter.fieldSelector", "owner=x"],
        "Error: ListProjects failed: InvalidArgument: 'p.owner' is invalid filter\n",
      ],
      // Workflow names are sorted by a query grouped by project, domain and name: Postgres refuses other columns.
      [
        ["get", "workflow", "--filter.sortBy", "description"],
        `Error: ListNamedEntities failed: Unknown: failed database operation with column "description" does not exist\n`,
      ],
    ];
    for (const [args, line] of cases) {
      const { code, stdout, stderr } = await runFctlProcess([...args, ...flags]);
      deepEqual({ code, stdout, stderr }, { code: 1, stdout: "", stderr: line }, args.join(" "));
    }
  } finally {
    await sandbox.close();
  }
});
