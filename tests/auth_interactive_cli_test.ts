/**
 * fctl's interactive sign-ins against a production-shaped admin, through the real command graph: `get task`
 * with Pkce (the test follows the URL fctl prints, as a browser would) and with DeviceFlow; the token cached
 * under `$HOME` spares the next run a sign-in; nothing secret in any output at debug level.
 */
import { equal, match, ok as assert } from "node:assert/strict";
import { followSignIn, freePort, waitFor } from "../src/auth/_test_helpers.ts";
import { runCli } from "../src/cli/run.ts";
import { type ProductionProfile, type Sandbox, startSandbox } from "../src/sandbox/mod.ts";
import { captureIo } from "./helpers.ts";
import { taskSpec } from "./task_fixtures.ts";

/** A token, code or device code of the sandbox's authorization server, as it could appear in output. */
const SANDBOX_SECRET = /\b(at|rt|ac|dc)-[A-Za-z0-9_-]{20,}/;

interface Interactive {
  sandbox: Sandbox;
  home: string;
  /** `get task` of the seeded task, with the endpoint and CA flags. */
  get: string[];
}

async function withInteractive(profile: ProductionProfile, fn: (p: Interactive) => Promise<void>): Promise<void> {
  const sandbox = await startSandbox({ production: profile });
  const dir = await Deno.makeTempDir({ prefix: "fctl-auth-interactive-" });
  try {
    await Deno.writeTextFile(`${dir}/ca.pem`, sandbox.caCertificate!);
    await Deno.mkdir(`${dir}/home`);
    const spec = taskSpec({ name: "core.sub.process", version: "v7" });
    sandbox.store.addTask({ id: spec.template!.id!, spec });
    const get = ["get", "task", "core.sub.process", "--latest", "-o", "json", "-p", "flytesnacks", "-d", "development"];
    get.push("--admin.endpoint", sandbox.endpoint, "--admin.caCertFilePath", `${dir}/ca.pem`);
    await fn({ sandbox, home: `${dir}/home`, get });
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** Starts fctl in process; stderr can be read while it runs. */
function start(args: string[], home: string) {
  const io = captureIo({ env: { HOME: home } });
  const code = runCli(args, io);
  return { code, stdout: io.out, stderr: io.err };
}

function assertClean(texts: string[], label: string): void {
  for (const text of texts) assert(!SANDBOX_SECRET.test(text), `${label}: a secret in ${JSON.stringify(text)}`);
}

Deno.test("fctl get task --admin.authType Pkce: the printed URL, followed like a browser, signs in; the next run uses the cached token", async () => {
  const redirectUri = `http://localhost:${freePort()}/callback`;
  await withInteractive({ redirectUri }, async ({ sandbox, home, get }) => {
    const run = start([...get, "--admin.authType", "Pkce", "--logger.level", "5"], home);
    const [, url] = await waitFor(run.stderr, /^ {2}(https:\/\/\S+\/oauth2\/authorize\?\S+)$/m);
    const visit = await followSignIn(url, sandbox.caCertificate!);
    equal(visit.page, "fctl is signed in. You can close this window.\n");
    equal(await run.code, 0, run.stderr());
    equal(JSON.parse(run.stdout()).id.version, "v7");
    match(run.stderr(), /Sign in to continue: open this URL in a browser \(waiting 2m0s\):\n/);
    assertClean([run.stdout(), run.stderr()], "sign-in");
    const code = new URL(visit.location!).searchParams.get("code")!;
    assert(!run.stderr().includes(code));
    equal(sandbox.auth!.tokenRequests.map((r) => `${r.grantType} ${r.status}`).join(), "authorization_code 200");

    sandbox.clearRequests();
    const again = start([...get, "--admin.authType", "Pkce"], home);
    equal(await again.code, 0, again.stderr());
    equal(again.stderr(), "", "no sign-in: the cached token");
    equal(sandbox.requests.map((r) => r.method).join(), "ListTasks");
    equal(sandbox.auth!.tokenRequests.length, 1);

    // The token speaks for the user who signed in, as an identity provider's does, not for fctl's public client.
    const connection = get.slice(get.indexOf("--admin.endpoint"));
    const status = start(["auth", "status", "-o", "json", "--admin.authType", "Pkce", ...connection], home);
    equal(await status.code, 0, status.stderr());
    equal(JSON.parse(status.stdout()).identity, "sandbox-user");
  });
});

Deno.test("fctl get task --admin.authType DeviceFlow: the code is printed, the poll waits at the configured interval, approval signs in; a denial is one line", async () => {
  const deviceFlow = { pendingPolls: 1, intervalSeconds: null };
  await withInteractive({ deviceFlow }, async ({ sandbox, home, get }) => {
    const flags = ["--admin.authType", "DeviceFlow", "--admin.deviceFlowConfig.pollInterval", "20ms"];
    const run = start([...get, ...flags, "--logger.level", "5"], home);
    equal(await run.code, 0, run.stderr());
    equal(JSON.parse(run.stdout()).id.version, "v7");
    match(
      run.stderr(),
      /Sign in to continue: visit https:\/\/\S+\/oauth2\/device and enter the code [B-Z]{4}-[B-Z]{4} /,
    );
    assertClean([run.stdout(), run.stderr()], "device sign-in");
    equal(
      sandbox.auth!.tokenRequests.map((r) => r.status).join(),
      "400,200",
      "one authorization_pending, then the token",
    );

    sandbox.auth!.interactive.deviceFlow = { outcome: "deny", intervalSeconds: null };
    const denied = start([...get, ...flags], `${home}/elsewhere`);
    equal(await denied.code, 1);
    equal(denied.stdout(), "");
    match(
      denied.stderr(),
      /^Sign in to continue: .*\n {2}or open \S+\nError: the sign-in with code [B-Z]{4}-[B-Z]{4} was denied \(access_denied\)\n$/,
    );
  });
});
