import { equal, ok as assert } from "node:assert/strict";
import * as oauth from "oauth4webapi";
import { JwtSigner } from "../sandbox/jwt.ts";
import { refusal } from "./client_secret.ts";

const as: oauth.AuthorizationServer = {
  issuer: "https://auth.example.com",
  token_endpoint: "https://auth.example.com/t",
};
const client: oauth.Client = { client_id: "flytectl" };
const ACCESS_TOKEN = "at-secret-access-token-value";

/** What oauth4webapi throws when processing `body` as a token answer. */
async function thrownFor(body: Record<string, unknown> | string, init: ResponseInit = {}): Promise<unknown> {
  const response = typeof body === "string" ? new Response(body, init) : Response.json(body, init);
  try {
    await oauth.processAuthorizationCodeResponse(as, client, response);
  } catch (err) {
    return err;
  }
  throw new Error("processed without an error");
}

Deno.test("refusal: oauth4webapi's findings name what they found (an alg, a token_type), never [object Object] or a token", async () => {
  const now = Math.floor(Date.now() / 1000);
  const claims = { iss: as.issuer, sub: "alice", aud: client.client_id, iat: now, exp: now + 60 };
  const idToken = new JwtSigner().sign("HS256", claims);
  const cases: [Record<string, unknown> | string, ResponseInit, string][] = [
    [
      { access_token: ACCESS_TOKEN, token_type: "Bearer", id_token: idToken },
      {},
      'unexpected JWT "alg" header parameter "HS256" (expected "RS256" by default)',
    ],
    [
      { access_token: ACCESS_TOKEN, token_type: "mac" },
      {},
      'unsupported `token_type` value "mac"',
    ],
    [
      { access_token: 42, token_type: "Bearer" },
      {},
      '"response" body "access_token" property must be a string',
    ],
    [
      `{"access_token": "${ACCESS_TOKEN}", `,
      { headers: { "content-type": "application/json" } },
      'failed to parse "response" body as JSON',
    ],
    [
      `access_token=${ACCESS_TOKEN}&token_type=bearer`,
      { headers: { "content-type": "application/x-www-form-urlencoded" } },
      '"response" content-type must be application/json (HTTP 200, content-type "application/x-www-form-urlencoded")',
    ],
    [
      { access_token: ACCESS_TOKEN, token_type: "Bearer" },
      { status: 201 },
      '"response" is not a conform Token Endpoint response (unexpected HTTP status code) (HTTP 201, content-type "application/json")',
    ],
  ];
  for (const [body, init, expected] of cases) {
    const text = await refusal(await thrownFor(body, init));
    equal(text, expected);
    assert(!text.includes("[object Object]") && !text.includes(ACCESS_TOKEN), text);
  }
});

Deno.test("refusal: an OAuth finding with an unexpected reason or a refused URL says it without the URL's query", async () => {
  const unexpectedAlg = new oauth.OperationProcessingError('unexpected JWT "alg" header parameter', {
    code: oauth.INVALID_RESPONSE,
    cause: { header: { alg: "ES256" }, expected: ["RS256", "PS256"], reason: "client configuration" },
  });
  equal(
    await refusal(unexpectedAlg),
    'unexpected JWT "alg" header parameter "ES256" (expected one of "RS256", "PS256" as the client is configured)',
  );
  const insecure = new oauth.OperationProcessingError("only requests to HTTPS are allowed", {
    code: oauth.HTTP_REQUEST_FORBIDDEN,
    cause: new URL("http://auth.example.com/token?secret=1"),
  });
  equal(await refusal(insecure), "only requests to HTTPS are allowed: http://auth.example.com/token");
});
