/**
 * The auth interceptor against the sandbox's production profile (TLS from its CA, OAuth enforced, a real
 * authorization server) and against an admin without auth.
 */
import { deepEqual, equal, match, ok as assert, rejects } from "node:assert/strict";
import { AdminError } from "../admin/errors.ts";
import { REDACTED } from "../log/redact.ts";
import { type ProductionProfile, type Sandbox, SANDBOX_CLIENT, startSandbox } from "../sandbox/mod.ts";
import { authedClient, sharedStore } from "./_test_helpers.ts";
import { NotSupportedError, OperationError, UsageError } from "../errors.ts";

const scope = { id: { project: "flytesnacks", domain: "development" }, limit: 10 };
const SECRET_ENV = { FLYTE_SECRET: SANDBOX_CLIENT.secret };
const fromEnv = { clientSecretEnvVar: "FLYTE_SECRET" };

async function withProduction(
  fn: (sandbox: Sandbox) => Promise<void>,
  profile: ProductionProfile = {},
  now?: () => Date,
) {
  const sandbox = await startSandbox({ production: profile, now });
  try {
    await fn(sandbox);
  } finally {
    await sandbox.close();
  }
}

const methods = (sandbox: Sandbox, service?: string) =>
  sandbox.requests.filter((r) => !service || r.service === service).map((r) => r.method);
const grants = (sandbox: Sandbox) => sandbox.auth!.tokenRequests.map((r) => `${r.grantType} ${r.status}`);

Deno.test("auth: concurrent calls share one discovery and one token request, each retried once; later calls send it up front", async () => {
  await withProduction(async (sandbox) => {
    const authed = authedClient(sandbox, fromEnv, SECRET_ENV);
    try {
      const answers = await Promise.all(Array.from({ length: 8 }, () => authed.client.admin.listTasks(scope)));
      equal(answers.length, 8);
      equal(authed.sessionLoads(), 1, "the auth session loads once, on the first refusal");
      deepEqual(methods(sandbox, "AuthMetadataService").sort(), ["GetOAuth2Metadata", "GetPublicClientConfig"]);
      deepEqual(grants(sandbox), ["client_credentials 200"]);
      equal(methods(sandbox, "AdminService").length, 16, "8 rejected, 8 retried");
      sandbox.clearRequests();
      await authed.client.admin.listTasks(scope);
      await authed.client.dataProxy.createUploadLocation({
        project: "flytesnacks",
        domain: "development",
        filename: "source.tar.gz",
        contentMd5: new Uint8Array(16),
      });
      deepEqual(methods(sandbox), ["ListTasks", "CreateUploadLocation"]);
      deepEqual(grants(sandbox), ["client_credentials 200"]);
      equal(sandbox.auth!.tokenRequests[0].scope, "all", "the advertised scopes");
    } finally {
      authed.close();
    }
  });
});

Deno.test("auth: discovery's two calls overlap: GetPublicClientConfig is sent before GetOAuth2Metadata is answered", async () => {
  await withProduction(async (sandbox) => {
    const authed = authedClient(sandbox, fromEnv, SECRET_ENV);
    try {
      // Every call waits this long before it is answered: a client that sent the second discovery call only
      // after the first's answer would send it at least this long after the first.
      const latencyMs = 300;
      sandbox.setLatency(latencyMs);
      await authed.client.admin.listTasks(scope);
      const sent = (method: string) => sandbox.requests.find((r) => r.method === method)!.at;
      const apart = Math.abs(sent("GetPublicClientConfig") - sent("GetOAuth2Metadata"));
      assert(apart < latencyMs, `the discovery calls were sent ${apart} ms apart, one after the other's answer`);
      deepEqual(grants(sandbox), ["client_credentials 200"]);
    } finally {
      authed.close();
    }
  });
});

Deno.test("auth: an admin without auth costs nothing: no discovery, no token request, no HTTP client, no auth session", async () => {
  const sandbox = await startSandbox();
  const store = sharedStore();
  const authed = authedClient(sandbox, fromEnv, SECRET_ENV, undefined, { tokenStore: store });
  try {
    await Promise.all([authed.client.admin.listTasks(scope), authed.client.admin.listTasks(scope)]);
    await authed.client.admin.listTasks(scope);
    deepEqual(methods(sandbox), ["ListTasks", "ListTasks", "ListTasks"]);
    equal(authed.httpRequested(), 0);
    equal(authed.sessionLoads(), 0, "no token cached, none asked for: the flows, discovery and tokens never load");
    equal(store.loads, 1, "the token cache is read once");
    assert(authed.secrets.empty);
  } finally {
    authed.close();
    await sandbox.close();
  }
});

Deno.test("auth: a token cached by an earlier run goes with the first call: no refusal, no discovery, no grant", async () => {
  await withProduction(async (sandbox) => {
    const store = sharedStore();
    const first = authedClient(sandbox, fromEnv, SECRET_ENV, undefined, { tokenStore: store });
    try {
      await first.client.admin.listTasks(scope);
    } finally {
      first.close();
    }
    sandbox.clearRequests();
    const readsBefore = store.loads;
    const next = authedClient(sandbox, fromEnv, SECRET_ENV, undefined, { tokenStore: store });
    try {
      await next.client.admin.listTasks(scope);
      deepEqual(methods(sandbox), ["ListTasks"]);
      deepEqual(grants(sandbox), ["client_credentials 200"], "the earlier run's grant only");
      equal(next.sessionLoads(), 1);
      equal(store.loads - readsBefore, 1, "the cache read that found the token is the session's: one read");
    } finally {
      next.close();
    }
  });
});

Deno.test("auth: an expired cached token whose flow cannot run here does not fail a call to an admin without auth", async () => {
  const sandbox = await startSandbox();
  // A token cache left by an earlier admin on the same address, expired; the ClientSecret flow has no secret here.
  const store = sharedStore();
  store.token = { accessToken: "stale-token", refreshToken: "stale-refresh", expiresAt: 0 };
  const authed = authedClient(sandbox, { clientSecretLocation: "/nonexistent/client_secret" }, {}, undefined, {
    tokenStore: store,
  });
  try {
    await authed.client.admin.listTasks(scope);
    await authed.client.admin.listTasks(scope);
    deepEqual(methods(sandbox), ["ListTasks", "ListTasks"]);
    equal(authed.sessionLoads(), 1, "a cached token loads the auth session before the first call");
  } finally {
    authed.close();
    await sandbox.close();
  }
});

Deno.test("auth: a rejected token is replaced once (by its refresh token, else a new grant) and the call retried", async () => {
  await withProduction(async (sandbox) => {
    const authed = authedClient(sandbox, fromEnv, SECRET_ENV);
    try {
      await authed.client.admin.listTasks(scope);
      sandbox.auth!.revokeAll();
      sandbox.clearRequests();
      await Promise.all([authed.client.admin.listTasks(scope), authed.client.admin.listTasks(scope)]);
      deepEqual(grants(sandbox), ["client_credentials 200", "refresh_token 200"]);
      deepEqual(methods(sandbox), ["ListTasks", "ListTasks", "ListTasks", "ListTasks"]);
      sandbox.auth!.revokeAll({ refreshTokens: true });
      await authed.client.admin.listTasks(scope);
      deepEqual(grants(sandbox), [
        "client_credentials 200",
        "refresh_token 200",
        "refresh_token 400",
        "client_credentials 200",
      ]);
    } finally {
      authed.close();
    }
  });
});

Deno.test("auth: a refresh refused because another process used it first takes that process's token: no new grant", async () => {
  await withProduction(async (sandbox) => {
    // Two processes sharing one token cache, both holding the first one's token.
    const store = sharedStore();
    const a = authedClient(sandbox, fromEnv, SECRET_ENV, undefined, { tokenStore: store });
    const b = authedClient(sandbox, fromEnv, SECRET_ENV, undefined, { tokenStore: store });
    try {
      await a.client.admin.listTasks(scope);
      await b.client.admin.listTasks(scope);
      sandbox.auth!.revoke(store.token!.accessToken);
      // The other process refreshes (rotating the refresh token) between this one's look at the cache and its
      // own refresh, which the server then refuses.
      const loadsBefore = store.loads;
      const load = store.load;
      store.load = async () => {
        const seen = await load();
        if (store.loads === loadsBefore + 1) await a.client.admin.listTasks(scope);
        return seen;
      };
      await b.client.admin.listTasks(scope);
      deepEqual(grants(sandbox), ["client_credentials 200", "refresh_token 200", "refresh_token 400"]);
    } finally {
      a.close();
      b.close();
    }
  });
});

Deno.test("auth: a refresh token that does not rotate is kept and used again", async () => {
  await withProduction(async (sandbox) => {
    const authed = authedClient(sandbox, fromEnv, SECRET_ENV);
    try {
      await authed.client.admin.listTasks(scope);
      for (let i = 0; i < 2; i++) {
        sandbox.auth!.revokeAll();
        await authed.client.admin.listTasks(scope);
      }
      deepEqual(grants(sandbox), ["client_credentials 200", "refresh_token 200", "refresh_token 200"]);
    } finally {
      authed.close();
    }
  }, { rotateRefreshTokens: false });
});

Deno.test("auth: a token about to expire is refreshed before the call (admin.tokenRefreshWindow), with no rejected call", async () => {
  let now = Date.parse("2026-03-01T00:00:00Z");
  await withProduction(
    async (sandbox) => {
      const authed = authedClient(sandbox, { ...fromEnv, refreshWindowMs: 10_000 }, SECRET_ENV, () => now);
      try {
        await authed.client.admin.listTasks(scope);
        now += 45_000; // 15 s left: fresh
        sandbox.clearRequests();
        await authed.client.admin.listTasks(scope);
        deepEqual(grants(sandbox), ["client_credentials 200"]);
        now += 6_000; // 9 s left: within the window
        await authed.client.admin.listTasks(scope);
        deepEqual(grants(sandbox), ["client_credentials 200", "refresh_token 200"]);
        deepEqual(methods(sandbox), ["ListTasks", "ListTasks"], "nothing was rejected");
      } finally {
        authed.close();
      }
    },
    { tokenLifetimeSeconds: 60 },
    () => new Date(now),
  );
});

Deno.test("auth: admin.authorizationHeader, admin.tokenUrl and admin.scopes replace discovery entirely", async () => {
  await withProduction(async (sandbox) => {
    const authed = authedClient(sandbox, {
      ...fromEnv,
      authorizationHeader: "X-Flyte-Auth",
      tokenUrl: sandbox.auth!.tokenEndpoint,
      scopes: ["offline", "all"],
      audience: "https://flyte.example/api",
    }, SECRET_ENV);
    try {
      await authed.client.admin.listTasks(scope);
      deepEqual(methods(sandbox, "AuthMetadataService"), []);
      const [request] = sandbox.auth!.tokenRequests;
      deepEqual([request.scope, request.audience], ["offline all", "https://flyte.example/api"]);
    } finally {
      authed.close();
    }
  }, { authorizationMetadataKey: "x-flyte-auth" });
});

Deno.test("auth: the advertised metadata key and audience (admin.useAudienceFromAdmin); admin.authorizationServerUrl", async () => {
  await withProduction(async (sandbox) => {
    const authed = authedClient(sandbox, {
      ...fromEnv,
      audience: "ignored",
      useAudienceFromAdmin: true,
      authorizationServerUrl: sandbox.auth!.issuer,
    }, SECRET_ENV);
    try {
      await authed.client.admin.listTasks(scope);
      deepEqual(methods(sandbox, "AuthMetadataService"), ["GetPublicClientConfig"]);
      equal(sandbox.auth!.tokenRequests[0].audience, "https://admin.example/api");
    } finally {
      authed.close();
    }
  }, { authorizationMetadataKey: "custom-auth", audience: "https://admin.example/api" });
});

Deno.test("auth: ExternalCommand runs an argument vector with the run's environment; its trimmed stdout is the token", async () => {
  await withProduction(async (sandbox) => {
    const token = sandbox.auth!.issueToken();
    const command = ["sh", "-c", 'printf "  %s\\n\\n" "$MY_TOKEN"', "ignored-$0"];
    const authed = authedClient(sandbox, { authType: "ExternalCommand", command }, { MY_TOKEN: token });
    try {
      await Promise.all([authed.client.admin.listTasks(scope), authed.client.admin.listTasks(scope)]);
      deepEqual(sandbox.auth!.tokenRequests, []);
      equal(authed.sessionLoads(), 1);
      equal(authed.secrets.redact(`token ${token}`), `token ${REDACTED}`);
      assert(!authed.log().includes(token));
    } finally {
      authed.close();
    }
  });
});

Deno.test("auth: failures are one clear error naming what is wrong, the same for every call, nothing secret in it", async () => {
  await withProduction(async (sandbox) => {
    // A port nothing listens on, taken once the sandbox's own servers are up, so that none of them can be given it.
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const closedPort = (listener.addr as Deno.NetAddr).port;
    listener.close();
    const cases: [
      Record<string, unknown>,
      Record<string, string>,
      typeof OperationError | typeof UsageError,
      RegExp,
    ][] = [
      [
        fromEnv,
        {},
        UsageError,
        /^the environment variable "FLYTE_SECRET" named by admin.clientSecretEnvVar is not set$/,
      ],
      [
        { clientSecretLocation: "/nonexistent/secret" },
        {},
        UsageError,
        /^cannot read the client secret file "\/nonexistent\/secret" \(admin.clientSecretLocation\): no such file$/,
      ],
      [
        fromEnv,
        { FLYTE_SECRET: "wrong-secret-value" },
        OperationError,
        /^token request to https:\/\/127\.0\.0\.1:\d+\/oauth2\/token for client "flytepropeller" failed: invalid_client: client authentication failed \(HTTP 401\)$/,
      ],
      [
        { authType: "ExternalCommand", command: ["sh", "-c", "echo step one >&2; echo no vault for $KEY >&2; exit 3"] },
        { KEY: "vault-key-1234" },
        OperationError,
        // The program alone: its arguments may hold secrets.
        /^admin.command "sh" failed with exit status 3: step one \| no vault for vault-key-1234$/,
      ],
      [{ authType: "ExternalCommand", command: ["/nonexistent/fctl-token"] }, {}, OperationError, /no such program$/],
      [
        { authType: "ExternalCommand", command: ["true"] },
        {},
        OperationError,
        /^admin.command "true" printed no token$/,
      ],
      [
        // Plain HTTP while the admin is reached over TLS: only as asked (see plain_http_test.ts).
        {
          ...fromEnv,
          tokenUrl: `http://127.0.0.1:${closedPort}/oauth2/token?tenant=x`,
          allowInsecureTokenEndpoint: true,
        },
        SECRET_ENV,
        OperationError,
        new RegExp(
          `^token request to http://127\\.0\\.0\\.1:${closedPort}/oauth2/token for client "flytepropeller" failed: .*refused`,
          "i",
        ),
      ],
      [
        { authType: "Pkce" },
        {},
        NotSupportedError,
        /^admin.authType Pkce needs a user to sign in, and this run has none$/,
      ],
    ];
    for (const [settings, env, errorClass, message] of cases) {
      const authed = authedClient(sandbox, settings, env);
      try {
        for (let i = 0; i < 2; i++) {
          await rejects(authed.client.admin.listTasks(scope), (err: Error) => {
            assert(err instanceof errorClass && !(err instanceof AdminError), `${err.name}: ${err.message}`);
            match(err.message, message);
            assert(!err.message.includes("wrong-secret-value"));
            return true;
          });
        }
      } finally {
        authed.close();
      }
    }
    // One grant for the wrong secret (refused by HTTP Basic, then in the form: client_secret_post), though it was
    // called twice: the failure is kept.
    deepEqual(grants(sandbox), ["client_credentials 401", "client_credentials 401"]);
  });
});

Deno.test("auth: a token the admin still rejects fails the call after exactly one retry, naming the flow", async () => {
  await withProduction(async (sandbox) => {
    const authed = authedClient(sandbox, { authType: "ExternalCommand", command: ["echo", "not-a-valid-token"] });
    try {
      const err = await authed.client.admin.listTasks(scope).then(() => undefined, (e: unknown) => e);
      assert(err instanceof AdminError);
      equal(err.status, "Unauthenticated");
      match(
        err.message,
        /^connection to https:\/\/127\.0\.0\.1:\d+ \(insecure: false, auth: ExternalCommand\): ListTasks failed: Unauthenticated: the bearer token is invalid, expired or revoked \(check admin.authType and its credentials\)$/,
      );
      deepEqual(methods(sandbox, "AdminService"), ["ListTasks", "ListTasks"]);
    } finally {
      authed.close();
    }
  });
});
