/**
 * The floor of the stack `fctl get task` is built on, measured beside the raw floor
 * (scripts/bench_get_task_floor.ts): a minimal client on the libraries fctl uses for every admin call, Connect's
 * stock gRPC transport (`@connectrpc/connect-node`) and protobuf-es with the descriptors fctl's task table loads
 * (the rows of `proto/gen/fctl/task_row_calls_pb.ts`), making the same ListTasks call and printing nothing. No
 * configuration, no interceptor, no rendering: what fctl costs above this line is fctl's own. It fails (exit 1)
 * unless the admin answers with a task. scripts/bench_get_task.ts runs it bundled, as fctl runs.
 *
 *   deno run --allow-net scripts/bench_get_task_connect.ts ENDPOINT PROJECT DOMAIN
 *
 * @module
 */
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { Sort_Direction } from "../proto/gen/flyteidl/admin/common_pb.ts";
import { AdminService } from "../proto/gen/fctl/task_row_calls_pb.ts";

const [baseUrl, project, domain] = Deno.args;
const admin = createClient(AdminService, createGrpcTransport({ baseUrl, acceptCompression: [] }));
const list = await admin.listTasks({
  id: { project, domain },
  limit: 100,
  sortBy: { key: "created_at", direction: Sort_Direction.DESCENDING },
});
if (list.tasks.length === 0) throw new Error(`ListTasks of ${project}/${domain} answered no task`);
