/**
 * `deno task test`: every check CI runs, in order, failing on the first that fails:
 * formatting, lint, type check, the package's doc lint and publish dry run, generated-code and reference freshness,
 * then the bundle of what ships (`scripts/bundle.ts`), then the test suite, after which it prints how many generated cases the property tests ran (`property cases: N`;
 * see `src/_test_property.ts`).
 *
 * @module
 */
import { recordedCases } from "../src/_test_property.ts";

const deno = Deno.execPath();

interface Step {
  name: string;
  args: string[];
}

const STEPS: Step[] = [
  { name: "format", args: ["fmt", "--check", "--quiet"] },
  { name: "lint", args: ["lint", "--quiet"] },
  {
    name: "type check",
    args: ["check", "--quiet", "main.ts", "mod.ts", "testing.ts", "types.ts", "src", "scripts", "tests"],
  },
  // The package's documentation: no doc-lint diagnostic at all, an example on every symbol of fctl's own, examples type-checked.
  {
    name: "doc lint",
    args: [
      "run",
      "--quiet",
      "--allow-read",
      "--allow-run",
      "--allow-write=_doc_examples.deno.json",
      "scripts/doc_lint.ts",
    ],
  },
  // What JSR would check (license, slow types, exports, unanalyzable imports), without contacting it.
  { name: "publish dry run", args: ["publish", "--dry-run", "--allow-dirty", "--quiet"] },
  { name: "generated protos are current", args: ["run", "--quiet", "-A", "scripts/gen_proto.ts", "--check"] },
  {
    name: "command reference is current",
    args: ["run", "--quiet", "--allow-read", "scripts/gen_reference.ts", "--check"],
  },
  // What ships, which the tests that run fctl as a process run (tests/helpers.ts `fctlMain`).
  {
    name: "bundle",
    args: [
      "run",
      "--quiet",
      "--allow-read",
      "--allow-write",
      "--allow-run",
      "scripts/bundle.ts",
      "--if-stale",
      "--quiet",
    ],
  },
  {
    name: "tests",
    args: [
      "test",
      "--quiet",
      "--allow-net",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-run",
      "--allow-sys=osRelease",
      ...Deno.args,
    ],
  },
];

/** Where the property tests record their case counts. */
const propertyCases = await Deno.makeTempFile({ prefix: "fctl-property-cases-" });

async function runStep(step: Step): Promise<{ ok: boolean; output: string }> {
  // NO_COLOR keeps the output free of escape codes, so the summary line can be read back.
  const env = { NO_COLOR: "1", FCTL_PROPERTY_CASES: propertyCases };
  const child = new Deno.Command(deno, { args: step.args, env, stdout: "piped", stderr: "inherit" }).spawn();
  let output = "";
  const decoder = new TextDecoder();
  for await (const chunk of child.stdout) {
    const text = decoder.decode(chunk, { stream: true });
    output += text;
    await Deno.stdout.write(chunk);
  }
  const status = await child.status;
  return { ok: status.success, output };
}

let failed = false;
for (const step of STEPS) {
  console.log(`== ${step.name}`);
  const started = performance.now();
  const { ok, output } = await runStep(step);
  console.log(`== ${step.name}: ${ok ? "ok" : "FAILED"} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  if (step.name === "tests") {
    // Deno's summary is `ok | 12 passed (3 steps) | 0 failed`; repeat it in the plain form CI reads.
    const summary = /(\d+) passed.*?\| (\d+) failed/.exec(output);
    if (summary) console.log(`tests: ${summary[1]} passed, ${summary[2]} failed`);
    console.log(`property cases: ${await recordedCases(propertyCases)}`);
  }
  if (!ok) {
    failed = true;
    break;
  }
}
await Deno.remove(propertyCases).catch(() => {});
Deno.exit(failed ? 1 : 0);
