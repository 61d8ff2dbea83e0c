/**
 * The token manager's sharing rules, with a counting token source: one fetch for concurrent callers, the
 * replacement handed to callers that saw an older token, a kept failure, and nothing at all until asked.
 */
import { deepEqual, equal, rejects } from "node:assert/strict";
import { Redactor } from "../log/redact.ts";
import { type Token, TokenManager, type TokenStore } from "./tokens.ts";

function counting(fail = false, store?: TokenStore) {
  const seen: (Token | undefined)[] = [];
  let n = 0;
  const manager = new TokenManager({
    store,
    source: () =>
      Promise.resolve({
        fetch: async (previous: Token | undefined) => {
          seen.push(previous);
          await new Promise((resolve) => setTimeout(resolve, 5));
          if (fail) throw new Error("refused");
          return { accessToken: `token-number-${++n}`, expiresAt: Date.now() + 60_000 };
        },
      }),
    secrets: new Redactor(),
    refreshWindowMs: 0,
    now: Date.now,
  });
  return { manager, seen };
}

Deno.test("tokens: nothing is fetched until a call is refused; concurrent refusals share one fetch", async () => {
  const { manager, seen } = counting();
  equal(await manager.upFront(), undefined);
  deepEqual(seen, []);
  const tokens = await Promise.all([
    manager.replace(undefined),
    manager.replace(undefined),
    manager.replace(undefined),
  ]);
  deepEqual(tokens.map((t) => t.accessToken), ["token-number-1", "token-number-1", "token-number-1"]);
  equal(seen.length, 1);
  equal((await manager.upFront())?.accessToken, "token-number-1");
});

Deno.test("tokens: a caller whose token was already replaced gets the replacement; the rejected one is replaced once", async () => {
  const { manager, seen } = counting();
  const first = await manager.replace(undefined);
  const second = await manager.replace(first);
  equal(second.accessToken, "token-number-2");
  deepEqual(seen, [undefined, first], "the rejected token is offered for refresh");
  equal((await manager.replace(first)).accessToken, "token-number-2", "a late caller with the old token");
  equal(seen.length, 2);
});

Deno.test("tokens: a failed fetch is kept for the process: every caller gets the same error, no second fetch", async () => {
  const { manager, seen } = counting(true);
  await rejects(manager.replace(undefined), /refused/);
  await rejects(manager.replace(undefined), /refused/);
  await rejects(manager.upFront(), /refused/, "later calls fail before they are sent");
  equal(seen.length, 1);
});

Deno.test("tokens: login runs the flow even with a fresh token or a kept failure, and its token is then used", async () => {
  const { manager, seen } = counting();
  const first = await manager.replace(undefined);
  const login = await manager.login();
  equal(login.accessToken, "token-number-2");
  deepEqual(seen, [undefined, undefined], "login never refreshes: it runs the flow");
  equal((await manager.upFront())?.accessToken, "token-number-2");
  equal(first.accessToken, "token-number-1");

  const failing = counting(true);
  await rejects(failing.manager.replace(undefined), /refused/);
  await rejects(failing.manager.login(), /refused/);
  equal(failing.seen.length, 2, "login tries again where a kept failure would not");
});

Deno.test("tokens: login runs the flow even when the store holds a fresh token another process stored", async () => {
  let stored: Token | undefined;
  const store: TokenStore = {
    load: () => Promise.resolve(stored),
    save: (token) => Promise.resolve(void (stored = token)),
  };
  const { manager, seen } = counting(false, store);
  stored = { accessToken: "another-process-token", expiresAt: Date.now() + 60_000 };
  equal((await manager.login()).accessToken, "token-number-1");
  deepEqual(seen, [undefined]);
  equal(stored?.accessToken, "token-number-1", "the signed-in token is stored");
  // A renewal, unlike a login, takes another process's fresh token.
  stored = { accessToken: "renewed-elsewhere", expiresAt: Date.now() + 60_000 };
  equal((await manager.replace(await manager.upFront())).accessToken, "renewed-elsewhere");
  equal(seen.length, 1, "no second flow");
});

Deno.test("tokens: the refresh window is at most half a token's lifetime: a 5-minute token with a 5-minute window is used, then renewed", async () => {
  let now = 1_000_000;
  let n = 0;
  const manager = new TokenManager({
    source: () =>
      Promise.resolve({
        fetch: () => Promise.resolve({ accessToken: `token-number-${++n}`, expiresAt: now + 300_000, receivedAt: now }),
      }),
    secrets: new Redactor(),
    refreshWindowMs: 300_000,
    now: () => now,
  });
  const first = await manager.replace(undefined);
  now += 149_000;
  equal(await manager.upFront(), first, "within the first half of its life");
  now += 2_000;
  equal((await manager.upFront())?.accessToken, "token-number-2", "renewed in the second half");
});
