/**
 * The process's token for one admin endpoint: the one to send up front, and one shared replacement when the
 * admin rejects it, so concurrent calls make a single token request between them. Every token is handed to
 * the run's redactor before anyone can use it. With a store, the token of the previous run is used first and
 * every new one is kept for the next; before renewing a token, the store is read again, since another fctl
 * process sharing it may have renewed it meanwhile (and a refresh token the server rotates works only once).
 *
 * @module
 */
/** An access token and what came with it. */
export interface Token {
  accessToken: string;
  /** For the refresh grant, when the server issued one. */
  refreshToken?: string;
  /** Milliseconds since the epoch; absent when the source does not say (the token is used until rejected). */
  expiresAt?: number;
  /** When it was received (milliseconds since the epoch), with {@link expiresAt}: its lifetime bounds the refresh window. */
  receivedAt?: number;
  /** The metadata key it was sent in, so that a stored token needs no discovery. */
  metadataKey?: string;
}

/** Where a flow's token is kept between runs (the token cache file: `token_file.ts`). */
export interface TokenStore {
  /** The stored token, if any (never throws: an unreadable or malformed file is no token). */
  load(): Promise<Token | undefined>;
  /** Stores `token` (never throws: a failure falls back to memory, said once). */
  save(token: Token): Promise<void>;
}

/** Where tokens come from: one auth flow. */
export interface TokenSource {
  /**
   * A new token; `previous` (expired or rejected) may be refreshed with its refresh token. When the server
   * refuses that refresh, `renewedElsewhere` gives the token another process has stored meanwhile, if any,
   * which a flow takes rather than get one its own way (a new grant, or asking the user to sign in again).
   */
  fetch(previous: Token | undefined, renewedElsewhere?: () => Promise<Token | undefined>): Promise<Token>;
}

/** What the token manager needs. */
export interface TokenManagerOptions {
  /** The flow, made on first need (it may load an OAuth library and discover the authorization server). */
  source: () => Promise<TokenSource>;
  /** Every access and refresh token is registered here as soon as it arrives. */
  secrets: { add(secret: string | undefined): void };
  /** A token that expires within this many milliseconds is replaced before use. */
  refreshWindowMs: number;
  /** Milliseconds since the epoch. */
  now: () => number;
  /** Where tokens are kept between runs; default none (memory only). */
  store?: TokenStore;
}

/**
 * Holds the current token and the one fetch in flight. A failed fetch is kept: within one process the same
 * credentials would fail the same way, so every later call gets the same one clear error at once.
 */
export class TokenManager {
  readonly #options: TokenManagerOptions;
  #current?: Token;
  #pending?: Promise<Token>;
  #failed?: Promise<Token>;
  #loaded?: Promise<void>;

  constructor(options: TokenManagerOptions) {
    this.#options = options;
  }

  /**
   * The token to send with a call before the admin asks for one: the cached token while it is fresh, the one
   * being fetched, a refreshed one in place of a stale one, else none (no fetch: an admin without auth costs
   * nothing). Rejects with the kept failure, if any.
   */
  async upFront(): Promise<Token | undefined> {
    await (this.#loaded ??= this.#load());
    // A kept failure fails the call before it is sent: the admin asks for a token there is no way to get.
    if (this.#failed) return await this.#failed;
    if (this.#pending) return await this.#pending;
    const current = this.#current;
    if (!current) return undefined;
    return this.#fresh(current) ? current : await this.replace(current);
  }

  /**
   * A token to use instead of `rejected` (undefined: the call had none). Callers that saw the same token
   * share one fetch; a caller whose token was already replaced gets the replacement.
   */
  replace(rejected: Token | undefined): Promise<Token> {
    return this.#replace(rejected, true);
  }

  /** {@link replace}; `fromStore`: a token another process stored may stand in for the flow's. */
  #replace(rejected: Token | undefined, fromStore: boolean): Promise<Token> {
    if (this.#failed) return this.#failed;
    if (this.#pending) return this.#pending;
    const current = this.#current;
    if (current && current !== rejected && this.#fresh(current)) return Promise.resolve(current);
    this.#current = undefined;
    const pending = this.#renew(current, fromStore).then(async ({ token, stored }) => {
      this.#remember(token);
      if (!stored) await this.#options.store?.save(token);
      return token;
    });
    this.#pending = pending;
    pending.then(
      () => this.#pending = undefined,
      () => {
        this.#pending = undefined;
        this.#failed = pending;
      },
    );
    return pending;
  }

  /**
   * A token from the flow itself (no refresh, no cached token, no kept failure), kept and stored: what
   * `fctl auth login` asks for.
   */
  async login(): Promise<Token> {
    await (this.#loaded ??= this.#load());
    if (this.#pending) await this.#pending.catch(() => {});
    this.#current = undefined;
    this.#failed = undefined;
    return await this.#replace(undefined, false);
  }

  /**
   * A token in place of `current`: another process's, when `fromStore` and the store holds a fresh one that is
   * not `current`; else the flow's (`stored` false).
   */
  async #renew(current: Token | undefined, fromStore: boolean): Promise<{ token: Token; stored: boolean }> {
    let taken: Token | undefined;
    const renewedElsewhere = fromStore ? async () => taken = await this.#storedInsteadOf(current) : undefined;
    if (await renewedElsewhere?.()) return { token: taken!, stored: true };
    const source = await this.#options.source();
    const token = await source.fetch(current, renewedElsewhere);
    return { token, stored: token.accessToken === taken?.accessToken };
  }

  /** The stored token when it is fresh and not `current`: another process has renewed it. */
  async #storedInsteadOf(current: Token | undefined): Promise<Token | undefined> {
    const stored = await this.#options.store?.load();
    if (!stored || stored.accessToken === current?.accessToken || !this.#fresh(stored)) return undefined;
    return stored;
  }

  async #load(): Promise<void> {
    const stored = await this.#options.store?.load();
    if (stored && !this.#current) this.#remember(stored);
  }

  #remember(token: Token): void {
    this.#options.secrets.add(token.accessToken);
    this.#options.secrets.add(token.refreshToken);
    this.#current = token;
  }

  /**
   * Whether `token` is used as it is: it does not expire within the refresh window, which is at most half its
   * lifetime. A window as long as the lifetime (Pkce's and DeviceFlow's 5 minutes of `refreshTime`, Keycloak's
   * 5-minute tokens) would renew every token as soon as it came: a refresh per call, or a sign-in per run.
   */
  #fresh(token: Token): boolean {
    if (token.expiresAt === undefined) return true;
    const lifetimeMs = token.receivedAt === undefined ? Infinity : token.expiresAt - token.receivedAt;
    const windowMs = Math.min(this.#options.refreshWindowMs, lifetimeMs / 2);
    return this.#options.now() + windowMs < token.expiresAt;
  }
}
