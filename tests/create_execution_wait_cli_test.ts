/**
 * `create execution --wait` and `--wait-timeout`: exit 0 when the execution succeeds, 1 when it fails or is aborted
 * (its message on the error line), 124 when the wait times out and 130 on Ctrl-C (both saying the execution goes on);
 * bad values refused before anything is sent; fresh processes against the production-shaped admin (TLS, OAuth).
 */
import { equal, match, ok } from "node:assert/strict";
import { type Sandbox, startSandbox } from "../src/sandbox/mod.ts";
import { runFctl, runFctlProcess } from "./helpers.ts";
import { Code } from "@connectrpc/connect";
import { registerCore, runProductionProcess } from "./entity_fixtures.ts";

const SCOPE = ["-p", "flytesnacks", "-d", "development"];
const LAUNCH_PLAN = "core.flyte_basics.lp.go_greet";
const SPEC = `workflow: ${LAUNCH_PLAN}\ninputs:\n  number: 7\n  day_of_week: Tuesday\n`;
const ID_LINE = (name: string) => `execution identifier project:"flytesnacks" domain:"development" name:"${name}"\n`;
const HINT = (name: string) => `fctl delete execution ${name} -p flytesnacks -d development`;

/** A sandbox with the core package registered and a spec file of its go_greet launch plan. */
async function withSpec(
  fn: (sandbox: Sandbox, args: (name: string, ...more: string[]) => string[]) => Promise<void>,
  production = false,
): Promise<void> {
  const sandbox = await startSandbox(production ? { production: true } : {});
  const dir = await Deno.makeTempDir({ prefix: "fctl-create-execution-wait-" });
  try {
    if (production) {
      const { fixture } = await import("./helpers.ts");
      const register = ["register", "files", "--archive", fixture("flytesnacks-core.tgz"), "--version", "v1"];
      equal((await runProductionProcess(sandbox, register)).code, 0);
    } else {
      await registerCore(sandbox, ["v1"]);
    }
    await Deno.writeTextFile(`${dir}/spec.yaml`, SPEC);
    const endpoint = production ? [] : [...SCOPE, "--admin.endpoint", sandbox.endpoint];
    await fn(
      sandbox,
      (name, ...more) => ["create", "execution", name, "--execFile", `${dir}/spec.yaml`, ...more, ...endpoint],
    );
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("create execution --wait: bad --wait-timeout values and --dryRun are refused, exit 2, nothing sent", async () => {
  await withSpec(async (sandbox, args) => {
    sandbox.clearRequests();
    for (const value of ["soon", "0s", "-1m", "30"]) {
      const run = await runFctl(args("r", "--wait-timeout", value));
      equal(run.code, 2, run.stderr);
      equal(
        run.stderr,
        `Error: invalid value ${
          JSON.stringify(value)
        } for --wait-timeout: expected a duration above 0 such as 30m or 1h30m\n`,
      );
    }
    const dry = await runFctl(args("r", "--wait", "--dryRun"));
    equal(dry.code, 2, dry.stderr);
    equal(dry.stderr, "Error: --wait and --wait-timeout cannot be used with --dryRun: nothing is created\n");
    equal(sandbox.requests.length, 0);
  });
});

Deno.test("create execution --wait: a poll the admin fails ends the wait saying the execution goes on, exit 1", async () => {
  await withSpec(async (sandbox, args) => {
    sandbox.failNext("GetExecution", Code.Internal);
    const run = await runFctlProcess(args("lost", "--wait"));
    equal(run.code, 1, run.stderr);
    equal(run.stdout, ID_LINE("lost"));
    const lines = run.stderr.trim().split("\n");
    equal(lines.length, 2, run.stderr);
    match(
      lines[1],
      /^Error: stopped waiting for execution lost, which goes on \(fctl get execution lost -p flytesnacks -d development shows it\): GetExecution failed: Internal: /,
    );
  });
});

Deno.test("create execution --wait: an aborted execution exits 1 with its cause", async () => {
  await withSpec(async (sandbox, args) => {
    sandbox.store.executions.plan({ execution: "stopped" }, { outcome: "never" });
    const running = runFctl(args("stopped", "--wait"));
    // Terminated once the wait has seen it running.
    while (!sandbox.requests.some((r) => r.method === "GetExecution")) await new Promise((r) => setTimeout(r, 20));
    const { withFullAdmin } = await import("./entity_fixtures.ts");
    await withFullAdmin(sandbox, async (admin) => {
      await admin.terminateExecution({
        id: { project: "flytesnacks", domain: "development", name: "stopped" },
        cause: "not needed",
      });
    });
    const run = await running;
    equal(run.code, 1, run.stderr);
    equal(run.stdout, ID_LINE("stopped"));
    match(run.stderr, /^using version v1\nexecution stopped: RUNNING, [^\n]*\nexecution stopped: ABORTED, /);
    ok(run.stderr.endsWith("Error: execution stopped ABORTED: not needed\n"), run.stderr);
  });
});

Deno.test("create execution --wait-timeout: exit 124, the execution goes on", async () => {
  await withSpec(async (sandbox, args) => {
    sandbox.store.executions.plan({ execution: "slow" }, { outcome: "never" });
    const run = await runFctl(args("slow", "--wait-timeout", "1s"));
    equal(run.code, 124, run.stderr);
    equal(run.stdout, ID_LINE("slow"));
    ok(
      run.stderr.endsWith(
        `Error: gave up waiting for execution slow after 1s (it is RUNNING); it goes on: terminate it with ${
          HINT("slow")
        }\n`,
      ),
      run.stderr,
    );
    equal(sandbox.store.executions.summaries().find((e) => e.name === "slow")?.phase, "RUNNING");
  });
});

Deno.test("create execution --wait: Ctrl-C stops waiting (exit 130) and says the execution goes on", async () => {
  await withSpec(async (sandbox, args) => {
    sandbox.store.executions.plan({ execution: "long" }, { outcome: "never" });
    const controller = new AbortController();
    const running = runFctl(args("long", "--wait"), { signal: controller.signal });
    while (!sandbox.requests.some((r) => r.method === "GetExecution")) await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    const run = await running;
    equal(run.code, 130, run.stderr);
    ok(
      run.stderr.endsWith(
        `Error: interrupted: stopped waiting; execution long goes on: terminate it with ${HINT("long")}\n`,
      ),
      run.stderr,
    );
    equal(sandbox.store.executions.summaries().find((e) => e.name === "long")?.phase, "RUNNING");
  });
});

Deno.test("create execution --wait on a terminal: one live line redrawn in place, the final phase left", async () => {
  await withSpec(async (sandbox, args) => {
    sandbox.store.executions.plan({ execution: "live" }, { after: 1200 });
    const run = await runFctl(args("live", "--wait"), { stderrIsTerminal: true, columns: 60 });
    equal(run.code, 0, run.stderr);
    const [version, ...draws] = run.stderr.split("\r\x1b[K");
    equal(version, "using version v1\n");
    ok(draws.length >= 2, run.stderr);
    for (const draw of draws.slice(0, -1)) {
      match(draw, /^execution live: (QUEUED|RUNNING), [^\n]*$/);
      ok(draw.length <= 59, `${JSON.stringify(draw)} is wider than the terminal's 60 columns less one`);
    }
    match(draws.at(-1)!, /^execution live: SUCCEEDED, [^\n]*\n$/);
  });
});

Deno.test("create execution --wait: fresh processes against the production-shaped admin exit 0 and 1", async () => {
  await withSpec(async (sandbox, args) => {
    sandbox.store.executions.plan({ execution: "prod-ok" }, { after: 1500 });
    sandbox.store.executions.plan({ execution: "prod-fail" }, { outcome: "FAILED", after: 500, message: "OOMKilled" });
    const ok0 = await runProductionProcess(sandbox, args("prod-ok", "--wait"));
    equal(ok0.code, 0, ok0.stderr);
    equal(ok0.stdout, ID_LINE("prod-ok"));
    // Piped: one line per phase, the final one last.
    match(
      ok0.stderr,
      /^using version v1\n(execution prod-ok: (QUEUED|RUNNING)[^\n]*\n)+execution prod-ok: SUCCEEDED, [^\n]*\n$/,
    );
    const failed = await runProductionProcess(sandbox, args("prod-fail", "--wait"));
    equal(failed.code, 1, failed.stderr);
    equal(failed.stdout, ID_LINE("prod-fail"));
    match(failed.stderr, /\nexecution prod-fail: FAILED, [^\n]*\nError: execution prod-fail FAILED: OOMKilled\n$/);
  }, true);
});
