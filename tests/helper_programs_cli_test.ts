/**
 * The programs fctl runs for a token (`admin.command`, `admin.proxyCommand`), broken or hostile, as a fresh
 * fctl under the declared permissions against the production-shaped sandbox (TLS, OAuth): every wait ends at
 * `admin.commandTimeout` with one line, the program and the processes it started are ended, the token is taken
 * when the program exits (not when a background child lets go of stdout), its output is bounded and shown
 * printably, and one Ctrl-C ends fctl at once (exit 130).
 */
import { equal, match, ok } from "node:assert/strict";
import { FCTL_RUN_FLAGS } from "../src/permissions.ts";
import { type Sandbox, startSandbox } from "../src/sandbox/mod.ts";
import { taskSpec } from "./task_fixtures.ts";
import { fctlMain } from "./helpers.ts";

/** What ships: the bundle of main.ts. */
const MAIN = await fctlMain();
/** Deno's cache, where the other subprocess runs keep it. */
const DENO_DIR = "/nonexistent-fctl-test-home/.cache/deno";
/** Generous: what should end within a few seconds must end within this, or the test fails (it never hangs). */
const BOUND_MS = 60_000;
/** `ps`-free liveness: /proc exists where these tests run the process checks. */
const LINUX = Deno.build.os === "linux";

interface Setup {
  sandbox: Sandbox;
  dir: string;
  /** `get task` against the sandbox, with the CA. */
  get: string[];
  /** A shell script in the test's directory. */
  script(name: string, body: string): Promise<string>;
  /** Runs fctl as a subprocess; with `interruptWhen`, sends it one SIGINT once that file (a pid file) is written. */
  fctl(args: string[], options?: { interruptWhen?: string }): Promise<Run>;
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** Milliseconds from the SIGINT (else from the start) to the exit. */
  ms: number;
}

async function withSandbox(
  production: Parameters<typeof startSandbox>[0],
  fn: (setup: Setup) => Promise<void>,
): Promise<void> {
  const sandbox = await startSandbox(production);
  const dir = await Deno.makeTempDir({ prefix: "fctl-helper-programs-" });
  try {
    const spec = taskSpec({ name: "core.sub.process", version: "v7" });
    sandbox.store.addTask({ id: spec.template!.id!, spec });
    await Deno.writeTextFile(`${dir}/ca.pem`, sandbox.caCertificate!);
    const get = ["get", "task", "core.sub.process", "--latest", "-o", "json", "-p", "flytesnacks", "-d", "development"];
    get.push("--admin.endpoint", sandbox.endpoint, "--admin.caCertFilePath", `${dir}/ca.pem`);
    const script = async (name: string, body: string) => {
      await Deno.writeTextFile(`${dir}/${name}`, `#!/bin/sh\n${body}\n`, { mode: 0o700 });
      return `${dir}/${name}`;
    };
    const fctl = (args: string[], options: { interruptWhen?: string } = {}) => runFctl(dir, args, options);
    await fn({ sandbox, dir, get, script, fctl });
  } finally {
    // What the scripts started goes with the test, also when it fails.
    for (const entry of Deno.readDirSync(dir)) {
      if (/\.pid(\.parent)?$/.test(entry.name)) stop(pidIn(`${dir}/${entry.name}`));
    }
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
}

async function runFctl(dir: string, args: string[], options: { interruptWhen?: string }): Promise<Run> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...FCTL_RUN_FLAGS, MAIN, ...args],
    // PATH: the scripts run `sleep`, `head` and `tr`; fctl hands its environment to the programs it runs.
    env: { HOME: `${dir}/no-home`, DENO_DIR, NO_COLOR: "1", PATH: "/usr/bin:/bin" },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stdout = new Response(child.stdout).text();
  const stderr = new Response(child.stderr).text();
  // Whatever happens, the test never waits for a hung fctl beyond the bound.
  const guard = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch {
      // It has just exited.
    }
  }, BOUND_MS);
  try {
    let from = Date.now();
    if (options.interruptWhen) {
      await until(() => exists(options.interruptWhen!), `${options.interruptWhen} to be written`);
      from = Date.now();
      child.kill("SIGINT");
    }
    const status = await child.status;
    return { code: status.code, stdout: await stdout, stderr: await stderr, ms: Date.now() - from };
  } finally {
    clearTimeout(guard);
  }
}

function exists(path: string): boolean {
  try {
    return Deno.statSync(path).size > 0;
  } catch {
    return false;
  }
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const end = Date.now() + BOUND_MS;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Whether process `pid` still runs (a zombie waiting for a parent that never reaps it does not). */
function running(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** The pid the script wrote to `path`. */
function pidIn(path: string): number {
  return Number(Deno.readTextFileSync(path).trim());
}

/** Ends what a test left running (a background child a program may leave, or what a failed test left). */
function stop(pid: number): void {
  try {
    Deno.kill(pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** The stderr of a failed run is exactly one `Error:` line; returns it. */
function oneErrorLine(run: Run): string {
  const lines = run.stderr.split("\n").filter(Boolean);
  equal(lines.length, 1, run.stderr);
  ok(lines[0].startsWith("Error: "), run.stderr);
  return lines[0];
}

/**
 * A script that starts a background `sleep` (its pid in `pidFile`, the script's own in `<pidFile>.parent`), then
 * waits for it forever.
 */
const hanging = (pidFile: string) => `echo $$ > "${pidFile}.parent"\nsleep 1000 &\necho $! > "${pidFile}"\nwait`;

Deno.test({
  name: "admin.command that never ends: ended with its children at admin.commandTimeout, one line, exit 1",
  ignore: !LINUX,
  fn: () =>
    withSandbox({ production: true }, async ({ dir, get, script, fctl }) => {
      const pidFile = `${dir}/grandchild.pid`;
      const hang = await script("hang.sh", hanging(pidFile));
      const run = await fctl([
        ...get,
        "--admin.authType",
        "ExternalCommand",
        "--admin.command",
        `${hang},--secret-arg=s3cr3t`,
        "--admin.commandTimeout",
        "2s",
      ]);
      equal(run.code, 1, run.stderr);
      equal(run.stdout, "");
      equal(
        oneErrorLine(run),
        `Error: admin.command "${hang}" gave no token within 2s (admin.commandTimeout): it was ended`,
      );
      ok(!run.stderr.includes("s3cr3t"), "the program's arguments are not shown");
      ok(!running(pidIn(pidFile)), "the program's background child is ended too");
    }),
});

Deno.test({
  name: "admin.proxyCommand that never ends: ended with its children at admin.commandTimeout, one line, exit 1",
  ignore: !LINUX,
  fn: () =>
    withSandbox({ production: { proxyAuthorization: "Bearer iap-token" } }, async ({ dir, get, script, fctl }) => {
      const pidFile = `${dir}/grandchild.pid`;
      const hang = await script("proxy.sh", hanging(pidFile));
      const run = await fctl([...get, "--admin.proxyCommand", hang, "--admin.commandTimeout", "1500ms"]);
      equal(run.code, 1, run.stderr);
      equal(
        oneErrorLine(run),
        `Error: admin.proxyCommand "${hang}" gave no token within 1.5s (admin.commandTimeout): it was ended`,
      );
      ok(!running(pidIn(pidFile)), "the program's background child is ended too");
    }),
});

Deno.test({
  name: "a program that prints its token and exits while a background child holds stdout: the token is used at once",
  ignore: !LINUX,
  fn: () =>
    withSandbox(
      { production: { proxyAuthorization: "Bearer iap-token" } },
      async ({ sandbox, dir, get, script, fctl }) => {
        const pids = [`${dir}/command-child.pid`, `${dir}/proxy-child.pid`];
        const token = await script(
          "token.sh",
          `sleep 1000 &\necho $! > "${pids[0]}"\necho "${sandbox.auth!.issueToken()}"`,
        );
        const proxy = await script("proxy.sh", `sleep 1000 &\necho $! > "${pids[1]}"\necho iap-token`);
        // The background children live 1000 s (the test ends them): a run waiting for them would hit the bound.
        const run = await fctl([
          ...get,
          ...["--admin.authType", "ExternalCommand", "--admin.command", token, "--admin.proxyCommand", proxy],
        ]);
        equal(run.stderr, "");
        equal(run.code, 0);
        equal(JSON.parse(run.stdout).id.version, "v7");
      },
    ),
});

Deno.test({
  name: "a program's output: more than 64 KiB is refused; stderr shown capped with control characters visible",
  ignore: !LINUX,
  fn: () =>
    withSandbox({ production: true }, async ({ get, script, fctl }) => {
      const external = (command: string) => [...get, "--admin.authType", "ExternalCommand", "--admin.command", command];
      const flood = await script("flood.sh", "head -c 5000000 /dev/zero | tr '\\0' a");
      const flooded = await fctl(external(flood));
      equal(flooded.code, 1, flooded.stderr);
      equal(
        oneErrorLine(flooded),
        `Error: admin.command "${flood}" printed more than 64 KiB: a token is one short line`,
      );

      const escapes = await script(
        "escapes.sh",
        `printf 'denied \\033[2J\\033]0;owned\\007 \\302\\233 done\\n' >&2\nexit 3`,
      );
      const escaped = await fctl(external(escapes));
      equal(escaped.code, 1, escaped.stderr);
      equal(
        oneErrorLine(escaped),
        `Error: admin.command "${escapes}" failed with exit status 3: denied \\x1b[2J\\x1b]0;owned\\x07 \\x9b done`,
      );

      const noisy = await script("noisy.sh", "head -c 3000000 /dev/zero | tr '\\0' x >&2\nexit 5");
      const noise = await fctl(external(noisy));
      equal(noise.code, 1, noise.stderr);
      const line = oneErrorLine(noise);
      match(line, /failed with exit status 5: …x+$/);
      ok(line.length < 600, `${line.length} characters`);

      const controlled = await script("controlled.sh", "printf 'tok\\033[0men'");
      const bad = await fctl(external(controlled));
      equal(bad.code, 1, bad.stderr);
      equal(
        oneErrorLine(bad),
        `Error: admin.command "${controlled}" printed characters a token cannot hold (control or non-ASCII)`,
      );
    }),
});

Deno.test({
  name: "one Ctrl-C while admin.command or admin.proxyCommand runs: exit 130 at once, one line, its processes ended",
  ignore: !LINUX,
  fn: () =>
    withSandbox({ production: { proxyAuthorization: "Bearer iap-token" } }, async ({ dir, get, script, fctl }) => {
      const cases = [
        ["admin.command", [
          "--admin.authType",
          "ExternalCommand",
          "--admin.proxyCommand",
          "/bin/echo,iap-token",
          "--admin.command",
        ]],
        ["admin.proxyCommand", ["--admin.proxyCommand"]],
      ] as const;
      for (const [key, flags] of cases) {
        const pidFile = `${dir}/${key}.pid`;
        const hang = await script(`${key}.sh`, hanging(pidFile));
        // Neither the command's limit nor an attempt's time limit ends the wait: only the Ctrl-C does.
        const run = await fctl([...get, ...flags, hang, "--admin.perRetryTimeout", "10m"], { interruptWhen: pidFile });
        equal(run.code, 130, `${key}: ${run.stderr}`);
        equal(oneErrorLine(run), `Error: interrupted while waiting for ${key} "${hang}"`);
        ok(run.ms < 10_000, `${key}: exited ${run.ms} ms after the Ctrl-C`);
        ok(!running(pidIn(pidFile)), `${key}: the program's background child is ended too`);
      }
    }),
});
