import { equal } from "node:assert/strict";
import { describe } from "./cloud_call.ts";

Deno.test("describe: one line, the store's secrets and any request signature hidden, cut between words", () => {
  const sas = "https://acct.blob.core.windows.net/c/b?sv=2021-08-06&sig=c2VjcmV0LXNhcy1zaWduYXR1cmU%3D&se=2030";
  equal(
    describe(new Error(`AuthenticationFailed for ${sas} with key azure-key-123\nmore`), ["azure-key-123"]),
    "AuthenticationFailed for https://acct.blob.core.windows.net/c/b?sv=2021-08-06&sig=[redacted]&se=2030 with key " +
      "[redacted]",
  );
  // A token of the run's (hidden whole later) at the cut is left out whole, not cut at its start.
  const long = describe(new Error(`${"x".repeat(290)} ya29.run-token-of-the-run`), []);
  equal(long, `${"x".repeat(290)}… (25 more characters)`);
});
