/** `--flag=true|false` works for every boolean flag, schema and local alike, as in flytectl (cobra). */
import { equal, match } from "node:assert/strict";
import { startSandbox } from "../src/sandbox/mod.ts";
import { fixture, runFctl } from "./helpers.ts";

Deno.test("local boolean flags accept =true and =false; other values are one-line usage errors", async () => {
  const sandbox = await startSandbox();
  try {
    const scope = ["-p", "flytesnacks", "-d", "development", "--admin.endpoint", sandbox.endpoint];
    const pb = fixture("69_core.flyte_basics.lp.greet_1.pb");
    const dry = await runFctl(["register", "files", pb, "--version", "v1", "--dryRun=true", ...scope]);
    equal(dry.code, 0, dry.stderr);
    equal(sandbox.requests.length, 0, "a dry run sends nothing");
    const real = await runFctl(["register", "files", pb, "--version", "v1", "--dryRun=false", ...scope]);
    equal(real.code, 0, real.stderr);
    equal(sandbox.requests.filter((r) => r.method === "CreateTask").length, 1);
    const bad = await runFctl(["register", "files", pb, "--dryRun=maybe", ...scope]);
    equal(bad.code, 2);
    match(bad.stderr, /^Error: invalid value "maybe" for --dryRun: expected true or false\n$/);
  } finally {
    await sandbox.close();
  }
});
