/**
 * The floor of the stack a registration's creates run on, measured beside `fctl register files`
 * (scripts/bench_register.ts): CreateTask calls through Connect's stock gRPC transport
 * (`@connectrpc/connect-node`) with protobuf-es, in rounds that run one after another (as a package's tasks,
 * workflows and launch plans must), at most CONCURRENCY at a time, and nothing else. The requests are
 * bench_admin's seeded tasks (two inputs, one output, a container), built before the first call; nothing is
 * read, decoded, checked or planned, and there is no interceptor. A task is the cheapest entity for the admin
 * to create (a workflow is compiled, a launch plan checked against its workflow), so a package's rounds of
 * workflows and launch plans cost the admin more than this floor's. It fails (exit 1) on the first call that
 * fails.
 *
 *   deno run --allow-net scripts/bench_creates_connect.ts ENDPOINT COUNTS CONCURRENCY VERSION
 *
 * COUNTS is the number of creates in each round, comma-separated: `2016` is one round, `39,21,24` three (those
 * of flytesnacks-core). Every run needs a VERSION of its own: the admin answers ALREADY_EXISTS to a task it has.
 *
 * @module
 */
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { AdminService } from "../proto/gen/fctl/task_calls_pb.ts";
import { seededTask } from "./bench_task.ts";

const [baseUrl, countsArg, concurrencyArg, version] = Deno.args;
const admin = createClient(AdminService, createGrpcTransport({ baseUrl, acceptCompression: [] }));
let made = 0;
const rounds = countsArg.split(",").map((count) =>
  Array.from({ length: Number(count) }, () => {
    const request = seededTask(made);
    request.id.version = `${version}-${made++}`;
    return request;
  })
);
for (const requests of rounds) {
  let next = 0;
  const sendNext = async (): Promise<void> => {
    while (next < requests.length) await admin.createTask(requests[next++]);
  };
  await Promise.all(Array.from({ length: Number(concurrencyArg) }, sendNext));
}
