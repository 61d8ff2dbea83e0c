import { equal, throws } from "node:assert/strict";
import { OperationError } from "../errors.ts";
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
