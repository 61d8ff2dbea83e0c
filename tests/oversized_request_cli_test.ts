/**
 * A request message over FlyteAdmin's receive limit (grpc-go's default, 4 MiB): `register files` of a task whose
 * spec is larger fails that file with grpc-go's message naming both sizes, exit 1, as a fresh process against the
 * production-shaped admin (TLS, OAuth); nothing is stored.
 */
import { deepEqual, equal } from "node:assert/strict";
import { create, toBinary } from "@bufbuild/protobuf";
import { TaskSpecSchema } from "../proto/gen/flyteidl/admin/task_pb.ts";
import { ResourceType } from "../proto/gen/flyteidl/core/identifier_pb.ts";
import { startSandbox } from "../src/sandbox/mod.ts";
import { runProductionProcess } from "./entity_fixtures.ts";

Deno.test("register files: a task over 4 MiB fails with grpc-go's RESOURCE_EXHAUSTED message, exit 1", async () => {
  const sandbox = await startSandbox({ production: true });
  const dir = await Deno.makeTempDir({ prefix: "fctl-oversized-" });
  try {
    const id = {
      resourceType: ResourceType.TASK,
      project: "flytesnacks",
      domain: "development",
      name: "big",
      version: "v0",
    };
    const container = { image: "python:3.12", args: ["x".repeat(5 * 1024 * 1024)] };
    const spec = create(TaskSpecSchema, {
      template: { id, type: "python-task", interface: {}, target: { case: "container", value: container } },
    });
    const file = `${dir}/big_task_1.pb`;
    await Deno.writeFile(file, toBinary(TaskSpecSchema, spec));
    const result = await runProductionProcess(sandbox, ["register", "files", file, "--version", "v1"]);
    equal(result.code, 1, result.stderr);
    const refusal =
      /^failed: .*big_task_1\.pb: Error registering file due to grpc: received message larger than max \((\d+) vs\. 4194304\)$/;
    const [line, summary] = result.stderr.trimEnd().split("\n");
    deepEqual([refusal.test(line), summary], [true, "Error: 1 of 1 files failed to register"], result.stderr);
    equal(sandbox.store.tasks().length, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await sandbox.close();
  }
});
