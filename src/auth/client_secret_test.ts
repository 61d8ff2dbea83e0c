import { deepEqual, equal, ok as assert } from "node:assert/strict";
import * as oauth from "oauth4webapi";
import { SANDBOX_CLIENT, startSandbox } from "../sandbox/mod.ts";
import { authedClient } from "./_test_helpers.ts";
import { refusal } from "./client_secret.ts";

/** What oauth4webapi throws for an answer outside OAuth's error statuses: the answer is its cause. */
function unexpected(response: Response): oauth.OperationProcessingError {
  return new oauth.OperationProcessingError('"response" is not a conform Token Endpoint response', {
    code: oauth.RESPONSE_IS_NOT_CONFORM,
    cause: response,
  });
}

Deno.test("refusal: an answer outside OAuth's error statuses says its status and what its body says", async () => {
  const busy = Response.json({ error: "temporarily_unavailable", error_description: "busy" }, { status: 503 });
  equal(await refusal(unexpected(busy)), "temporarily_unavailable: busy (HTTP 503)");
  const gateway = new Response("<html>\n  502 Bad Gateway\n</html>", { status: 502 });
  equal(await refusal(unexpected(gateway)), "an HTML page: 502 Bad Gateway (HTTP 502)");
  const titled = new Response("<html><head><title>Access &amp; Denied</title></head><body>x</body></html>", {
    status: 403,
    headers: { "content-type": "text/html; charset=utf-8" },
  });
  equal(await refusal(unexpected(titled)), 'an HTML page titled "Access & Denied" (HTTP 403)');
  const problem = Response.json({ type: "about:blank", title: "Too Many Requests", detail: "retry in 5 s" }, {
    status: 429,
  });
  equal(await refusal(unexpected(problem)), "retry in 5 s (HTTP 429)");
  equal(
    await refusal(unexpected(new Response("Service Unavailable\n", { status: 503 }))),
    "Service Unavailable (HTTP 503)",
  );
  equal(await refusal(unexpected(new Response(null, { status: 500 }))), "unexpected answer (HTTP 500)");
});

Deno.test("client secret: an id_token with every answer (any alg, even malformed) fails neither the grant nor the refresh", async () => {
  for (const idToken of ["ES256", "HS256", "malformed"] as const) {
    const sandbox = await startSandbox({ production: { idToken, accessTokens: "jwt" } });
    const authed = authedClient(sandbox, { clientSecretEnvVar: "SECRET" }, { SECRET: SANDBOX_CLIENT.secret });
    try {
      const scope = { id: { project: "flytesnacks", domain: "development" }, limit: 1 };
      await authed.client.admin.listTasks(scope);
      sandbox.auth!.revokeAll();
      await authed.client.admin.listTasks(scope);
      deepEqual(
        sandbox.auth!.tokenRequests.map((r) => `${r.grantType} ${r.status}`),
        ["client_credentials 200", "refresh_token 200"],
        idToken,
      );
    } finally {
      authed.close();
      await sandbox.close();
    }
  }
});

Deno.test("refusal: an HTML page of a megabyte of unclosed tags is read in time proportional to it", async () => {
  for (const tag of ["<title>", "<script>", "<body><style>"]) {
    const page = `<html>${tag.repeat((1 << 20) / tag.length)}`;
    const started = performance.now();
    const reason = await refusal(
      unexpected(new Response(page, { status: 502, headers: { "content-type": "text/html" } })),
    );
    // Generous: a quadratic scan of this page takes minutes.
    assert(performance.now() - started < 5_000, `${tag}: ${performance.now() - started} ms`);
    equal(reason, "an HTML page (HTTP 502)");
  }
  const brackets = `<html>${"<".repeat(1 << 20)}`;
  const started = performance.now();
  await refusal(unexpected(new Response(brackets, { status: 502, headers: { "content-type": "text/html" } })));
  assert(performance.now() - started < 5_000, `<: ${performance.now() - started} ms`);
});
