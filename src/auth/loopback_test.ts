/**
 * The loopback server's page: it waits for the end of the sign-in and tells the truth about it, as HTML for
 * a browser (escaped) and plain text otherwise, and never waits longer than its bound.
 */
import { equal, match, ok as assert } from "node:assert/strict";
import { OperationError } from "../errors.ts";
import { freePort } from "./_test_helpers.ts";
import { escapeHtml, listenLoopback } from "./loopback.ts";

const BROWSER = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };

/** A loopback server on a free port accepting every redirect, and the redirect's URL. */
function listening(pageWaitMs?: number) {
  const redirect = new URL(`http://127.0.0.1:${freePort()}/callback`);
  const loopback = listenLoopback(redirect, (params) => params, pageWaitMs);
  return { loopback, at: `${redirect.href}?code=c&state=s` };
}

/** Whether `promise` is still pending after the event loop has had a moment. */
async function pending(promise: Promise<unknown>): Promise<boolean> {
  const marker = Symbol();
  const winner = await Promise.race([promise, new Promise((resolve) => setTimeout(() => resolve(marker), 50))]);
  return winner === marker;
}

Deno.test("loopback: the page says signed in only once the sign-in has ended well", async () => {
  const { loopback, at } = listening();
  try {
    const page = fetch(at);
    equal((await loopback.response).get("code"), "c");
    assert(await pending(page), "the page waits for the token exchange");
    loopback.finish();
    const response = await page;
    equal(response.status, 200);
    equal(response.headers.get("content-type"), "text/plain; charset=utf-8");
    equal(await response.text(), "fctl is signed in. You can close this window.\n");
  } finally {
    await loopback.close();
  }
});

Deno.test("loopback: a failed exchange is on the page, escaped in a browser's HTML page, plain otherwise", async () => {
  const reason = 'token request failed: invalid_grant: <b>"code" & verifier</b> (HTTP 400)';
  for (const headers of [BROWSER, {}]) {
    const { loopback, at } = listening();
    try {
      const page = fetch(at, { headers });
      await loopback.response;
      loopback.finish(new OperationError(reason));
      loopback.finish(); // the first outcome counts
      const response = await page;
      equal(response.status, 500);
      const text = await response.text();
      if (headers === BROWSER) {
        equal(response.headers.get("content-type"), "text/html; charset=utf-8");
        equal(response.headers.get("content-security-policy"), "default-src 'none'");
        equal(response.headers.get("referrer-policy"), "no-referrer");
        match(text, /^<!doctype html>\n/);
        assert(text.includes(`<p>fctl sign-in failed: ${escapeHtml(reason)}</p>\n<p>You can close this window.</p>`));
        assert(!text.includes("<b>"), text);
        equal(
          escapeHtml(reason),
          "token request failed: invalid_grant: &lt;b&gt;&quot;code&quot; &amp; verifier&lt;/b&gt; (HTTP 400)",
        );
      } else {
        equal(text, `fctl sign-in failed: ${reason}\nYou can close this window.\n`);
      }
    } finally {
      await loopback.close();
    }
  }
});

Deno.test("loopback: the page waits at most its bound, and a server closed meanwhile says the sign-in did not complete", async () => {
  const bounded = listening(20);
  try {
    const response = await fetch(bounded.at);
    equal(response.status, 202);
    equal(
      await response.text(),
      "fctl received the sign-in and is still completing it; its output says how it ends. You can close this window.\n",
    );
  } finally {
    await bounded.loopback.close();
  }
  const closed = listening();
  const page = fetch(closed.at);
  await closed.loopback.response;
  await closed.loopback.close();
  const response = await page;
  equal(response.status, 500);
  equal(
    await response.text(),
    "fctl sign-in failed: fctl stopped before the sign-in completed\nYou can close this window.\n",
  );
});
