import { equal, throws } from "node:assert/strict";
import { OperationError } from "../errors.ts";
import { SANDBOX_CLIENT, startSandbox } from "../sandbox/mod.ts";
import { authedClient, sharedStore } from "./_test_helpers.ts";
import { checkHeaderToken, headerTokenProblem } from "./header_token.ts";

Deno.test("headerTokenProblem: visible ASCII is a header value; blanks, line breaks, controls and other characters are named", () => {
  equal(headerTokenProblem("eyJhbGciOi.J9.x-y_z~+/="), undefined);
  equal(headerTokenProblem("AT-1 x-injected: 1"), "it contains a space");
  equal(headerTokenProblem("AT-1\r\nx-injected: 1"), "it contains a space and a line break");
  equal(headerTokenProblem("AT-1\nx"), "it contains a line break");
  equal(headerTokenProblem("AT-1\x1b[2J"), "it contains a control character");
  equal(headerTokenProblem("AT-é\u009b"), "it contains a control character and a character outside ASCII");
  equal(headerTokenProblem("a\tb\x00ü"), "it contains a space, a control character and a character outside ASCII");
  equal(headerTokenProblem(""), "it is empty");
});

Deno.test("checkHeaderToken: one line naming where the token came from and what is wrong, never the token", () => {
  equal(checkHeaderToken("AT-1", 'admin.command "t"'), "AT-1");
  throws(
    () => checkHeaderToken("AT-secret-1\r\nx-injected: 1", "the token endpoint (admin.authType ClientSecret)"),
    (err: Error) =>
      err instanceof OperationError &&
      err.message ===
        "the token from the token endpoint (admin.authType ClientSecret) is not a valid header value (it contains a space and a line break)",
  );
});

Deno.test("a cached token no header can carry is no token: the flow gets a new one, and the call succeeds", async () => {
  const sandbox = await startSandbox({ production: {} });
  const store = sharedStore();
  await store.save({ accessToken: "AT-cached\r\nx-injected: 1", expiresAt: Date.now() + 3_600_000 });
  const authed = authedClient(
    sandbox,
    { clientSecretEnvVar: "FLYTE_SECRET" },
    { FLYTE_SECRET: SANDBOX_CLIENT.secret },
    undefined,
    {
      tokenStore: store,
    },
  );
  try {
    await authed.client.admin.listTasks({ id: { project: "flytesnacks", domain: "development" }, limit: 1 });
    equal(sandbox.auth!.tokenRequests.map((r) => r.grantType).join(), "client_credentials");
    equal(headerTokenProblem(store.token!.accessToken), undefined, "the new token is stored in its place");
  } finally {
    authed.close();
    await sandbox.close();
  }
});
