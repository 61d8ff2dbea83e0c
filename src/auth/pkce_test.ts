/**
 * Pkce against the sandbox's production profile: a real authorization endpoint, a real loopback server, and
 * a test that acts as the browser (it follows the printed URL). Sign-in, refresh, a forged redirect, a
 * refused sign-in, the timeout, Ctrl-C, and the browser opener.
 */
import { deepEqual, equal, match, ok as assert, rejects } from "node:assert/strict";
import { InterruptedError, OperationError } from "../errors.ts";
import { type ProductionProfile, type Sandbox, startSandbox } from "../sandbox/mod.ts";
import {
  type AuthedClient,
  authedClient,
  followSignIn,
  freePort,
  promptSink,
  sharedStore,
  waitFor,
} from "./_test_helpers.ts";
import type { InteractiveIo } from "./interactive.ts";
import type { Token } from "./tokens.ts";
import type { Sleep } from "./wait.ts";

const scope = { id: { project: "flytesnacks", domain: "development" }, limit: 10 };
const URL_LINE = /^ {2}(https:\/\/\S+)$/m;
const SANDBOX_SECRET = /\b(at|rt|ac)-[A-Za-z0-9_-]{20,}/;

async function withPkce(fn: (sandbox: Sandbox, redirectUri: string) => Promise<void>, profile: ProductionProfile = {}) {
  const redirectUri = `http://localhost:${freePort()}/callback`;
  const sandbox = await startSandbox({ production: { redirectUri, ...profile } });
  try {
    await fn(sandbox, redirectUri);
  } finally {
    await sandbox.close();
  }
}

function user(options: Partial<InteractiveIo> = {}) {
  const prompt = promptSink();
  const io: InteractiveIo = { prompt, terminal: false, signal: new AbortController().signal, ...options };
  return { io, prompt };
}

/** A call awaited later, while the test plays the browser: its failure is not unhandled meanwhile. */
function later<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

const grants = (sandbox: Sandbox) => sandbox.auth!.tokenRequests.map((r) => `${r.grantType} ${r.status}`);

Deno.test("pkce: the printed URL, followed like a browser, signs in; the call is retried with the token; refresh spares a new sign-in", async () => {
  await withPkce(async (sandbox, redirectUri) => {
    const { io, prompt } = user();
    const authed = authedClient(sandbox, { authType: "Pkce" }, {}, undefined, { interactive: io });
    try {
      const call = later(authed.client.admin.listTasks(scope));
      const [, url] = await waitFor(prompt.text, URL_LINE);
      const signIn = new URL(url);
      equal(`${signIn.origin}${signIn.pathname}`, `${sandbox.auth!.issuer}/oauth2/authorize`);
      equal(signIn.searchParams.get("client_id"), "flytectl");
      equal(signIn.searchParams.get("redirect_uri"), redirectUri);
      equal(signIn.searchParams.get("code_challenge_method"), "S256");
      match(signIn.searchParams.get("code_challenge")!, /^[A-Za-z0-9_-]{43}$/);
      match(signIn.searchParams.get("state")!, /^[A-Za-z0-9_-]{32,}$/);
      equal(signIn.searchParams.get("scope"), "all");
      const visit = await followSignIn(url, sandbox.caCertificate!);
      assert(visit.location?.startsWith(`${redirectUri}?code=ac-`), visit.location);
      equal(visit.status, 200);
      equal(visit.page, "fctl is signed in. You can close this window.\n");
      await call;
      deepEqual(grants(sandbox), ["authorization_code 200"]);
      equal(sandbox.auth!.tokenRequests[0].clientId, "flytectl");
      match(prompt.text(), /^Sign in to continue: open this URL in a browser \(waiting 2m0s\):\n {2}https:\S+\n$/);

      // The code, once used, is a secret; nothing secret was printed or logged.
      const code = new URL(visit.location!).searchParams.get("code")!;
      assert(!authed.secrets.empty);
      equal(authed.secrets.redact(code), "[redacted]");
      for (const text of [prompt.text(), authed.log()]) assert(!SANDBOX_SECRET.test(text), text);

      // A revoked access token is replaced by the refresh token: no new sign-in.
      sandbox.auth!.revokeAll();
      await authed.client.admin.listTasks(scope);
      deepEqual(grants(sandbox), ["authorization_code 200", "refresh_token 200"]);
      equal(prompt.text().match(/Sign in/g)?.length, 1);
      // The loopback server is gone: its port can be listened on again.
      Deno.listen({ hostname: "127.0.0.1", port: Number(new URL(redirectUri).port) }).close();
    } finally {
      authed.close();
    }
  });
});

Deno.test("pkce: any provider's id_token (HS256, ES256, PS256, malformed) and JWT access tokens: the sign-in and the refresh work", async () => {
  const profiles: ProductionProfile[] = [
    {}, // the sandbox's default: an HS256 id_token with the code, none on refresh
    { idToken: "ES256", accessTokens: "jwt" },
    { idToken: "PS256" },
    { idToken: "malformed", accessTokens: "jwt" },
  ];
  for (const profile of profiles) {
    await withPkce(async (sandbox) => {
      const label = JSON.stringify(profile);
      const { io, prompt } = user();
      const authed = authedClient(sandbox, QUICK_PKCE, {}, undefined, { interactive: io });
      try {
        const call = later(authed.client.admin.listTasks(scope));
        const [, url] = await waitFor(prompt.text, URL_LINE);
        const visit = await followSignIn(url, sandbox.caCertificate!);
        equal(visit.page, "fctl is signed in. You can close this window.\n", label);
        await call;
        sandbox.auth!.revokeAll();
        await authed.client.admin.listTasks(scope);
        deepEqual(grants(sandbox), ["authorization_code 200", "refresh_token 200"], label);
        equal(prompt.text().match(/Sign in/g)?.length, 1, `${label}: the refresh spared a sign-in`);
        for (const text of [prompt.text(), authed.log()]) {
          assert(!SANDBOX_SECRET.test(text) && !/eyJ[\w-]+\.eyJ/.test(text), `${label}: ${text}`);
        }
      } finally {
        authed.close();
      }
    }, profile);
  }
});

Deno.test("pkce: a failed code exchange is what the browser's page says (escaped HTML for a browser), and the call's one error", async () => {
  for (const accept of ["*/*", "text/html,*/*;q=0.8"]) {
    await withPkce(async (sandbox) => {
      const { io, prompt } = user();
      const authed = authedClient(sandbox, QUICK_PKCE, {}, undefined, { interactive: io });
      try {
        const call = later(authed.client.admin.listTasks(scope));
        const [, url] = await waitFor(prompt.text, URL_LINE);
        sandbox.auth!.failNextTokenRequests(1, 503);
        const visit = await followSignIn(url, sandbox.caCertificate!, { accept });
        const reason = `token request to ${sandbox.auth!.tokenEndpoint} for client "flytectl" failed: ` +
          "temporarily_unavailable: the authorization server is busy; try again (HTTP 503)";
        equal(visit.status, 500);
        if (accept === "*/*") {
          equal(visit.page, `fctl sign-in failed: ${reason}\nYou can close this window.\n`);
        } else {
          assert(visit.page.includes(`<p>fctl sign-in failed: ${reason.replaceAll('"', "&quot;")}</p>`), visit.page);
        }
        await rejects(call, { name: "OperationError", message: reason });
        deepEqual(grants(sandbox), ["authorization_code 503"]);
      } finally {
        authed.close();
      }
    });
  }
});

/** Signs in with Pkce as `authed`'s first call, playing the browser; the call's token is then the store's. */
async function signIn(
  sandbox: Sandbox,
  authed: AuthedClient,
  prompt: ReturnType<typeof promptSink>,
) {
  const call = later(authed.client.admin.listTasks(scope));
  const [, url] = await waitFor(prompt.text, URL_LINE);
  await followSignIn(url, sandbox.caCertificate!);
  await call;
}

/** Pkce whose wait for the browser ends in 5 s: a sign-in nobody makes fails the test soon. */
const QUICK_PKCE = { authType: "Pkce", pkceTimeoutMs: 5_000 } as const;

/** Two fctl processes (`a`, `b`) sharing one token cache, both holding the token `a` signed in with. */
interface TwoProcesses {
  store: ReturnType<typeof sharedStore>;
  a: AuthedClient;
  b: AuthedClient;
  /** What `b` printed for the user: a sign-in prompt, if it asked for one. */
  bPrompt: () => string;
  /** The token both hold. */
  signedIn: Token;
}

async function withTwoProcesses(fn: (sandbox: Sandbox, processes: TwoProcesses) => Promise<void>): Promise<void> {
  await withPkce(async (sandbox) => {
    const store = sharedStore();
    const first = user();
    const a = authedClient(sandbox, QUICK_PKCE, {}, undefined, { interactive: first.io, tokenStore: store });
    const second = user();
    const b = authedClient(sandbox, QUICK_PKCE, {}, undefined, { interactive: second.io, tokenStore: store });
    try {
      await signIn(sandbox, a, first.prompt);
      await b.client.admin.listTasks(scope);
      await fn(sandbox, { store, a, b, bPrompt: second.prompt.text, signedIn: store.token! });
    } finally {
      a.close();
      b.close();
    }
  });
}

Deno.test("pkce: a process whose token another process has renewed takes that one: no refresh, no sign-in", async () => {
  await withTwoProcesses(async (sandbox, { store, a, b, bPrompt, signedIn }) => {
    // The admin stops taking the token. The first process to be refused refreshes it, and the server rotates the
    // refresh token, so the second must not use it again: it takes the stored token.
    sandbox.auth!.revoke(signedIn.accessToken);
    await a.client.admin.listTasks(scope);
    assert(store.token!.accessToken !== signedIn.accessToken, "the first process stored its new token");
    await b.client.admin.listTasks(scope);
    deepEqual(grants(sandbox), ["authorization_code 200", "refresh_token 200"]);
    equal(bPrompt(), "", "the second process never asked the user to sign in");
  });
});

Deno.test("pkce: a refresh refused because another process used it first takes that process's token, not a new sign-in", async () => {
  await withTwoProcesses(async (sandbox, { store, a, b, bPrompt, signedIn }) => {
    sandbox.auth!.revoke(signedIn.accessToken);
    // The other process refreshes between this one's look at the store and its own refresh: it refreshes
    // first (rotating the refresh token), and has stored its token by the time this one is refused.
    const loadsBefore = store.loads;
    const load = store.load;
    store.load = async () => {
      const seen = await load();
      if (store.loads === loadsBefore + 1) await a.client.admin.listTasks(scope);
      return seen;
    };
    await b.client.admin.listTasks(scope);
    deepEqual(grants(sandbox), ["authorization_code 200", "refresh_token 200", "refresh_token 400"]);
    equal(bPrompt(), "", "the second process never asked the user to sign in");
  });
});

Deno.test("pkce: a redirect without the state fctl sent is refused, on the page and as the call's one error", async () => {
  await withPkce(async (sandbox, redirectUri) => {
    const { io, prompt } = user();
    const authed = authedClient(sandbox, { authType: "Pkce" }, {}, undefined, { interactive: io });
    try {
      const call = later(authed.client.admin.listTasks(scope));
      await waitFor(prompt.text, URL_LINE);
      const forged = await fetch(`${redirectUri}?code=ac-forged-code-value&state=not-the-state`);
      equal(forged.status, 400);
      match(await forged.text(), /^fctl sign-in failed: the sign-in answer does not carry the state fctl sent/);
      await rejects(call, (err: Error) => {
        assert(err instanceof OperationError);
        equal(err.message, "the sign-in answer does not carry the state fctl sent (a stale or forged redirect)");
        return true;
      });
      deepEqual(grants(sandbox), [], "no token request with a forged code");
    } finally {
      authed.close();
    }
  });
});

Deno.test("pkce: a sign-in the authorization server refuses is one clear error", async () => {
  await withPkce(async (sandbox) => {
    const { io, prompt } = user();
    const authed = authedClient(sandbox, { authType: "Pkce" }, {}, undefined, { interactive: io });
    try {
      const call = later(authed.client.admin.listTasks(scope));
      const [, url] = await waitFor(prompt.text, URL_LINE);
      const visit = await followSignIn(url, sandbox.caCertificate!);
      match(visit.location!, /[?&]error=access_denied/);
      equal(visit.status, 400);
      await rejects(call, {
        name: "OperationError",
        message: "the authorization server refused the sign-in: access_denied: the user refused the sign-in",
      });
    } finally {
      authed.close();
    }
  }, { denyAuthorization: true });
});

Deno.test("pkce: admin.pkceConfig.timeout ends the wait with one error naming it, and frees the port", async () => {
  await withPkce(async (sandbox, redirectUri) => {
    const waited: number[] = [];
    const sleep: Sleep = (ms) => {
      waited.push(ms);
      return Promise.resolve();
    };
    const { io } = user({ sleep });
    const authed = authedClient(sandbox, { authType: "Pkce", pkceTimeoutMs: 90_000 }, {}, undefined, {
      interactive: io,
    });
    try {
      await rejects(authed.client.admin.listTasks(scope), {
        name: "OperationError",
        message: `no sign-in reached ${redirectUri} within 1m30s (admin.pkceConfig.timeout)`,
      });
      deepEqual(waited, [90_000]);
      Deno.listen({ hostname: "127.0.0.1", port: Number(new URL(redirectUri).port) }).close();
    } finally {
      authed.close();
    }
  });
});

Deno.test("pkce: Ctrl-C ends the wait for the browser", async () => {
  await withPkce(async (sandbox) => {
    const interrupt = new AbortController();
    const { io, prompt } = user({ signal: interrupt.signal });
    const authed = authedClient(sandbox, { authType: "Pkce" }, {}, undefined, { interactive: io });
    try {
      const call = later(authed.client.admin.listTasks(scope));
      await waitFor(prompt.text, URL_LINE);
      interrupt.abort();
      await rejects(call, (err: Error) => err instanceof InterruptedError);
    } finally {
      authed.close();
    }
  });
});

Deno.test("pkce: on a terminal the browser opener runs as an argument vector and the browser signs in; off one, nothing runs", async () => {
  await withPkce(async (sandbox) => {
    const ran: string[][] = [];
    const platform = { os: "linux", env: { PATH: "/usr/bin", DISPLAY: ":0" }, isFile: () => true };
    for (const terminal of [true, false]) {
      const { io, prompt } = user({ terminal, platform });
      // fctl runs the opener through the run's command runner; here the "opener" is the test's browser.
      const runCommand = (argv: readonly string[]) => {
        ran.push([...argv]);
        return followSignIn(argv[1], sandbox.caCertificate!).then(() => ({ code: 0, stdout: "", stderr: "" }));
      };
      const opened = authedClient(sandbox, { authType: "Pkce" }, {}, undefined, { interactive: io, runCommand });
      try {
        const call = later(opened.client.admin.listTasks(scope));
        const [, url] = await waitFor(prompt.text, URL_LINE);
        if (terminal) {
          await call;
          deepEqual(ran, [["xdg-open", url]]);
        } else {
          equal(ran.length, 1, "no second opener off a terminal");
          await followSignIn(url, sandbox.caCertificate!);
          await call;
        }
      } finally {
        opened.close();
      }
    }
  });
});

Deno.test("pkce: admin.tokenUrl replaces only the token endpoint; the authorization endpoint is still discovered", async () => {
  await withPkce(async (sandbox) => {
    const { io, prompt } = user();
    const tokenUrl = `${sandbox.auth!.tokenEndpoint}?tenant=fctl`;
    const authed = authedClient(sandbox, { authType: "Pkce", tokenUrl }, {}, undefined, { interactive: io });
    try {
      const call = later(authed.client.admin.listTasks(scope));
      const [, url] = await waitFor(prompt.text, URL_LINE);
      equal(new URL(url).pathname, "/oauth2/authorize");
      await followSignIn(url, sandbox.caCertificate!);
      await call;
      deepEqual(grants(sandbox), ["authorization_code 200"]);
      equal(sandbox.requests.filter((r) => r.method === "GetOAuth2Metadata").length, 1);
    } finally {
      authed.close();
    }
  });
});

Deno.test("pkce: a redirect URI fctl cannot listen on is one clear error before anything is printed", async () => {
  const port = freePort();
  const taken = Deno.listen({ hostname: "127.0.0.1", port });
  try {
    await withPkce(async (sandbox) => {
      const { io, prompt } = user();
      const authed = authedClient(sandbox, { authType: "Pkce" }, {}, undefined, { interactive: io });
      try {
        await rejects(authed.client.admin.listTasks(scope), {
          name: "OperationError",
          message: `cannot listen for the sign-in at http://localhost:${port}/callback: port ${port} is in use`,
        });
        equal(prompt.text(), "");
      } finally {
        authed.close();
      }
    }, { redirectUri: `http://localhost:${port}/callback` });
  } finally {
    taken.close();
  }
  await withPkce(async (sandbox) => {
    const { io, prompt } = user();
    const authed = authedClient(sandbox, { authType: "Pkce" }, {}, undefined, { interactive: io });
    try {
      await rejects(authed.client.admin.listTasks(scope), {
        name: "OperationError",
        message:
          'the redirect URI "https://flyte.example.com/callback" is not an http://localhost URL: admin.authType Pkce cannot receive the sign-in',
      });
      equal(prompt.text(), "");
    } finally {
      authed.close();
    }
  }, { redirectUri: "https://flyte.example.com/callback" });
});
