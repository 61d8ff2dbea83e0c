/**
 * The floor of the libraries `fctl register files --dryRun` loads, measured beside it (scripts/bench_register.ts):
 * the same third-party modules and generated descriptors, imported and not used: protobuf-es with the descriptors
 * of the three entity kinds a package holds (flyteidl's `TaskSpec`, `WorkflowSpec` and `LaunchPlan`, and every
 * file they import), and modern-tar (the archive). The command line is parsed by fctl's own code, no library,
 * so it is not part of the floor. What a dry run costs above this line is fctl's own: its command line and
 * configuration, reading and checking the package, planning, and the report.
 *
 *   deno run scripts/bench_dry_run_libraries.ts
 *
 * @module
 */
import { fromBinary } from "@bufbuild/protobuf";
import { createTarDecoder } from "modern-tar";
import { TaskSpecSchema } from "../proto/gen/flyteidl/admin/task_pb.ts";
import { WorkflowSpecSchema } from "../proto/gen/flyteidl/admin/workflow_pb.ts";
import { LaunchPlanSchema } from "../proto/gen/flyteidl/admin/launch_plan_pb.ts";

// Referenced, so that no module is dropped as unused; nothing is run.
if (![fromBinary, createTarDecoder, TaskSpecSchema, WorkflowSpecSchema, LaunchPlanSchema].every(Boolean)) {
  throw new Error("a library failed to load");
}
