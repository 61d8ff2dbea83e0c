import { deepEqual, equal, rejects } from "node:assert/strict";
import * as oauth from "oauth4webapi";
import { JwtSigner } from "../sandbox/jwt.ts";
import { withoutIdToken } from "./token_response.ts";

const as: oauth.AuthorizationServer = {
  issuer: "https://auth.example.com",
  token_endpoint: "https://auth.example.com/t",
};
const client: oauth.Client = { client_id: "flytectl" };
const signer = new JwtSigner();
const now = Math.floor(Date.now() / 1000);
const claims = { iss: as.issuer, sub: "alice", aud: client.client_id, iat: now, exp: now + 3600 };

/** A token endpoint's successful answer carrying `idToken`. */
function answer(idToken: unknown): Response {
  const body = { access_token: "at-1", token_type: "Bearer", expires_in: 60, refresh_token: "rt-1", id_token: idToken };
  return Response.json(body, { headers: { "cache-control": "no-store" } });
}

const ID_TOKENS: [string, unknown][] = [
  ["HS256", signer.sign("HS256", claims)],
  ["ES256", signer.sign("ES256", claims)],
  ["PS256", signer.sign("PS256", claims)],
  ["RS256 for another audience, long expired", signer.sign("RS256", { ...claims, aud: "someone", exp: 1 })],
  ["malformed", "not.a-jwt"],
  ["encrypted (five parts)", "a.b.c.d.e"],
  ["not a string", { alg: "none" }],
];

Deno.test("withoutIdToken: every grant's answer is read as OAuth 2 whatever its id_token, which oauth4webapi refuses", async () => {
  const processors = [
    oauth.processAuthorizationCodeResponse,
    oauth.processDeviceCodeResponse,
    oauth.processRefreshTokenResponse,
    oauth.processClientCredentialsResponse,
  ];
  for (const [label, idToken] of ID_TOKENS) {
    for (const process of processors) {
      // What fctl did before: the library validates the id_token, and fails over a token fctl never uses.
      await rejects(process(as, client, answer(idToken)), Error, `${label}: ${process.name}`);
      const read = await process(as, client, await withoutIdToken(answer(idToken)));
      equal(read.access_token, "at-1", label);
      equal(read.refresh_token, "rt-1", label);
      equal(read.expires_in, 60, label);
      equal(read.id_token, undefined, label);
    }
  }
});

Deno.test("withoutIdToken: the rest of the answer is still validated, and answers without an id_token are left as they are", async () => {
  const noAccessToken = Response.json({ token_type: "Bearer", id_token: "x.y.z" });
  await rejects(oauth.processAuthorizationCodeResponse(as, client, await withoutIdToken(noAccessToken)), (err) => {
    equal((err as Error).message, '"response" body "access_token" property must be a string');
    return true;
  });
  const refused = Response.json({ error: "invalid_grant", id_token: "x.y.z" }, { status: 400 });
  equal(await withoutIdToken(refused), refused);
  await rejects(oauth.processAuthorizationCodeResponse(as, client, refused), oauth.ResponseBodyError);
  const plain = Response.json({ access_token: "at-2", token_type: "Bearer" });
  equal(await withoutIdToken(plain), plain);
  const text = new Response("not json", { headers: { "content-type": "text/plain" } });
  equal(await withoutIdToken(text), text);
  equal(await text.text(), "not json", "still readable");
  const stripped = await withoutIdToken(answer("x.y.z"));
  equal(stripped.status, 200);
  equal(stripped.headers.get("cache-control"), "no-store");
  deepEqual(Object.keys(await stripped.json()).sort(), ["access_token", "expires_in", "refresh_token", "token_type"]);
});
