/**
 * `runTokenCommand` with the real command runner: `admin.commandTimeout` 0s waits as long as the program runs,
 * a long stderr is shown by its tail, and a run whose signal has already aborted starts nothing.
 */
import { equal, rejects } from "node:assert/strict";
import { commandRunner } from "../app/run_command.ts";
import { InterruptedError } from "../errors.ts";
import { runTokenCommand } from "./external_command.ts";

async function withScript(body: string, fn: (path: string, dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/token.sh`, `#!/bin/sh\n${body}\n`, { mode: 0o700 });
    await fn(`${dir}/token.sh`, dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const run = commandRunner({ PATH: "/usr/bin:/bin" });

Deno.test("runTokenCommand: a timeout of 0s is none; the program's trimmed output is the token", async () => {
  await withScript("sleep 0.3\necho '  tok-1  '", async (path) => {
    equal(await runTokenCommand("admin.command", [path], run, { timeoutMs: 0 }), "tok-1");
  });
});

Deno.test("runTokenCommand: a long stderr shows its last 400 characters, on one line", async () => {
  await withScript("head -c 200000 /dev/zero | tr '\\0' x >&2\necho >&2\necho last words >&2\nexit 2", async (path) => {
    await rejects(runTokenCommand("admin.command", [path], run, { timeoutMs: 60_000 }), (err: Error) => {
      equal(err.message, `admin.command "${path}" failed with exit status 2: …${"x".repeat(386)} | last words`);
      return true;
    });
  });
});

Deno.test("runTokenCommand: after Ctrl-C the program is not started", async () => {
  await withScript('touch "$(dirname "$0")/ran"\necho tok', async (path, dir) => {
    const interrupt = new AbortController();
    interrupt.abort();
    await rejects(
      runTokenCommand("admin.proxyCommand", [path], run, { timeoutMs: 60_000, signal: interrupt.signal }),
      (err: Error) =>
        err instanceof InterruptedError && err.message === `interrupted while waiting for admin.proxyCommand "${path}"`,
    );
    await rejects(Deno.stat(`${dir}/ran`), Deno.errors.NotFound);
  });
});
