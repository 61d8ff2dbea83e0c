/** Which connections are opened ahead of the first call: those whose set-up has a round trip to overlap. */
import { equal } from "node:assert/strict";
import { opensAhead } from "./connect_admin.ts";

Deno.test("opensAhead: TLS, and a proxy's tunnel, start ahead; plain HTTP/2 straight to the admin has nothing to send", () => {
  equal(opensAhead({ insecure: false }), true);
  equal(opensAhead({}), true);
  equal(opensAhead({ insecure: true, proxy: "http://proxy.internal:3128" }), true);
  equal(opensAhead({ insecure: false, proxy: "http://proxy.internal:3128" }), true);
  equal(opensAhead({ insecure: true }), false);
});
