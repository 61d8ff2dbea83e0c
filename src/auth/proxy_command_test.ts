/**
 * `admin.proxyCommand` with the real command runner: one run shared by concurrent calls, the trimmed output
 * in `proxy-authorization` on each, registered as a secret first; a failure is the same one error for every call.
 */
import { deepEqual, equal, rejects, throws } from "node:assert/strict";
import type { UnaryRequest, UnaryResponse } from "@connectrpc/connect";
import { commandRunner } from "../app/run_command.ts";
import { Redactor } from "../log/redact.ts";
import { proxyCommandInterceptor } from "./proxy_command.ts";

async function script(dir: string, name: string, body: string): Promise<string> {
  const path = `${dir}/${name}`;
  await Deno.writeTextFile(path, `#!/bin/sh\n${body}\n`, { mode: 0o700 });
  return path;
}

/** What the next interceptor saw: the proxy header of each call. */
function sink() {
  const seen: (string | null)[] = [];
  const next = (req: UnaryRequest) => {
    seen.push(req.header.get("proxy-authorization"));
    return Promise.resolve({} as UnaryResponse);
  };
  return { seen, next };
}

const LIMITS = { timeoutMs: 60_000 };

const request = () => ({ header: new Headers() }) as UnaryRequest;

Deno.test("proxyCommand: concurrent calls share one run; every call carries the trimmed token", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const runs = `${dir}/runs`;
    const command = [await script(dir, "proxy.sh", `echo run >> "${runs}"\nsleep 0.2\necho "  iap-token-1  "`)];
    const secrets = new Redactor();
    const interceptor = proxyCommandInterceptor({ command, runCommand: commandRunner({}), limits: LIMITS, secrets });
    const { seen, next } = sink();
    const call = interceptor(next as never);
    await Promise.all(Array.from({ length: 5 }, () => call(request())));
    await call(request());
    deepEqual(seen, Array(6).fill("Bearer iap-token-1"));
    equal(await Deno.readTextFile(runs), "run\n");
    equal(secrets.redact("token iap-token-1"), "token [redacted]");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("proxyCommand: a failure names the program (not its arguments) with its stderr tail, for every call; empty is a usage error", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const failing = await script(dir, "fail.sh", `echo "not signed in" >&2\nexit 4`);
    const interceptor = proxyCommandInterceptor({
      command: [failing, "--audience", "x"],
      runCommand: commandRunner({}),
      limits: LIMITS,
      secrets: new Redactor(),
    });
    const { seen, next } = sink();
    const call = interceptor(next as never);
    const message = `admin.proxyCommand "${failing}" failed with exit status 4: not signed in`;
    await rejects(call(request()), (err: Error) => err.message === message);
    await rejects(call(request()), (err: Error) => err.message === message);
    equal(seen.length, 0, "no call is sent without the proxy's token");
    await rejects(
      proxyCommandInterceptor({
        command: [`${dir}/missing`],
        runCommand: commandRunner({}),
        limits: LIMITS,
        secrets: new Redactor(),
      })(
        next as never,
      )(request()),
      /cannot run admin\.proxyCommand ".*missing": no such program$/,
    );
    throws(
      () =>
        proxyCommandInterceptor({
          command: [],
          runCommand: commandRunner({}),
          limits: LIMITS,
          secrets: new Redactor(),
        }),
      /admin\.proxyCommand is empty/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
