/**
 * What `createExecution` loads before it runs: the lookup of the task or launch plan, not what comes after it. The
 * input conversion (MessagePack included) and the execution messages load during the lookup's round trip, and the
 * uploads' code (storage, hashing, directories) only for a local path; loaded up front, they cost a cold
 * `create execution` tens of milliseconds before its first call.
 */
import { deepEqual, ok as assert } from "node:assert/strict";
import { moduleGraph } from "../../scripts/module_graph.ts";

Deno.test("createExecution loads the input conversion, the execution messages and the uploads only on demand", async () => {
  const graph = await moduleGraph(new URL("./create_execution.ts", import.meta.url));
  const statically = [...graph.reachable()];
  assert(statically.some((s) => s.endsWith("src/launchplans/get_launch_plan.ts")), "the walk follows its imports");
  const later = statically.filter((s) =>
    /src\/executions\/(literals|local_blobs|struct_value)\.ts$|src\/register\/|src\/storage\/|@msgpack|node:crypto$/
      .test(s) || s.endsWith("proto/gen/flyteidl/admin/execution_pb.ts")
  );
  deepEqual(later, []);
  // Yet they are in the program, behind literal dynamic imports (which the bundle and deno compile follow).
  const all = [...graph.reachable({ dynamic: true })];
  for (const module of ["src/executions/literals.ts", "src/executions/local_blobs.ts", "admin/execution_pb.ts"]) {
    assert(all.some((s) => s.endsWith(module)), module);
  }
});

Deno.test("the input conversion loads MessagePack's ES-module build, not its CommonJS one (Deno's CommonJS loader)", async () => {
  const all = [...(await moduleGraph(new URL("./literals.ts", import.meta.url))).reachable({ dynamic: true })];
  assert(all.some((s) => s.includes("@msgpack/msgpack/dist.esm/")), "MessagePack is in the graph");
  deepEqual(all.filter((s) => s.includes("@msgpack/msgpack/") && !s.includes("/dist.esm/")), []);
});
