/**
 * What `fctl auth status` shows: the endpoint, the flow, the cached token's expiry, and who the admin says the
 * caller is. It never starts an interactive flow: the admin is asked only with a token that works without
 * one (a fresh or refreshable cached token, or ExternalCommand's command).
 *
 * @module
 */
import type { Transport } from "@connectrpc/connect";
import type { AuthSettings } from "./settings.ts";
import { flowClientId } from "./flow_client_id.ts";
import { identityOf, userInfo } from "./user_info.ts";
import type { TokenStore } from "./tokens.ts";

/** The auth state of one endpoint. */
export interface AuthStatus {
  /** `host:port`. */
  endpoint: string;
  /** `admin.authType`. */
  flow: string;
  /** The client id the flow signs in with; absent for ExternalCommand, which uses none (`admin.command` gives the token). */
  clientId?: string;
  /** Whether the token cache holds a token for this endpoint, flow and client. */
  cached: boolean;
  /** The cached token's expiry (ISO 8601); absent when none is cached or the server gave none. */
  expiresAt?: string;
  /** Whether the cached token has expired (it may still be refreshed). */
  expired?: boolean;
  /** The identity the admin answered, when a token worked. */
  identity?: string;
  /** Why there is no identity. */
  identityError?: string;
}

/** What {@link authStatus} reads. */
export interface AuthStatusInput {
  endpoint: string;
  settings: AuthSettings;
  store: TokenStore;
  /** The admin client's transport (with its auth interceptor), for `UserInfo`. */
  transport: Transport;
  /** Milliseconds since the epoch. */
  now: () => number;
  signal?: AbortSignal;
}

/** The auth state of the configured endpoint, asking the admin for the identity when a token can be sent. */
export async function authStatus(input: AuthStatusInput): Promise<AuthStatus> {
  const { settings } = input;
  const cached = await input.store.load();
  const clientId = flowClientId(settings);
  const status: AuthStatus = {
    endpoint: input.endpoint,
    flow: settings.authType,
    ...(clientId === undefined ? {} : { clientId }),
    cached: cached !== undefined,
  };
  if (cached?.expiresAt !== undefined) {
    status.expiresAt = new Date(cached.expiresAt).toISOString();
    status.expired = cached.expiresAt <= input.now();
  }
  const usable = cached !== undefined && (!status.expired || cached.refreshToken !== undefined);
  if (!usable && settings.authType !== "ExternalCommand") {
    status.identityError = cached ? "the cached token has expired: run fctl auth login" : "not logged in";
    return status;
  }
  try {
    status.identity = identityOf(await userInfo(input.transport, input.signal)) || undefined;
    if (!status.identity) status.identityError = "the admin service named no identity";
  } catch (err) {
    status.identityError = err instanceof Error ? err.message : String(err);
  }
  return status;
}
