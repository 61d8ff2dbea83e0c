/**
 * The sandbox's production profile: TLS from its own CA, OAuth enforced on the admin's services, discovery
 * through AuthMetadataService, and a real authorization server (client credentials, refresh, revocation,
 * expiry).
 */
import { deepEqual, equal, match, ok as assert } from "node:assert/strict";
import { createHash } from "node:crypto";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { createAdminClient } from "../admin/client.ts";
import { AuthMetadataService } from "../../proto/gen/flyteidl/service/auth_pb.ts";
import { adminError, DOMAIN, PROJECT } from "./_test_helpers.ts";
import { type Sandbox, SANDBOX_CLIENT, startSandbox } from "./mod.ts";

const scope = { id: { project: PROJECT, domain: DOMAIN }, limit: 10 };

async function withProduction(
  fn: (sandbox: Sandbox, fetchTls: typeof fetch) => Promise<void>,
  now?: () => Date,
): Promise<void> {
  const sandbox = await startSandbox({ production: { tokenLifetimeSeconds: 60 }, now });
  const client = Deno.createHttpClient({ caCerts: [sandbox.caCertificate!] });
  const fetchTls: typeof fetch = (input, init) => fetch(input, { ...init, client });
  try {
    await fn(sandbox, fetchTls);
  } finally {
    client.close();
    await sandbox.close();
  }
}

function adminWithHeader(sandbox: Sandbox, header?: Record<string, string>) {
  return createAdminClient({
    endpoint: sandbox.endpoint,
    caCertificates: sandbox.caCertificate,
    interceptors: [(next) => (req) => {
      for (const [k, v] of Object.entries(header ?? {})) req.header.set(k, v);
      return next(req);
    }],
  });
}

async function clientCredentials(fetchTls: typeof fetch, url: string, secret: string = SANDBOX_CLIENT.secret) {
  const res = await fetchTls(url, {
    method: "POST",
    headers: {
      authorization: `Basic ${btoa(`${SANDBOX_CLIENT.id}:${secret}`)}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: "grant_type=client_credentials&scope=all",
  });
  return { status: res.status, body: await res.json() };
}

Deno.test("production sandbox: TLS from its CA; calls without a token are UNAUTHENTICATED, with one they work", async () => {
  await withProduction(async (sandbox, fetchTls) => {
    match(sandbox.endpoint, /^https:\/\/127\.0\.0\.1:\d+$/);
    match(sandbox.caCertificate!, /^-----BEGIN CERTIFICATE-----/);
    const anonymous = adminWithHeader(sandbox);
    try {
      const err = await adminError(anonymous.admin.listTasks(scope));
      equal(err.status, "Unauthenticated");
      match(err.serverMessage, /no bearer token in the "flyte-authorization" metadata/);
      equal(
        (await adminError(anonymous.dataProxy.createUploadLocation({ project: PROJECT }))).status,
        "Unauthenticated",
      );
    } finally {
      anonymous.close();
    }
    const { status, body } = await clientCredentials(fetchTls, sandbox.auth!.tokenEndpoint);
    equal(status, 200);
    equal(body.token_type, "Bearer");
    equal(body.expires_in, 60);
    assert(body.refresh_token);
    const authed = adminWithHeader(sandbox, { "flyte-authorization": `Bearer ${body.access_token}` });
    try {
      deepEqual((await authed.admin.listTasks(scope)).tasks, []);
      sandbox.auth!.revoke(body.access_token);
      const err = await adminError(authed.admin.listTasks(scope));
      equal(err.status, "Unauthenticated");
      match(err.serverMessage, /invalid, expired or revoked/);
    } finally {
      authed.close();
    }
    deepEqual(sandbox.auth!.tokenRequests.map((r) => [r.grantType, r.clientId, r.scope, r.status]), [
      ["client_credentials", SANDBOX_CLIENT.id, "all", 200],
    ]);
    // Rejected calls are recorded too.
    deepEqual(sandbox.requests.map((r) => r.method), ["ListTasks", "CreateUploadLocation", "ListTasks", "ListTasks"]);
  });
});

Deno.test("production sandbox: a wrong secret is invalid_client; refresh tokens rotate; tokens expire on the sandbox clock", async () => {
  let now = Date.parse("2026-01-01T00:00:00Z");
  await withProduction(async (sandbox, fetchTls) => {
    const wrong = await clientCredentials(fetchTls, sandbox.auth!.tokenEndpoint, "not-the-secret");
    deepEqual([wrong.status, wrong.body.error], [401, "invalid_client"]);
    const first = await clientCredentials(fetchTls, sandbox.auth!.tokenEndpoint);
    const refresh = (token: string) =>
      fetchTls(sandbox.auth!.tokenEndpoint, {
        method: "POST",
        headers: { authorization: `Basic ${btoa(`${SANDBOX_CLIENT.id}:${SANDBOX_CLIENT.secret}`)}` },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: token }),
      });
    const refreshed = await refresh(first.body.refresh_token);
    equal(refreshed.status, 200);
    const second = await refreshed.json();
    assert(second.access_token !== first.body.access_token);
    const reused = await refresh(first.body.refresh_token);
    deepEqual([reused.status, (await reused.json()).error], [400, "invalid_grant"]);

    const client = adminWithHeader(sandbox, { "flyte-authorization": `Bearer ${second.access_token}` });
    try {
      await client.admin.listTasks(scope);
      now += 61_000;
      equal((await adminError(client.admin.listTasks(scope))).status, "Unauthenticated");
    } finally {
      client.close();
    }
  }, () => new Date(now));
});

Deno.test("production sandbox: signed upload URLs are https:// from the same CA, and take a PUT over TLS", async () => {
  await withProduction(async (sandbox, fetchTls) => {
    const token = sandbox.auth!.issueToken();
    const client = adminWithHeader(sandbox, { "flyte-authorization": `Bearer ${token}` });
    try {
      const body = new TextEncoder().encode("fast source");
      const contentMd5 = new Uint8Array(createHash("md5").update(body).digest());
      const location = await client.dataProxy.createUploadLocation({
        project: PROJECT,
        domain: DOMAIN,
        filename: "fast.tar.gz",
        contentMd5,
      });
      match(location.signedUrl, /^https:\/\/127\.0\.0\.1:\d+\//);
      const put = await fetchTls(location.signedUrl, { method: "PUT", body, headers: location.headers });
      deepEqual([put.status, await put.text()], [200, "ok"]);
      deepEqual(sandbox.uploads.get(location.nativeUrl), body);
    } finally {
      client.close();
    }
  });
});

Deno.test("production sandbox: AuthMetadataService is anonymous and advertises the authorization server", async () => {
  await withProduction(async (sandbox, fetchTls) => {
    // Closed before the sandbox, as server_test.ts's are: a live session that receives the sandbox's GOAWAY can
    // abort the process in Deno's nghttp2 (see src/admin/_test_goaway_scenario.ts), as one full CI run here did.
    const sessionManager = new Http2SessionManager(sandbox.endpoint, undefined, { ca: [sandbox.caCertificate!] });
    const auth = createClient(AuthMetadataService, createGrpcTransport({ baseUrl: sandbox.endpoint, sessionManager }));
    try {
      const metadata = await auth.getOAuth2Metadata({});
      equal(metadata.issuer, sandbox.auth!.issuer);
      equal(metadata.tokenEndpoint, sandbox.auth!.tokenEndpoint);
      equal(metadata.authorizationEndpoint, `${sandbox.auth!.issuer}/oauth2/authorize`);
      equal(metadata.deviceAuthorizationEndpoint, `${sandbox.auth!.issuer}/oauth2/device/authorize`);
      const config = await auth.getPublicClientConfig({});
      equal(config.clientId, "flytectl");
      equal(config.redirectUri, "http://localhost:53593/callback");
      equal(config.authorizationMetadataKey, "flyte-authorization");
      deepEqual(config.scopes, ["all"]);
    } finally {
      sessionManager.abort();
    }
    const wellKnown = await fetchTls(`${sandbox.auth!.issuer}/.well-known/oauth-authorization-server`);
    equal((await wellKnown.json()).token_endpoint, sandbox.auth!.tokenEndpoint);
  });
});

Deno.test("production sandbox: the public client's grants refuse what a real server refuses", async () => {
  await withProduction(async (sandbox, fetchTls) => {
    const base = sandbox.auth!.issuer;
    const redirectUri = "http://localhost:53593/callback";
    const challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
    const authorize = (params: Record<string, string>) =>
      fetchTls(`${base}/oauth2/authorize?${new URLSearchParams(params)}`, { redirect: "manual" });
    const good = {
      response_type: "code",
      client_id: "flytectl",
      redirect_uri: redirectUri,
      code_challenge: challenge,
      code_challenge_method: "S256",
      state: "s-1",
    };
    // An unregistered redirect URI or client is answered on the page, never redirected.
    for (const bad of [{ redirect_uri: "http://localhost:1/elsewhere" }, { client_id: "someone" }]) {
      const res = await authorize({ ...good, ...bad });
      equal(res.status, 400);
      await res.body?.cancel();
    }
    const plain = await authorize({ ...good, code_challenge_method: "plain" });
    equal(plain.status, 302);
    match(plain.headers.get("location")!, /^http:\/\/localhost:53593\/callback\?error=invalid_request&.*state=s-1$/);
    const approved = await authorize(good);
    const code = new URL(approved.headers.get("location")!).searchParams.get("code")!;
    match(code, /^ac-/);
    const token = (form: Record<string, string>) =>
      fetchTls(`${base}/oauth2/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(form),
      }).then(async (res) => ({ status: res.status, body: await res.json() }));
    const exchange = { grant_type: "authorization_code", client_id: "flytectl", code, redirect_uri: redirectUri };
    const wrongVerifier = await token({ ...exchange, code_verifier: "x".repeat(43) });
    deepEqual([wrongVerifier.status, wrongVerifier.body.error], [400, "invalid_grant"]);
    // The code was consumed by the failed attempt: a second one with the right verifier fails too (RFC 6749 §4.1.2).
    const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    const reused = await token({ ...exchange, code_verifier: verifier });
    deepEqual([reused.status, reused.body.error], [400, "invalid_grant"]);
    const fresh = new URL((await authorize(good)).headers.get("location")!).searchParams.get("code")!;
    const issued = await token({ ...exchange, code: fresh, code_verifier: verifier });
    equal(issued.status, 200, JSON.stringify(issued.body));
    match(issued.body.access_token, /^at-/);
    // The public client has no client credentials grant; an unknown one is not a client.
    const noSecret = await token({ grant_type: "client_credentials", client_id: "flytectl" });
    deepEqual([noSecret.status, noSecret.body.error], [400, "unauthorized_client"]);
    const device = await fetchTls(`${base}/oauth2/device/authorize`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "client_id=someone",
    });
    deepEqual([device.status, (await device.json()).error], [401, "invalid_client"]);
  });
});
