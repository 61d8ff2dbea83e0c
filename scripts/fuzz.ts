/**
 * `deno task fuzz`: every property test with `FCTL_FUZZ_SCALE` times its usual cases (default 20 here),
 * then the total of generated cases they ran (`property cases: N`).
 *
 * @module
 */
import { recordedCases } from "../src/_test_property.ts";

const PROPERTY_TESTS = [
  "src/admin/endpoint_property_test.ts",
  "src/config/duration_property_test.ts",
  "src/config/load_property_test.ts",
  "src/executions/literals_property_test.ts",
  "src/executions/spec_file_property_test.ts",
  "src/get/field_selector_test.ts",
  "src/get/literal_value_property_test.ts",
  "src/register/package/archive_property_test.ts",
];

const cases = await Deno.makeTempFile({ prefix: "fctl-property-cases-" });
const scale = Deno.env.get("FCTL_FUZZ_SCALE") ?? "20";
const status = await new Deno.Command(Deno.execPath(), {
  args: [
    "test",
    "--quiet",
    "--allow-read",
    "--allow-write",
    "--allow-env",
    "--allow-net",
    "--allow-run",
    ...PROPERTY_TESTS,
  ],
  env: { FCTL_FUZZ_SCALE: scale, FCTL_PROPERTY_CASES: cases },
}).spawn().status;
console.log(`property cases: ${await recordedCases(cases)} (FCTL_FUZZ_SCALE=${scale})`);
await Deno.remove(cases);
Deno.exit(status.code);
