import { deepStrictEqual as assertEquals, equal, ok as assert } from "node:assert/strict";
import * as oauth from "oauth4webapi";
import { basicCredentials, REDACTED, Redactor, secretForms } from "./redact.ts";

/** A secret with characters every encoding writes its own way (blank, slash, plus, tilde, parentheses, é). */
const SECRET = "Hostile s3cret/+~(x)!é";
const CLIENT_ID = "fctl client*1";

function base64(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

const base64Url = (text: string) => base64(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

function redactor(...secrets: string[]): Redactor {
  const r = new Redactor();
  for (const secret of secrets) r.add(secret);
  return r;
}

/** The headers and form body oauth4webapi sends for a client authenticated by `auth`. */
function sent(auth: oauth.ClientAuth): { headers: Headers; body: URLSearchParams } {
  const headers = new Headers();
  const body = new URLSearchParams({ grant_type: "client_credentials" });
  auth(
    { issuer: "https://as.example", token_endpoint: "https://as.example/token" },
    { client_id: CLIENT_ID },
    body,
    headers,
  );
  return { headers, body };
}

Deno.test("redactor: the HTTP Basic credential oauth4webapi sends, echoed whole or decoded, is hidden", () => {
  const secrets = redactor(SECRET);
  for (const credential of basicCredentials(CLIENT_ID, SECRET)) secrets.add(credential);
  const header = sent(oauth.ClientSecretBasic(SECRET)).headers.get("authorization")!;
  equal(secrets.redact(`echo: ${header}`), `echo: Basic ${REDACTED}`);
  const decoded = atob(header.slice("Basic ".length));
  equal(
    secrets.redact(decoded),
    `${encodeURIComponent(CLIENT_ID).replace("*", "%2A").replace("%20", "+")}:${REDACTED}`,
  );
  // Other clients' credential: not form-encoded.
  equal(secrets.redact(`Basic ${base64(`${CLIENT_ID}:${SECRET}`)}`), `Basic ${REDACTED}`);
});

Deno.test("redactor: without the client id, the part of any base64 text made of the secret alone is hidden", () => {
  const secrets = redactor(SECRET);
  const header = sent(oauth.ClientSecretBasic(SECRET)).headers.get("authorization")!;
  const redacted = secrets.redact(header);
  assert(redacted.includes(REDACTED), redacted);
  // What is left of the credential is the client id's part, and at most a character's bits of the secret each side.
  const left = redacted.replace(/^Basic /, "").split(REDACTED).join("");
  const idPart = base64("fctl+client%2A1");
  assert(left.startsWith(idPart) && left.length <= idPart.length + 5, left);
  for (const prefix of ["", "a", "ab", "abc", "user:", "client_id=x&client_secret="]) {
    for (const encoded of [base64(`${prefix}${SECRET}`), base64Url(`${prefix}${SECRET}suffix`)]) {
      const out = secrets.redact(encoded);
      assert(out.includes(REDACTED), `${prefix}: ${out}`);
      assert(out.length - REDACTED.length <= base64(prefix).length + 10, `${prefix}: ${out}`);
    }
  }
});

Deno.test("redactor: the secret percent-encoded, form-encoded (client_secret=… with + for a space), JSON-escaped and as shown is hidden", () => {
  const secrets = redactor(SECRET, 'quote"back\\slash', "esc\x1b[2Jape");
  const { body } = sent(oauth.ClientSecretPost(SECRET));
  equal(
    secrets.redact(body.toString()),
    `grant_type=client_credentials&client_id=fctl+client*1&client_secret=${REDACTED}`,
  );
  for (
    const form of [
      SECRET,
      encodeURIComponent(SECRET),
      new URLSearchParams({ s: SECRET }).toString().slice(2),
      JSON.stringify(SECRET).slice(1, -1),
      base64(SECRET),
      base64Url(SECRET),
      base64(encodeURIComponent(SECRET)),
      JSON.stringify('quote"back\\slash'),
      "esc\\x1b[2Jape",
    ]
  ) {
    assert(!secrets.redact(`[${form}]`).includes(form), form);
  }
});

Deno.test("redactor: tokens, trimmed or not; short secrets only as they are, never their short base64 pieces", () => {
  const secrets = redactor("AT-0123456789abcdef\n", "abcd");
  equal(secrets.redact("Bearer AT-0123456789abcdef"), `Bearer ${REDACTED}`);
  equal(secrets.redact("abcd and YWJjZA"), `${REDACTED} and YWJjZA`);
  equal(redactor("ab").redact("ab"), "ab");
  assertEquals(secretForms("abcd"), ["abcd", "YWJjZA=="]);
});

Deno.test("redactor: a secret of whitespace alone is none (a client secret file of blank lines): indentation stays", () => {
  const secrets = new Redactor();
  for (const blank of ["    ", "\n\n\n\n", " \t \n "]) secrets.add(blank);
  equal(secrets.empty, true);
  equal(secrets.redact("a:\n    b: 1\n\n\n\n"), "a:\n    b: 1\n\n\n\n");
});
