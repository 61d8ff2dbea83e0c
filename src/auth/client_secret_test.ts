import { equal } from "node:assert/strict";
import * as oauth from "oauth4webapi";
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
  equal(await refusal(unexpected(gateway)), "<html> 502 Bad Gateway </html> (HTTP 502)");
  equal(await refusal(unexpected(new Response(null, { status: 500 }))), "unexpected answer (HTTP 500)");
});
