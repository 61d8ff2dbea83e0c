/**
 * The floor `fctl get task` is measured against: the same ListTasks call (project, domain, limit 100, newest
 * first) through the same Connect transport, printing nothing. Run by scripts/bench_get_task.ts.
 *
 *   deno run --allow-net --allow-read --allow-env scripts/bench_get_task_floor.ts ENDPOINT PROJECT DOMAIN
 *
 * @module
 */
import { createAdminClient } from "../src/admin/client.ts";

const [endpoint, project, domain] = Deno.args;
const client = createAdminClient({ endpoint, insecure: true });
try {
  const response = await client.admin.listTasks({
    id: { project, domain },
    limit: 100,
    sortBy: { key: "created_at" },
  });
  if (response.tasks.length === 0) throw new Error("the floor listed no tasks");
} finally {
  client.close();
}
