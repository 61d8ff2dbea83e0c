/**
 * The sandbox authorization server's interactive grants, for a public client (no secret): the authorization
 * endpoint of the authorization code grant with PKCE S256 (RFC 6749 §4.1, RFC 7636), which signs in a
 * configured test user without asking and redirects to the registered redirect URI (or refuses, when told
 * to), and the device authorization grant (RFC 8628): codes that stay pending for a number of polls, answer
 * `slow_down` once if told to, then are approved, denied or expire. The device authorization answer is worded as
 * a provider words it: RFC 8628's, Google's or Azure AD v1's.
 *
 * @module
 */

/**
 * How the device authorization grant behaves.
 *
 * ```ts
 * import { type DeviceFlowBehaviour, startSandbox } from "@fctl/fctl/testing";
 *
 * // The user approves after two polls, and the server asks once to slow down.
 * const deviceFlow: DeviceFlowBehaviour = { pendingPolls: 2, slowDown: true, outcome: "approve", intervalSeconds: 1 };
 * const sandbox = await startSandbox({ production: { deviceFlow } });
 * await sandbox.close();
 * ```
 */
export interface DeviceFlowBehaviour {
  /** Polls answered `authorization_pending` before anything else; default 0. */
  pendingPolls?: number;
  /** Answer `slow_down` once, after the pending polls; default false. */
  slowDown?: boolean;
  /** What the user does in the end; default `approve`. `expire`: the code expires (`expired_token`). */
  outcome?: "approve" | "deny" | "expire";
  /** The advertised polling interval in seconds; default 5; `null` advertises none. */
  intervalSeconds?: number | null;
  /** The lifetime of a device code in seconds (on the sandbox clock); default 600. */
  expiresInSeconds?: number;
  /** Whether the answer carries `verification_uri_complete`; default true. */
  completeUri?: boolean;
  /**
   * How the device authorization answer is worded; default `rfc8628`. `google`: `verification_url` instead of
   * `verification_uri` (Google's device flow); `azure-v1`: that too, with `expires_in` and `interval` as strings of
   * digits and a `message` to show (Azure AD's v1.0 endpoint). Neither carries `verification_uri_complete`. `dex`:
   * RFC 8628's words as Dex before 2.37 answers them, with no JSON content type (its Go server sniffs `text/plain`),
   * and `authorization_pending` answered HTTP 401.
   */
  dialect?: "rfc8628" | "google" | "azure-v1" | "dex";
  /**
   * The audience of the admin's API at a provider that has no default one (Auth0's, say): a device code requested
   * without it brings a token for the provider's own use, which the admin refuses. Default none: any token works.
   */
  audience?: string;
  /**
   * Requests answered as a provider under load does, before anything else: the next `authorizations` device
   * authorization requests and the first `polls` polls of each device code get `status` (default 429: Okta's rate
   * limit answer, JSON without an OAuth `error`; 5xx: a proxy's text page), with `Retry-After` when given.
   */
  busy?: { authorizations?: number; polls?: number; status?: number; retryAfterSeconds?: number };
}

/** A busy answer (see {@link DeviceFlowBehaviour.busy}). */
export interface BusyAnswer {
  status: number;
  body: string;
  headers: Record<string, string>;
}

/** What a provider under load answers, `status` and `Retry-After` as `busy` says. */
function busyAnswer(busy: NonNullable<DeviceFlowBehaviour["busy"]>): BusyAnswer {
  const status = busy.status ?? 429;
  const headers: Record<string, string> = busy.retryAfterSeconds === undefined
    ? {}
    : { "retry-after": String(busy.retryAfterSeconds) };
  if (status === 429) {
    headers["content-type"] = "application/json";
    const body = { errorCode: "E0000047", errorSummary: "API call exceeded rate limit due to too many requests." };
    return { status, body: JSON.stringify(body), headers };
  }
  headers["content-type"] = "text/plain";
  return { status, body: "upstream connect error or disconnect/reset before headers\n", headers };
}

/**
 * How the interactive grants behave; changeable while the sandbox runs.
 *
 * ```ts
 * import { type InteractiveBehaviour, startSandbox } from "@fctl/fctl/testing";
 *
 * const sandbox = await startSandbox({ production: true });
 * try {
 *   const interactive: InteractiveBehaviour = sandbox.auth!.interactive;
 *   interactive.user = "alice@example.com";
 *   interactive.deviceFlow = { outcome: "deny" }; // the next device code is denied
 * } finally {
 *   await sandbox.close();
 * }
 * ```
 */
export interface InteractiveBehaviour {
  /** The user the authorization and device endpoints sign in; default `sandbox-user`. */
  user: string;
  /** The authorization endpoint refuses (`access_denied`) instead of approving. */
  denyAuthorization: boolean;
  /** How the device authorization grant answers polls: pending polls, `slow_down`, the outcome, the interval. */
  deviceFlow: DeviceFlowBehaviour;
}

/** The public client and its registered redirect URI. */
export interface PublicClient {
  clientId: string;
  redirectUri: string;
}

interface AuthorizationCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  user: string;
  expiresAt: number;
}

interface DeviceCode {
  clientId: string;
  userCode: string;
  user: string;
  expiresAt: number;
  polls: number;
  /** Polls answered busy so far. */
  busyPolls: number;
  slowedDown: boolean;
  behaviour: DeviceFlowBehaviour;
  /** The audience the device authorization request asked for, if any. */
  audience?: string;
}

/**
 * What a token request for an interactive grant comes to: a user to issue a token to (`foreign`: one the admin
 * refuses, for another audience), or an OAuth error.
 */
export type GrantOutcome =
  | { user: string; foreign?: boolean }
  | { error: string; description: string; status?: number }
  | { busy: BusyAnswer };

/** Random URL-safe text, 32 bytes of entropy. */
export function randomText(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return prefix + btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

async function s256(verifier: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  return btoa(String.fromCharCode(...digest)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const USER_CODE_LETTERS = "BCDFGHJKLMNPQRSTVWXZ";

function userCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  const letters = [...bytes].map((b) => USER_CODE_LETTERS[b % USER_CODE_LETTERS.length]).join("");
  return `${letters.slice(0, 4)}-${letters.slice(4)}`;
}

/** The codes handed out and what becomes of them. */
export class InteractiveGrants {
  readonly client: PublicClient;
  behaviour: InteractiveBehaviour;
  readonly #now: () => Date;
  readonly #codes = new Map<string, AuthorizationCode>();
  readonly #devices = new Map<string, DeviceCode>();

  constructor(client: PublicClient, behaviour: InteractiveBehaviour, now: () => Date) {
    this.client = client;
    this.behaviour = behaviour;
    this.#now = now;
  }

  /** Whether `clientId` is the public client (which authenticates with its id alone). */
  isPublic(clientId: string): boolean {
    return clientId === this.client.clientId;
  }

  /**
   * The authorization endpoint (GET): a redirect to the redirect URI with a code and the state, or with an
   * error; a request that names no valid client or redirect URI is answered here, never redirected.
   */
  authorize(query: URLSearchParams): Response {
    const clientId = query.get("client_id") ?? "";
    const redirectUri = query.get("redirect_uri") ?? "";
    if (!this.isPublic(clientId)) return page(400, `unknown client "${clientId}"`);
    if (redirectUri !== this.client.redirectUri) return page(400, `redirect_uri "${redirectUri}" is not registered`);
    const redirect = (params: Record<string, string>) => {
      const target = new URL(redirectUri);
      for (const [key, value] of Object.entries(params)) target.searchParams.set(key, value);
      const state = query.get("state");
      if (state !== null) target.searchParams.set("state", state);
      return new Response(null, { status: 302, headers: { location: target.href, "cache-control": "no-store" } });
    };
    if (query.get("response_type") !== "code") {
      return redirect({ error: "unsupported_response_type", error_description: "only response_type=code" });
    }
    const challenge = query.get("code_challenge") ?? "";
    if (query.get("code_challenge_method") !== "S256" || !/^[A-Za-z0-9_-]{43}$/.test(challenge)) {
      return redirect({ error: "invalid_request", error_description: "PKCE with S256 is required" });
    }
    if (this.behaviour.denyAuthorization) {
      return redirect({ error: "access_denied", error_description: "the user refused the sign-in" });
    }
    const code = randomText("ac-");
    this.#codes.set(code, {
      clientId,
      redirectUri,
      challenge,
      user: this.behaviour.user,
      expiresAt: this.#now().getTime() + 60_000,
    });
    return redirect({ code });
  }

  /** The authorization code grant: the code is consumed, its redirect URI and verifier must match. */
  async redeemCode(form: URLSearchParams, clientId: string): Promise<GrantOutcome> {
    const code = form.get("code") ?? "";
    const entry = this.#codes.get(code);
    this.#codes.delete(code);
    const invalid = (description: string) => ({ error: "invalid_grant", description });
    if (!entry || entry.clientId !== clientId || this.#now().getTime() >= entry.expiresAt) {
      return invalid("the authorization code is invalid, expired or used");
    }
    if (form.get("redirect_uri") !== entry.redirectUri) return invalid("redirect_uri does not match");
    if (await s256(form.get("code_verifier") ?? "") !== entry.challenge) {
      return invalid("the code verifier does not match the code challenge");
    }
    return { user: entry.user };
  }

  /** The device authorization endpoint (POST), for the public client. */
  deviceAuthorization(
    form: URLSearchParams,
    base: string,
  ): { status: number; body: Record<string, unknown>; contentType?: string } | { busy: BusyAnswer } {
    const busy = this.behaviour.deviceFlow.busy;
    if (busy?.authorizations) {
      busy.authorizations--;
      return { busy: busyAnswer(busy) };
    }
    const clientId = form.get("client_id") ?? "";
    if (!this.isPublic(clientId)) {
      return { status: 401, body: { error: "invalid_client", error_description: `unknown client "${clientId}"` } };
    }
    const behaviour = { ...this.behaviour.deviceFlow };
    const expiresIn = behaviour.expiresInSeconds ?? 600;
    const deviceCode = randomText("dc-");
    const code = userCode();
    this.#devices.set(deviceCode, {
      clientId,
      userCode: code,
      user: this.behaviour.user,
      expiresAt: this.#now().getTime() + expiresIn * 1000,
      polls: 0,
      busyPolls: 0,
      slowedDown: false,
      behaviour,
      audience: form.get("audience") ?? undefined,
    });
    const verification = `${base}/oauth2/device`;
    const interval = behaviour.intervalSeconds === undefined ? 5 : behaviour.intervalSeconds;
    const dialect = behaviour.dialect ?? "rfc8628";
    if (dialect === "google" || dialect === "azure-v1") {
      const strings = dialect === "azure-v1";
      const number = (value: number) => strings ? String(value) : value;
      return {
        status: 200,
        body: {
          device_code: deviceCode,
          user_code: code,
          verification_url: verification,
          expires_in: number(expiresIn),
          ...(interval === null ? {} : { interval: number(interval) }),
          ...(strings ? { message: `To sign in, open ${verification} and enter the code ${code}.` } : {}),
        },
      };
    }
    return {
      status: 200,
      body: {
        device_code: deviceCode,
        user_code: code,
        verification_uri: verification,
        ...(behaviour.completeUri ?? true
          ? { verification_uri_complete: `${verification}?user_code=${encodeURIComponent(code)}` }
          : {}),
        expires_in: expiresIn,
        ...(interval === null ? {} : { interval }),
      },
      ...(dialect === "dex" ? { contentType: "text/plain; charset=utf-8" } : {}),
    };
  }

  /** One poll of the device code grant. */
  pollDevice(form: URLSearchParams, clientId: string): GrantOutcome {
    const deviceCode = form.get("device_code") ?? "";
    const entry = this.#devices.get(deviceCode);
    if (!entry || entry.clientId !== clientId) return { error: "invalid_grant", description: "unknown device code" };
    const behaviour = entry.behaviour;
    const expired = () => {
      this.#devices.delete(deviceCode);
      return { error: "expired_token", description: "the device code expired" };
    };
    if (this.#now().getTime() >= entry.expiresAt) return expired();
    if (entry.busyPolls < (behaviour.busy?.polls ?? 0)) {
      entry.busyPolls++;
      return { busy: busyAnswer(behaviour.busy!) };
    }
    if (entry.polls < (behaviour.pendingPolls ?? 0)) {
      entry.polls++;
      const status = behaviour.dialect === "dex" ? 401 : 400;
      return { error: "authorization_pending", description: "the user has not approved the sign-in yet", status };
    }
    if (behaviour.slowDown && !entry.slowedDown) {
      entry.slowedDown = true;
      return { error: "slow_down", description: "polling too fast" };
    }
    const outcome = behaviour.outcome ?? "approve";
    if (outcome === "expire") return expired();
    this.#devices.delete(deviceCode);
    if (outcome === "deny") return { error: "access_denied", description: "the user refused the sign-in" };
    const foreign = behaviour.audience !== undefined && entry.audience !== behaviour.audience;
    return foreign ? { user: entry.user, foreign } : { user: entry.user };
  }
}

/** A plain page for a request the authorization endpoint cannot redirect. */
function page(status: number, text: string): Response {
  return new Response(`${text}\n`, { status, headers: { "content-type": "text/plain; charset=utf-8" } });
}
