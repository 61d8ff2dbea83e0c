/**
 * Sign-ins against what real identity providers send, as fresh fctl processes under the declared permissions
 * against a production-shaped admin (the sandbox's production profile: TLS from a test CA, OAuth enforced): the
 * device authorization answers of Google (`verification_url`), Azure AD v1 (numbers as strings too) and older Dex
 * (no JSON content type, `authorization_pending` as HTTP 401); a provider
 * without a default audience, where DeviceFlow must ask for the one the admin advertises; a provider under load, or
 * the proxy in front of it answering its own pages; tokens shorter-lived than the flows' refresh time.
 */
import { equal, match } from "node:assert/strict";
import { type ProductionProfile, type Sandbox, SANDBOX_CLIENT } from "../src/sandbox/mod.ts";
import { productionAdmin } from "./entity_fixtures.ts";
import { runFctlProcess, type RunResult } from "./helpers.ts";

interface Production {
  sandbox: Sandbox;
  /** `get task core.sub.process` with the endpoint and the test CA. */
  get: string[];
  /** Runs fctl with a `HOME` of its own (no token cached by another run), or `home`. */
  run(args: string[], home?: string): Promise<RunResult>;
  /** A directory removed at the end. */
  dir: string;
}

async function withProduction(profile: ProductionProfile, fn: (p: Production) => Promise<void>): Promise<void> {
  await using admin = await productionAdmin({ production: profile }, "fctl-auth-providers-");
  const { sandbox, get, dir } = admin;
  const run = async (args: string[], home?: string) =>
    runFctlProcess(args, { HOME: home ?? await Deno.makeTempDir({ dir }), FLYTE_SECRET: SANDBOX_CLIENT.secret });
  await fn({ sandbox, get, run, dir });
}

/** DeviceFlow, polling every 20 ms when the server names no interval. */
const DEVICE_FLOW = ["--admin.authType", "DeviceFlow", "--admin.deviceFlowConfig.pollInterval", "20ms"];

const DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

Deno.test("fctl DeviceFlow against Google's, Azure AD v1's and Dex's device answers (verification_url, numbers as strings, text/plain, pending as 401) signs in", async () => {
  await withProduction({}, async ({ sandbox, get, run }) => {
    for (const dialect of ["google", "azure-v1", "dex"] as const) {
      const intervalSeconds = dialect === "azure-v1" ? 1 : null;
      sandbox.auth!.interactive.deviceFlow = { dialect, intervalSeconds, pendingPolls: 1, completeUri: false };
      const result = await run([...get, ...DEVICE_FLOW]);
      equal(result.code, 0, `${dialect}: ${result.stderr}`);
      equal(JSON.parse(result.stdout).id.version, "v7");
      match(
        result.stderr,
        /^Sign in to continue: visit https:\/\/127\.0\.0\.1:\d+\/oauth2\/device and enter the code [B-Z]{4}-[B-Z]{4} \(waiting 10m0s\)\n$/,
        dialect,
      );
    }
  });
});

Deno.test("fctl DeviceFlow asks for the audience the admin advertises, as flytectl does: a provider without a default audience signs in to the admin", async () => {
  const audience = "https://flyte.example.com/api";
  await withProduction({ audience, deviceFlow: { audience, intervalSeconds: null } }, async ({ sandbox, get, run }) => {
    const result = await run([...get, ...DEVICE_FLOW]);
    equal(result.code, 0, result.stderr);
    equal(JSON.parse(result.stdout).id.version, "v7");
    equal(sandbox.auth!.tokenRequests.map((r) => `${r.grantType} ${r.status}`).join(), `${DEVICE_CODE_GRANT} 200`);

    // admin.audience, when set, is what is asked for: here the provider's own, which the admin refuses.
    const own = await run([...get, ...DEVICE_FLOW, "--admin.audience", "https://idp.example.com/userinfo"]);
    equal(own.code, 1);
    match(own.stderr, /ListTasks failed: Unauthenticated: the bearer token is invalid, expired or revoked/);
  });
});

Deno.test("fctl DeviceFlow against a provider under load: a busy device authorization is asked again, busy polls (429, 503 with Retry-After) are polled again", async () => {
  await withProduction({}, async ({ sandbox, get, run }) => {
    for (const status of [429, 503]) {
      const busy = { authorizations: 1, polls: 2, status, retryAfterSeconds: 0 };
      sandbox.auth!.interactive.deviceFlow = { intervalSeconds: null, busy };
      sandbox.auth!.tokenRequests.splice(0);
      const result = await run([...get, ...DEVICE_FLOW]);
      equal(result.code, 0, `${status}: ${result.stderr}`);
      equal(JSON.parse(result.stdout).id.version, "v7");
      equal(sandbox.auth!.tokenRequests.map((r) => r.status).join(), `${status},${status},200`);
      equal(busy.authorizations, 0, "the busy device authorization was asked again");
    }

    // Busy to the end: the timeout says whose the wait was.
    sandbox.auth!.interactive.deviceFlow = { intervalSeconds: null, busy: { polls: 1_000, status: 503 } };
    const busy = await run([...get, ...DEVICE_FLOW, "--admin.deviceFlowConfig.timeout", "1s"]);
    equal(busy.code, 1);
    match(
      busy.stderr,
      /\nError: the sign-in with code [B-Z]{4}-[B-Z]{4} was not approved within 1s \(admin.deviceFlowConfig.timeout\); the token endpoint https:\/\/127\.0\.0\.1:\d+\/oauth2\/token answered the last poll HTTP 503 \(busy\)\n$/,
    );
  });
});

Deno.test("fctl ClientSecret whose token endpoint's proxy answers its HTML page, and DeviceFlow rate-limited to the end: one line with what the page or body says", async () => {
  await withProduction({}, async ({ sandbox, get, run }) => {
    sandbox.auth!.failNextTokenRequests(2, 502);
    const secret = ["--admin.clientSecretEnvVar", "FLYTE_SECRET", "--admin.maxRetries", "2"];
    const gateway = await run([...get, ...secret]);
    equal(gateway.code, 1);
    equal(gateway.stdout, "");
    equal(
      gateway.stderr,
      `Error: token request to ${sandbox.auth!.tokenEndpoint} for client "flytepropeller" failed: ` +
        `an HTML page titled "502 Bad Gateway" (HTTP 502)\n`,
    );

    // Okta's rate limit answer is JSON without OAuth's error: its summary says what happened.
    sandbox.auth!.interactive.deviceFlow = { busy: { authorizations: 9, status: 429 } };
    const limited = await run([...get, ...DEVICE_FLOW, "--admin.maxRetries", "1"]);
    equal(limited.code, 1);
    match(
      limited.stderr,
      /^Error: device authorization request to \S+ for client "flytectl" failed: API call exceeded rate limit due to too many requests\. \(HTTP 429\)\n$/,
    );
  });
});

Deno.test("fctl DeviceFlow and Pkce tokens that live no longer than the refresh time (Keycloak's 5 minutes) are used from the cache, not renewed at once", async () => {
  const profile = { tokenLifetimeSeconds: 300, refreshTokens: false, deviceFlow: { intervalSeconds: null } };
  await withProduction(profile, async ({ sandbox, get, run, dir }) => {
    const home = await Deno.makeTempDir({ dir });
    const first = await run([...get, ...DEVICE_FLOW], home);
    equal(first.code, 0, first.stderr);
    match(first.stderr, /^Sign in to continue: /);
    const again = await run([...get, ...DEVICE_FLOW], home);
    equal(again.code, 0, again.stderr);
    equal(again.stderr, "", "the cached token, still valid for minutes, is used: no new sign-in");
    equal(JSON.parse(again.stdout).id.version, "v7");
    equal(sandbox.auth!.tokenRequests.length, 1);
  });
});

Deno.test("fctl ClientSecret against an application set up for client_secret_post (Okta, Auth0) signs in, as flytectl's HTTP library does: Basic refused, the form accepted", async () => {
  await withProduction({ clientAuthentication: "client_secret_post" }, async ({ sandbox, get, run, dir }) => {
    const home = await Deno.makeTempDir({ dir });
    const secret = ["--admin.clientSecretEnvVar", "FLYTE_SECRET", "--logger.level", "5"];
    const result = await run([...get, ...secret], home);
    equal(result.code, 0, result.stderr);
    equal(JSON.parse(result.stdout).id.version, "v7");
    const grants = () => sandbox.auth!.tokenRequests.map((r) => `${r.grantType} ${r.status}`).join();
    equal(grants(), "client_credentials 401,client_credentials 200");
    equal(result.stderr.includes(SANDBOX_CLIENT.secret), false);

    // The next run's refresh of the cached token: refused by HTTP Basic, then the form spends the refresh token.
    sandbox.auth!.revokeAll();
    const refreshed = await run([...get, ...secret], home);
    equal(refreshed.code, 0, refreshed.stderr);
    equal(grants(), "client_credentials 401,client_credentials 200,refresh_token 401,refresh_token 200");
    equal(refreshed.stderr.includes(SANDBOX_CLIENT.secret), false);
  });
});

Deno.test("fctl with admin.authorizationServerUrl at a provider that serves only OpenID Connect's metadata (Azure AD, Google) reads it there", async () => {
  await withProduction({ metadataDocuments: "openid" }, async ({ sandbox, get, run }) => {
    const issuer = [
      "--admin.authorizationServerUrl",
      sandbox.auth!.issuer,
      "--admin.clientSecretEnvVar",
      "FLYTE_SECRET",
    ];
    const result = await run([...get, ...issuer]);
    equal(result.code, 0, result.stderr);
    equal(JSON.parse(result.stdout).id.version, "v7");

    const nowhere = await run([...get, ...issuer.slice(0, 1), `${sandbox.auth!.issuer}/nowhere`, ...issuer.slice(2)]);
    equal(nowhere.code, 1);
    equal(
      nowhere.stderr,
      `Error: cannot read the authorization server metadata at ${
        sandbox.auth!.issuer
      }/nowhere/.well-known/oauth-authorization-server: HTTP 404 (nor at .../.well-known/openid-configuration: HTTP 404)\n`,
    );
  });
});

Deno.test("fctl ClientSecret and its refresh take the token answers of Keycloak, Azure AD v1 and Dex (another scope, times as strings, bearer in lower case)", async () => {
  for (const tokenAnswers of ["keycloak", "azure-v1", "dex"] as const) {
    await withProduction({ tokenAnswers, tokenLifetimeSeconds: 600 }, async ({ sandbox, get, run, dir }) => {
      const home = await Deno.makeTempDir({ dir });
      const secret = ["--admin.clientSecretEnvVar", "FLYTE_SECRET", "--admin.scopes", "all"];
      const first = await run([...get, ...secret], home);
      equal(first.code, 0, `${tokenAnswers}: ${first.stderr}`);
      equal(JSON.parse(first.stdout).id.version, "v7");
      sandbox.auth!.revokeAll();
      const refreshed = await run([...get, ...secret], home);
      equal(refreshed.code, 0, `${tokenAnswers}: ${refreshed.stderr}`);
      equal(
        sandbox.auth!.tokenRequests.map((r) => `${r.grantType} ${r.status}`).join(),
        "client_credentials 200,refresh_token 200",
        tokenAnswers,
      );
    });
  }
});
