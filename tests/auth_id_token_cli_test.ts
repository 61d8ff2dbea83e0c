/**
 * Sign-ins with any identity provider's token answer, as a fresh fctl process under the declared permissions
 * meets them against a production-shaped admin (TLS from a test CA, OAuth enforced): Pkce and DeviceFlow whose
 * answers carry an id_token signed with HS256, ES256 or PS256 (which fctl never reads) and JWT access tokens
 * sign in; a refresh whose answer carries one spares a new sign-in; the browser's page says the sign-in
 * succeeded only once fctl holds the tokens, and why not when the code exchange fails. Nothing secret in any
 * output.
 */
import { equal, match, ok as assert } from "node:assert/strict";
import { followSignIn, freePort, waitFor } from "../src/auth/_test_helpers.ts";
import { FCTL_RUN_FLAGS } from "../src/permissions.ts";
import type { ProductionProfile, Sandbox } from "../src/sandbox/mod.ts";
import { productionAdmin } from "./entity_fixtures.ts";
import { fctlMain, type RunResult } from "./helpers.ts";

/** What ships: the bundle of main.ts. */
const MAIN = await fctlMain();
/** Deno's own cache, where the other subprocess runs keep it, whatever HOME a run has. */
const DENO_DIR = "/nonexistent-fctl-test-home/.cache/deno";
/** A token, code or device code of the sandbox, opaque or a JWT, as it could appear in output. */
const SANDBOX_SECRET = /\b(at|rt|ac|dc)-[A-Za-z0-9_-]{20,}|eyJ[\w-]+\.eyJ/;
/** What a browser asks the loopback server for. */
const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
/** The longest the test waits for a sign-in prompt of a fresh process (Deno's start included). */
const PROMPT_WAIT_MS = 60_000;

/** A running fctl process: its stderr so far, and its end. */
interface Running {
  stderr: () => string;
  result: Promise<RunResult>;
}

/** `fctl <args>` as a fresh process of main.ts under the declared permissions, `HOME` as given, no stdin. */
function spawnFctl(args: string[], home: string): Running {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...FCTL_RUN_FLAGS, MAIN, ...args],
    env: { HOME: home, DENO_DIR, NO_COLOR: "1" },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let stderr = "";
  const reading = child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({ write: (chunk) => void (stderr += chunk) }),
  );
  const stdout = new Response(child.stdout).text();
  const result = (async () => {
    const status = await child.status;
    await reading;
    return { code: status.code, stdout: await stdout, stderr };
  })();
  return { stderr: () => stderr, result };
}

interface Production {
  sandbox: Sandbox;
  /** `get task` of the seeded task with the endpoint and the test CA. */
  get: string[];
  /** A HOME of its own for each name: each is a fresh token cache. */
  home(name: string): Promise<string>;
}

async function withProduction(profile: ProductionProfile, fn: (p: Production) => Promise<void>): Promise<void> {
  await using admin = await productionAdmin({ production: profile }, "fctl-id-token-");
  const { sandbox, get, dir } = admin;
  const home = async (name: string) => {
    await Deno.mkdir(`${dir}/${name}`);
    return `${dir}/${name}`;
  };
  await fn({ sandbox, get, home });
}

function assertClean(result: RunResult, label: string): void {
  for (const text of [result.stdout, result.stderr]) assert(!SANDBOX_SECRET.test(text), `${label}: ${text}`);
}

const grants = (sandbox: Sandbox) => sandbox.auth!.tokenRequests.map((r) => `${r.grantType} ${r.status}`).join();

Deno.test("fresh fctl, Pkce: an HS256 id_token and a JWT access token sign in, the page says so only then; a refresh answered with a PS256 id_token spares a sign-in", async () => {
  const redirectUri = `http://localhost:${freePort()}/callback`;
  // The sandbox's default id_token for the code grant is HS256; `idToken` would apply to every grant.
  await withProduction({ redirectUri, accessTokens: "jwt" }, async ({ sandbox, get, home }) => {
    const cache = await home("home");
    const run = spawnFctl([...get, "--admin.authType", "Pkce", "--logger.level", "5"], cache);
    const [, url] = await waitFor(run.stderr, /^ {2}(https:\/\/\S+\/oauth2\/authorize\?\S+)$/m, PROMPT_WAIT_MS);
    const visit = await followSignIn(url, sandbox.caCertificate!, { accept: BROWSER_ACCEPT });
    equal(visit.status, 200);
    assert(visit.page.includes("<p>fctl is signed in. You can close this window.</p>"), visit.page);
    const result = await run.result;
    equal(result.code, 0, result.stderr);
    equal(JSON.parse(result.stdout).id.version, "v7");
    assertClean(result, "sign-in");
    equal(grants(sandbox), "authorization_code 200");
  });
  await withProduction({ redirectUri, idToken: "PS256" }, async ({ sandbox, get, home }) => {
    const cache = await home("home");
    const run = spawnFctl([...get, "--admin.authType", "Pkce"], cache);
    const [, url] = await waitFor(run.stderr, /^ {2}(https:\/\/\S+)$/m, PROMPT_WAIT_MS);
    await followSignIn(url, sandbox.caCertificate!);
    equal((await run.result).code, 0);
    // The cached access token no longer works: the refresh token, whose answer has a PS256 id_token, replaces it.
    sandbox.auth!.revokeAll();
    const again = await spawnFctl([...get, "--admin.authType", "Pkce"], cache).result;
    equal(again.code, 0, again.stderr);
    equal(again.stderr, "", "no new sign-in");
    equal(grants(sandbox), "authorization_code 200,refresh_token 200");
  });
});

Deno.test("fresh fctl, DeviceFlow: an ES256 id_token and a JWT access token sign in; so does a malformed id_token", async () => {
  for (const profile of [{ accessTokens: "jwt" }, { idToken: "malformed" }] as ProductionProfile[]) {
    const deviceFlow = { pendingPolls: 1, intervalSeconds: null };
    await withProduction({ ...profile, deviceFlow }, async ({ sandbox, get, home }) => {
      const flags = ["--admin.authType", "DeviceFlow", "--admin.deviceFlowConfig.pollInterval", "20ms"];
      const result = await spawnFctl([...get, ...flags, "--logger.level", "5"], await home("home")).result;
      equal(result.code, 0, result.stderr);
      equal(JSON.parse(result.stdout).id.version, "v7");
      match(result.stderr, /^Sign in to continue: visit https:\/\/\S+\/oauth2\/device and enter the code [B-Z]{4}-/m);
      assertClean(result, JSON.stringify(profile));
      const poll = "urn:ietf:params:oauth:grant-type:device_code";
      equal(grants(sandbox), `${poll} 400,${poll} 200`);
    });
  }
});

Deno.test("fresh fctl, Pkce: a code exchange the authorization server fails is what the browser's page says, and fctl's one error line", async () => {
  const redirectUri = `http://localhost:${freePort()}/callback`;
  await withProduction({ redirectUri }, async ({ sandbox, get, home }) => {
    const run = spawnFctl([...get, "--admin.authType", "Pkce"], await home("home"));
    const [, url] = await waitFor(run.stderr, /^ {2}(https:\/\/\S+)$/m, PROMPT_WAIT_MS);
    sandbox.auth!.failNextTokenRequests(1, 503);
    const visit = await followSignIn(url, sandbox.caCertificate!);
    const reason = `token request to ${sandbox.auth!.tokenEndpoint} for client "flytectl" failed: ` +
      "temporarily_unavailable: the authorization server is busy; try again (HTTP 503)";
    equal(visit.status, 500);
    equal(visit.page, `fctl sign-in failed: ${reason}\nYou can close this window.\n`);
    const result = await run.result;
    equal(result.code, 1);
    equal(result.stdout, "");
    match(result.stderr, /^Sign in to continue: .*\n {2}https:\S+\nError: (.*)\n$/);
    assert(result.stderr.endsWith(`\nError: ${reason}\n`), result.stderr);
    assertClean(result, "failed exchange");
  });
});
