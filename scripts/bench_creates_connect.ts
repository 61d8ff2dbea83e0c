/**
 * The floor of the stack a registration's creates run on, measured beside `fctl register files` of the
 * 2,016-entity package (scripts/bench_register.ts): COUNT CreateTask calls through Connect's stock gRPC
 * transport (`@connectrpc/connect-node`) with protobuf-es, at most CONCURRENCY at a time, and nothing else.
 * The requests are bench_admin's seeded tasks (two inputs, one output, a container), built before the first
 * call; nothing is read, decoded, checked or planned, and there is no interceptor. It fails (exit 1) on the
 * first call that fails.
 *
 *   deno run --allow-net scripts/bench_creates_connect.ts ENDPOINT COUNT CONCURRENCY VERSION
 *
 * Every run needs a VERSION of its own: the admin answers ALREADY_EXISTS to a task it has.
 *
 * @module
 */
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { AdminService } from "../proto/gen/fctl/task_calls_pb.ts";
import { seededTask } from "./bench_task.ts";

const [baseUrl, countArg, concurrencyArg, version] = Deno.args;
const admin = createClient(AdminService, createGrpcTransport({ baseUrl, acceptCompression: [] }));
const requests = Array.from({ length: Number(countArg) }, (_, i) => {
  const request = seededTask(i);
  request.id.version = `${version}-${i}`;
  return request;
});
let next = 0;
async function sendNext(): Promise<void> {
  while (next < requests.length) await admin.createTask(requests[next++]);
}
await Promise.all(Array.from({ length: Number(concurrencyArg) }, sendNext));
