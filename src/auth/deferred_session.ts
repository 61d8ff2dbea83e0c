/**
 * The auth of an admin client until a token is known to be needed: the auth session itself (`interceptor.ts`:
 * the token manager, discovery, the flows) loads only when a token is stored for this endpoint, flow and client,
 * or when the admin answers a call UNAUTHENTICATED, or on `fctl auth login`. Against an admin without auth it
 * never loads: a call then costs one read of the token cache, once per client. A cached token found by that read is
 * the one the session starts from: the cache is not read a second time for it.
 *
 * @module
 */
import {
  Code,
  ConnectError,
  type Interceptor,
  type StreamResponse,
  type UnaryRequest,
  type UnaryResponse,
} from "@connectrpc/connect";
import type { Token, TokenStore } from "./tokens.ts";

/** Where discovery's own calls go: they never carry a token (the auth session passes them through too). */
const AUTH_METADATA_SERVICE = "flyteidl.service.AuthMetadataService";

/** Whether `req` is one of discovery's own calls, which never carry a token (nor do streams). */
export function isDiscoveryCall(req: { service: { typeName: string } }): boolean {
  return req.service.typeName === AUTH_METADATA_SERVICE;
}

/** The rest of a call's interceptors and its transport, as an interceptor is given them (Connect's `AnyFn`). */
export type NextCall = Parameters<Interceptor>[0];

/** One admin client's auth: the interceptor, and the flow on demand (`fctl auth login`). */
export interface AuthSession {
  interceptor: Interceptor;
  /** Runs the configured flow now, whatever the admin says, and keeps (and stores) its token. */
  login(): Promise<Token>;
}

/** The auth session itself, which {@link deferredAuthSession} loads: it also takes over a call already refused. */
export interface LoadedAuthSession extends AuthSession {
  /**
   * Answers a unary call that was sent without a token and refused as UNAUTHENTICATED: gets a token (one fetch
   * shared by every call waiting for it) and sends the call once more with it.
   */
  afterUnauthenticated(next: NextCall, req: UnaryRequest): Promise<UnaryResponse | StreamResponse>;
}

/** What {@link deferredAuthSession} needs. */
export interface DeferredAuthOptions {
  /**
   * The token cache the session reads up front; undefined when its flow keeps none (ExternalCommand: the
   * command is its cache), so that no call ever finds a token before the admin asks for one.
   */
  tokenStore?: TokenStore;
  /**
   * Makes the auth session, once, over `tokenStore`: {@link DeferredAuthOptions.tokenStore} itself, whose first
   * `load` answers with what the deferred session read when that read found a token (or failed).
   */
  load: (tokenStore: TokenStore | undefined) => Promise<LoadedAuthSession>;
}

/**
 * An {@link AuthSession} that loads the real one on first need. Until then a call goes without a token, exactly
 * as the real session sends it when no token is cached; once loaded, every call is the real session's.
 */
export function deferredAuthSession(options: DeferredAuthOptions): AuthSession {
  const store = options.tokenStore;
  // The read that found a token (or failed), handed to the session as its store's first answer.
  let read: Promise<Token | undefined> | undefined;
  const replaying: TokenStore | undefined = store && {
    load: () => {
      const first = read;
      read = undefined;
      return first ?? store.load();
    },
    save: (token) => store.save(token),
  };
  let session: LoadedAuthSession | undefined;
  let loading: Promise<LoadedAuthSession> | undefined;
  const loaded = () => loading ??= options.load(replaying).then((made) => session = made);
  // Read once: whether a token for this client is cached (a failure to read it is the session's to handle). Only a
  // read that loads the session is replayed: after a refusal the session reads the cache afresh, for a token another
  // process may have stored since.
  let cached: Promise<boolean> | undefined;
  const tokenCached = () => {
    if (!store) return Promise.resolve(false);
    return cached ??= (async () => {
      const reading = store.load();
      const found = await reading.then((token) => token !== undefined, () => true);
      if (found) read = reading;
      return found;
    })();
  };
  const interceptor: Interceptor = (next) => async (req) => {
    if (session) return await session.interceptor(next)(req);
    if (req.stream || isDiscoveryCall(req)) return await next(req);
    if (await tokenCached()) return await (await loaded()).interceptor(next)(req);
    try {
      return await next(req);
    } catch (err) {
      if (ConnectError.from(err).code !== Code.Unauthenticated) throw err;
      return await (await loaded()).afterUnauthenticated(next, req);
    }
  };
  return {
    interceptor,
    login: async () => await (await loaded()).login(),
  };
}
