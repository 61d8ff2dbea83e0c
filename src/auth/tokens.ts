/**
 * The process's token for one admin endpoint: the one to send up front, and one shared replacement when the
 * admin rejects it, so concurrent calls make a single token request between them. Every token is handed to
 * the run's redactor before anyone can use it. With a store, the token of the previous run is used first and
 * every new one is kept for the next.
 *
 * @module
 */
import type { TokenStore } from "./token_file.ts";

/** An access token and what came with it. */
export interface Token {
  accessToken: string;
  /** For the refresh grant, when the server issued one. */
  refreshToken?: string;
  /** Milliseconds since the epoch; absent when the source does not say (the token is used until rejected). */
  expiresAt?: number;
  /** The metadata key it was sent in, so that a stored token needs no discovery. */
  metadataKey?: string;
}

/** Where tokens come from: one auth flow. */
export interface TokenSource {
  /** A new token; `previous` (expired or rejected) may be refreshed with its refresh token. */
  fetch(previous: Token | undefined): Promise<Token>;
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
    if (this.#failed) return this.#failed;
    if (this.#pending) return this.#pending;
    const current = this.#current;
    if (current && current !== rejected && this.#fresh(current)) return Promise.resolve(current);
    this.#current = undefined;
    const pending = this.#options.source()
      .then((source) => source.fetch(current))
      .then(async (token) => {
        this.#remember(token);
        await this.#options.store?.save(token);
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
    return await this.replace(undefined);
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

  #fresh(token: Token): boolean {
    return token.expiresAt === undefined || this.#options.now() + this.#options.refreshWindowMs < token.expiresAt;
  }
}
