/**
 * The rule on plain-HTTP authorization servers, as every flow meets it through discovery: an admin reached over
 * TLS (the sandbox's production profile) that advertises an `http://` token endpoint (a recording server on
 * loopback) gets no credentials sent there by ClientSecret, Pkce or DeviceFlow, nor does a configured `http://`
 * `admin.tokenUrl` or `admin.authorizationServerUrl`; one clear line instead. `admin.allowInsecureTokenEndpoint`
 * and a plaintext admin allow it.
 */
import { equal, match, ok as assert, rejects } from "node:assert/strict";
import { AdminError } from "../admin/errors.ts";
import { OperationError, UsageError } from "../errors.ts";
import { type Sandbox, SANDBOX_CLIENT, startSandbox } from "../sandbox/mod.ts";
import { authedClient, promptSink } from "./_test_helpers.ts";
import { type PlainHttpServer, withPlainHttpServer } from "./_test_plain_http_server.ts";
import { shownUrl } from "../log/shown_url.ts";
import { refusePlainHttp } from "./plain_http.ts";
import type { AuthSettings } from "./settings.ts";

const scope = { id: { project: "flytesnacks", domain: "development" }, limit: 10 };
const SECRET_ENV = { FLYTE_SECRET: SANDBOX_CLIENT.secret };
const fromEnv = { clientSecretEnvVar: "FLYTE_SECRET" };

/** A TLS admin that advertises the recording server as its authorization server. */
async function withHostileAdmin(fn: (sandbox: Sandbox, server: PlainHttpServer) => Promise<void>): Promise<void> {
  await withPlainHttpServer(async (server) => {
    const sandbox = await startSandbox({ production: { advertisedIssuer: server.url } });
    try {
      await fn(sandbox, server);
    } finally {
      await sandbox.close();
    }
  });
}

/** Lists tasks with `settings`, expecting `errorClass` with `message`, twice (the failure is kept). */
async function refused(
  sandbox: Sandbox,
  settings: Partial<AuthSettings>,
  errorClass: typeof OperationError | typeof UsageError,
  message: RegExp,
): Promise<string> {
  const prompt = promptSink();
  const interactive = { prompt, terminal: false, signal: new AbortController().signal };
  const authed = authedClient(sandbox, settings, SECRET_ENV, undefined, { interactive });
  try {
    for (let i = 0; i < 2; i++) {
      await rejects(authed.client.admin.listTasks(scope), (err: Error) => {
        assert(err instanceof errorClass && !(err instanceof AdminError), `${err.name}: ${err.message}`);
        match(err.message, message);
        return true;
      });
    }
    return prompt.text();
  } finally {
    authed.close();
  }
}

Deno.test("plain http: no flow sends credentials to the http:// endpoints a TLS admin advertises; one line says why", async () => {
  await withHostileAdmin(async (sandbox, server) => {
    const token = `http://127\\.0\\.0\\.1:${new URL(server.url).port}/oauth2/token`;
    const refusal = (what: string, url: string) =>
      new RegExp(
        `^refusing to send credentials to the ${what} ${url} \\(advertised by the admin service\\) over plain HTTP ` +
          `while the admin is reached over TLS; set admin\\.allowInsecureTokenEndpoint to allow it$`,
      );
    await refused(sandbox, fromEnv, OperationError, refusal("token endpoint", token));
    equal(await refused(sandbox, { authType: "Pkce" }, OperationError, refusal("token endpoint", token)), "");
    equal(await refused(sandbox, { authType: "DeviceFlow" }, OperationError, refusal("token endpoint", token)), "");
    equal(server.requests.length, 0, "nothing was sent to the plain-HTTP server");
    equal(sandbox.auth!.tokenRequests.length, 0);
  });
});

Deno.test("plain http: a DeviceFlow device authorization endpoint over http:// is refused, though the token endpoint is https", async () => {
  await withHostileAdmin(async (sandbox, server) => {
    const device = `http://127\\.0\\.0\\.1:${new URL(server.url).port}/oauth2/device/authorize`;
    const prompt = await refused(
      sandbox,
      { authType: "DeviceFlow", tokenUrl: sandbox.auth!.tokenEndpoint },
      OperationError,
      new RegExp(
        `^refusing to send credentials to the device authorization endpoint ${device} \\(advertised by the admin ` +
          `service\\) over plain HTTP while the admin is reached over TLS; set admin\\.allowInsecureTokenEndpoint`,
      ),
    );
    equal(prompt, "", "no code was asked for, none shown");
    equal(server.requests.length, 0);
  });
});

Deno.test("plain http: an http:// admin.tokenUrl or admin.authorizationServerUrl is a configuration error, named without its query", async () => {
  await withHostileAdmin(async (sandbox, server) => {
    const port = new URL(server.url).port;
    await refused(
      sandbox,
      { ...fromEnv, tokenUrl: `http://user:pw-1234@127.0.0.1:${port}/oauth2/token?secret=q-1234` },
      UsageError,
      new RegExp(
        `^refusing to send credentials to the token endpoint http://127\\.0\\.0\\.1:${port}/oauth2/token ` +
          `\\(admin\\.tokenUrl\\) over plain HTTP while the admin is reached over TLS; ` +
          `set admin\\.allowInsecureTokenEndpoint to allow it$`,
      ),
    );
    // Whoever rewrites the metadata on the way chooses where credentials go: it is not read over plain HTTP either.
    await refused(
      sandbox,
      { ...fromEnv, authorizationServerUrl: `${server.url}?tenant=t-1234` },
      UsageError,
      new RegExp(
        `^refusing to read the authorization server metadata \\(where credentials go\\) at http://127\\.0\\.0\\.1:` +
          `${port}/ \\(admin\\.authorizationServerUrl\\) over plain HTTP while the admin is reached over TLS; `,
      ),
    );
    equal(server.requests.length, 0);
  });
});

Deno.test("plain http: admin.allowInsecureTokenEndpoint sends them there, as asked", async () => {
  await withHostileAdmin(async (sandbox, server) => {
    await refused(
      sandbox,
      { ...fromEnv, allowInsecureTokenEndpoint: true },
      OperationError,
      /^token request to http:\/\/127\.0\.0\.1:\d+\/oauth2\/token for client "flytepropeller" failed: invalid_client/,
    );
    // HTTP Basic, then the form (client_secret_post); the refusal is kept for the second call.
    equal(server.requests.length, 2, "the one refusal is kept");
    equal(server.requests[0].method, "POST");
    match(server.requests[0].authorization, /^Basic /);
    match(server.requests[1].body, /(^|&)client_secret=/);
  });
});

Deno.test("plain http: the rule itself: https passes, a plaintext admin or the option allows http, a refusal names the source", () => {
  const action = "send credentials to the token endpoint";
  const strict = { adminInsecure: false, allowInsecureTokenEndpoint: false };
  refusePlainHttp({ url: "https://idp.example/token", action, from: { option: "admin.tokenUrl" } }, strict);
  const http = { url: "http://idp.example/token?k=v", action, from: { advertisedBy: "the admin service" } };
  refusePlainHttp(http, { ...strict, adminInsecure: true });
  refusePlainHttp(http, { ...strict, allowInsecureTokenEndpoint: true });
  try {
    refusePlainHttp(http, strict);
    assert(false, "not refused");
  } catch (err) {
    assert(err instanceof OperationError && !(err instanceof UsageError));
    match(err.message, /the token endpoint http:\/\/idp\.example\/token \(advertised by the admin service\) over/);
  }
  equal(shownUrl("https://u:p@idp.example:8443/t?secret=x#y"), "https://idp.example:8443/t");
  equal(shownUrl("https://idp.example"), "https://idp.example", "as written when there is nothing to hide");
  equal(shownUrl("not a url?secret=x"), "not a url");
});
