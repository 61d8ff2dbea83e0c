/**
 * The floor of the libraries `fctl register files --dryRun` loads, measured beside it (scripts/bench_register.ts):
 * the same third-party modules and generated descriptors, imported and not used: protobuf-es with the descriptors
 * of the three entity kinds a package holds as registration reads them (proto/client/fctl/registration/: the
 * fields of flyteidl's `TaskSpec`, `WorkflowSpec` and `LaunchPlan` that registration reads or fills in, and the
 * files they import), and modern-tar (the archive). The command line is parsed by fctl's own code, no library,
 * so it is not part of the floor. What a dry run costs above this line is fctl's own: its command line and
 * configuration, reading and checking the package, planning, and the report.
 *
 *   deno run scripts/bench_dry_run_libraries.ts
 *
 * @module
 */
import { fromBinary } from "@bufbuild/protobuf";
import { createTarDecoder } from "modern-tar";
import {
  RegistrationLaunchPlanSchema,
  RegistrationTaskSpecSchema,
  RegistrationWorkflowSpecSchema,
} from "../proto/gen/fctl/registration/entities_pb.ts";

// Referenced, so that no module is dropped as unused; nothing is run.
const used = [fromBinary, createTarDecoder, RegistrationTaskSpecSchema, RegistrationWorkflowSpecSchema];
if (![...used, RegistrationLaunchPlanSchema].every(Boolean)) {
  throw new Error("a library failed to load");
}
