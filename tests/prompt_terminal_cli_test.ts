/**
 * A y/n question on a real terminal: fctl as a fresh process whose stdin, stdout and stderr are a pseudo-terminal
 * (util-linux `script`), answered, or interrupted by typing Ctrl-C, which the terminal turns into SIGINT.
 */
import { equal, match, ok } from "node:assert/strict";
import { startSandbox } from "../src/sandbox/mod.ts";
import { CORE_WORKFLOW as WF, registerCore } from "./entity_fixtures.ts";
import { fctlProcessArgs, SUBPROCESS_HOME } from "./helpers.ts";

/** `text` quoted for `sh -c`. */
const shellQuoted = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * Runs `fctl <args>` on a pseudo-terminal, types `keys` once the question has been asked, and returns its exit
 * code and what the terminal showed; a run still going after `limitMs` is ended and reported as code -1.
 */
async function answerOnTerminal(args: string[], keys: string, limitMs = 20_000) {
  const command = [Deno.execPath(), ...await fctlProcessArgs(args)].map(shellQuoted).join(" ");
  const child = new Deno.Command("script", {
    args: ["--quiet", "--return", "--command", command, "/dev/null"],
    env: { HOME: SUBPROCESS_HOME, NO_COLOR: "1", PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", SHELL: "/bin/sh" },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  let shown = "";
  const decoder = new TextDecoder();
  const reading = (async () => {
    for await (const chunk of child.stdout) {
      shown += decoder.decode(chunk, { stream: true });
      if (shown.includes("[y/n]") && keys !== "") {
        await writer.write(new TextEncoder().encode(keys));
        keys = "";
      }
    }
  })();
  const limit = setTimeout(() => child.kill("SIGKILL"), limitMs);
  const status = await child.status;
  clearTimeout(limit);
  await reading;
  await writer.close().catch(() => {});
  await child.stderr.cancel();
  return { code: status.signal === "SIGKILL" ? -1 : status.code, shown };
}

Deno.test("a y/n question on a terminal: Ctrl-C ends the run at once (exit 130), nothing applied; y applies", async () => {
  const sandbox = await startSandbox();
  try {
    await registerCore(sandbox, ["v1"]);
    const args = [
      ...["update", "launchplan", WF, "--version", "v1", "--activate"],
      ...["-p", "flytesnacks", "-d", "development", "--admin.endpoint", sandbox.endpoint],
    ];
    sandbox.clearRequests();
    const started = Date.now();
    // ETX, what the Ctrl-C key sends: the terminal signals the foreground process with SIGINT.
    const interrupted = await answerOnTerminal(args, "\x03");
    equal(interrupted.code, 130, interrupted.shown);
    match(interrupted.shown, /Continue\? \[y\/n\]: .*Error: interrupted/s);
    ok(Date.now() - started < 15_000, "the run waited for an answer after Ctrl-C");
    equal(sandbox.requests.filter((r) => r.method === "UpdateLaunchPlan").length, 0);
    const applied = await answerOnTerminal(args, "y\r");
    equal(applied.code, 0, applied.shown);
    match(applied.shown, /updated launch plan .* to ACTIVE/);
    equal(sandbox.requests.filter((r) => r.method === "UpdateLaunchPlan").length, 1);
  } finally {
    await sandbox.close();
  }
});
