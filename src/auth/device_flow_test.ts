/**
 * DeviceFlow against the sandbox's production profile, on a clock the test owns (the sandbox and fctl share
 * it; every wait advances it instead of taking real time): pending → slow_down → approval with the poll
 * spacing checked, the configured interval when the server names none, denial, expiry, the timeout, Ctrl-C.
 */
import { deepEqual, equal, match, ok as assert, rejects } from "node:assert/strict";
import { InterruptedError } from "../errors.ts";
import { type DeviceFlowBehaviour, type ProductionProfile, type Sandbox, startSandbox } from "../sandbox/mod.ts";
import { authedClient, promptSink } from "./_test_helpers.ts";
import type { AuthSettings } from "./settings.ts";
import { interrupted, type Sleep } from "./wait.ts";

const scope = { id: { project: "flytesnacks", domain: "development" }, limit: 10 };
const SANDBOX_SECRET = /\b(at|rt|dc)-[A-Za-z0-9_-]{20,}/;

/** A clock shared by the sandbox and the client; sleeping advances it and records how long. */
function testClock() {
  let ms = Date.parse("2026-11-23T12:00:00Z");
  const slept: number[] = [];
  const sleep: Sleep = (wait, signal) => {
    if (signal.aborted) return Promise.reject(interrupted("waiting"));
    slept.push(wait);
    ms += wait;
    return Promise.resolve();
  };
  return { now: () => ms, date: () => new Date(ms), sleep, slept };
}

async function signIn(
  deviceFlow: DeviceFlowBehaviour,
  settings: Partial<AuthSettings> = {},
  check: (result: {
    sandbox: Sandbox;
    call: Promise<unknown>;
    slept: number[];
    prompt: string;
    log: string;
    start: number;
    /** Calls again and says how many sign-ins were asked of the user in all. */
    again: () => Promise<number>;
  }) => Promise<void>,
) {
  const clock = testClock();
  const sandbox = await startSandbox({ production: { deviceFlow }, now: clock.date });
  const prompt = promptSink();
  const authed = authedClient(sandbox, { authType: "DeviceFlow", ...settings }, {}, clock.now, {
    interactive: { prompt, terminal: false, signal: new AbortController().signal, sleep: clock.sleep },
  });
  try {
    const start = clock.now();
    const call = authed.client.admin.listTasks(scope);
    call.catch(() => {});
    await call.catch(() => {});
    const again = async () => {
      await authed.client.admin.listTasks(scope);
      return prompt.text().match(/Sign in/g)?.length ?? 0;
    };
    await check({ sandbox, call, slept: clock.slept, prompt: prompt.text(), log: authed.log(), start, again });
    for (const text of [prompt.text(), authed.log()]) assert(!SANDBOX_SECRET.test(text), text);
  } finally {
    authed.close();
    await sandbox.close();
  }
}

const polls = (sandbox: Sandbox) =>
  sandbox.auth!.tokenRequests.filter((r) => r.grantType === "urn:ietf:params:oauth:grant-type:device_code");

Deno.test("device flow: pending, then slow_down, then approval: polls at the server's interval, 5 s slower after slow_down", async () => {
  await signIn(
    { pendingPolls: 2, slowDown: true, intervalSeconds: 3 },
    {},
    async ({ sandbox, call, slept, prompt, start, again }) => {
      await call;
      deepEqual(slept, [3000, 3000, 3000, 8000]);
      const answered = polls(sandbox);
      deepEqual(answered.map((r) => r.status), [400, 400, 400, 200]);
      deepEqual(answered.map((r) => r.at - start), [3000, 6000, 9000, 17000], "the sandbox saw the same spacing");
      equal(answered[0].clientId, "flytectl");
      match(
        prompt,
        /^Sign in to continue: visit https:\/\/127\.0\.0\.1:\d+\/oauth2\/device and enter the code [B-Z]{4}-[B-Z]{4} \(waiting 10m0s\)\n {2}or open https:\/\/127\.0\.0\.1:\d+\/oauth2\/device\?user_code=[B-Z]{4}-[B-Z]{4}\n$/,
      );
      // Signed in: a revoked access token is refreshed without a new sign-in.
      sandbox.auth!.revokeAll();
      equal(await again(), 1);
      equal(sandbox.auth!.tokenRequests.at(-1)!.grantType, "refresh_token");
      equal(sandbox.auth!.tokenRequests.at(-1)!.status, 200);
      deepEqual(slept.length, 4, "no wait");
    },
  );
});

Deno.test("device flow: any provider's id_token (ES256 by default, HS256, PS256, malformed) and JWT access tokens: the sign-in and the refresh work", async () => {
  const profiles: ProductionProfile[] = [{}, { idToken: "HS256", accessTokens: "jwt" }, { idToken: "PS256" }, {
    idToken: "malformed",
    accessTokens: "jwt",
  }];
  for (const profile of profiles) {
    const label = JSON.stringify(profile);
    const clock = testClock();
    const sandbox = await startSandbox({
      production: { ...profile, deviceFlow: { intervalSeconds: 1 } },
      now: clock.date,
    });
    const prompt = promptSink();
    const authed = authedClient(sandbox, { authType: "DeviceFlow" }, {}, clock.now, {
      interactive: { prompt, terminal: false, signal: new AbortController().signal, sleep: clock.sleep },
    });
    try {
      await authed.client.admin.listTasks(scope);
      sandbox.auth!.revokeAll();
      await authed.client.admin.listTasks(scope);
      deepEqual(sandbox.auth!.tokenRequests.map((r) => `${r.grantType} ${r.status}`), [
        "urn:ietf:params:oauth:grant-type:device_code 200",
        "refresh_token 200",
      ], label);
      equal(prompt.text().match(/Sign in/g)?.length, 1, `${label}: the refresh spared a sign-in`);
      for (const text of [prompt.text(), authed.log()]) {
        assert(!SANDBOX_SECRET.test(text) && !/eyJ[\w-]+\.eyJ/.test(text), `${label}: ${text}`);
      }
    } finally {
      authed.close();
      await sandbox.close();
    }
  }
});

Deno.test("device flow: without a server interval, admin.deviceFlowConfig.pollInterval; without a complete URI, only the URI and code", async () => {
  await signIn(
    { pendingPolls: 1, intervalSeconds: null, completeUri: false },
    { devicePollIntervalMs: 7000 },
    async ({ sandbox, call, slept, prompt }) => {
      await call;
      deepEqual(slept, [7000, 7000]);
      deepEqual(polls(sandbox).map((r) => r.status), [400, 200]);
      match(prompt, /^Sign in to continue: visit \S+ and enter the code [B-Z]{4}-[B-Z]{4} \(waiting 10m0s\)\n$/);
    },
  );
});

Deno.test("device flow: access_denied, expired_token (said by the server, or the code's lifetime) and the timeout are one clear error each", async () => {
  const cases: [DeviceFlowBehaviour, Partial<AuthSettings>, RegExp, number[]][] = [
    [
      { pendingPolls: 1, outcome: "deny", intervalSeconds: 2 },
      {},
      /^the sign-in with code [B-Z]{4}-[B-Z]{4} was denied \(access_denied\)$/,
      [2000, 2000],
    ],
    [
      { pendingPolls: 1, outcome: "expire", intervalSeconds: 2 },
      {},
      /^the code [B-Z]{4}-[B-Z]{4} expired before the sign-in was approved; sign in again$/,
      [2000, 2000],
    ],
    [{ pendingPolls: 99, intervalSeconds: 5, expiresInSeconds: 12 }, {}, /^the code [B-Z]{4}-[B-Z]{4} expired before/, [
      5000,
      5000,
      5000,
    ]],
    [
      { pendingPolls: 99, intervalSeconds: 3 },
      { deviceTimeoutMs: 10_000 },
      /^the sign-in with code [B-Z]{4}-[B-Z]{4} was not approved within 10s \(admin.deviceFlowConfig.timeout\)$/,
      [3000, 3000, 3000, 1000],
    ],
  ];
  for (const [behaviour, settings, message, sleeps] of cases) {
    await signIn(behaviour, settings, async ({ call, slept }) => {
      await rejects(call, (err: Error) => {
        equal(err.name, "OperationError");
        match(err.message, message);
        return true;
      });
      deepEqual(slept, sleeps);
    });
  }
});

Deno.test("device flow: Ctrl-C ends the wait", async () => {
  const sandbox = await startSandbox({ production: { deviceFlow: { pendingPolls: 99, intervalSeconds: 1 } } });
  const interrupt = new AbortController();
  const prompt = promptSink();
  let polled = 0;
  const sleep: Sleep = (_ms, signal) => {
    if (++polled === 3) interrupt.abort();
    return signal.aborted ? Promise.reject(interrupted("waiting")) : Promise.resolve();
  };
  const authed = authedClient(sandbox, { authType: "DeviceFlow" }, {}, undefined, {
    interactive: { prompt, terminal: false, signal: interrupt.signal, sleep },
  });
  try {
    await rejects(authed.client.admin.listTasks(scope), (err: Error) => err instanceof InterruptedError);
    equal(polls(sandbox).length, 2);
  } finally {
    authed.close();
    await sandbox.close();
  }
});

Deno.test("device flow: admin.authorizationServerUrl names the server whose metadata gives the device endpoint (no GetOAuth2Metadata)", async () => {
  const clock = testClock();
  const sandbox = await startSandbox({ production: { deviceFlow: { intervalSeconds: 1 } }, now: clock.date });
  const prompt = promptSink();
  const authed = authedClient(
    sandbox,
    { authType: "DeviceFlow", authorizationServerUrl: sandbox.auth!.issuer },
    {},
    clock.now,
    {
      interactive: { prompt, terminal: false, signal: new AbortController().signal, sleep: clock.sleep },
    },
  );
  try {
    await authed.client.admin.listTasks(scope);
    deepEqual(clock.slept, [1000]);
    equal(sandbox.requests.filter((r) => r.method === "GetOAuth2Metadata").length, 0);
    equal(polls(sandbox).length, 1);
  } finally {
    authed.close();
    await sandbox.close();
  }
});

Deno.test("device flow: a server interval below a second (0.001, which would poll a thousand times a second until the timeout) is waited as a second", async () => {
  await signIn({ pendingPolls: 3, intervalSeconds: 0.001 }, {}, async ({ sandbox, call, slept }) => {
    await call;
    deepEqual(slept, [1000, 1000, 1000, 1000]);
    equal(polls(sandbox).length, 4);
  });
});

Deno.test("device flow: a server interval of a billion seconds (which slept through the timeout without a poll) is waited as a minute", async () => {
  await signIn({ pendingPolls: 1, intervalSeconds: 1e9 }, {}, async ({ sandbox, call, slept }) => {
    await call;
    deepEqual(slept, [60_000, 60_000]);
    equal(polls(sandbox).length, 2);
  });
});
