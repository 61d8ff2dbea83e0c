/**
 * The HTTP/2 sessions of Connect's gRPC transport to the admin: a session manager (Connect's
 * `sessionManager` option) that survives a connection the peer drops as soon as it is made.
 *
 * Why not Connect's `Http2SessionManager`: under Deno, when the peer drops a connection at once (a
 * proxy or load balancer refusing, a server closing every connection), node:http2 emits the socket's
 * EPIPE or ECONNRESET on the session, and closes it, before the promise callbacks that follow its
 * `connect` event run. That manager attaches its listeners in those callbacks, so the error is thrown
 * as uncaught and ends fctl with a stack trace (tested in client_test.ts); were it caught, the manager
 * would next assert, in a promise callback nobody awaits, that the destroyed session is open, leaving
 * the call that waits for it waiting. Connect offers no hook on a session before that point.
 * Here every session has its `error` listener from the moment it exists, and a session that dies while
 * connecting fails the calls waiting for it (Connect reports them, and `transport_status.ts` makes
 * them UNAVAILABLE). The next call opens a new session, as it does after a GOAWAY.
 *
 * Keep-alive pings, which fctl never configured, are not done. A session left after a GOAWAY is
 * unreferenced when idle, node:http2 closes it once its last stream ends, and {@link close} closes it
 * if it is still open.
 *
 * @module
 */
import type { GrpcTransportOptions } from "@connectrpc/connect-node";
import {
  type ClientHttp2Session,
  type ClientHttp2Stream,
  type ClientSessionRequestOptions,
  connect,
  constants,
  type OutgoingHttpHeaders,
  type SecureClientSessionOptions,
} from "node:http2";

/** Marks the error of calls still open when the sessions are closed (not a subclass: Connect's `instanceof` accepts any ConnectError). */
const CLOSED_HERE = Symbol("closedHere");

/** Whether `err` is the error of a call cut off by {@link GuardedSessionManager.close}: cancelled, by this side. */
export function isClosedHere(err: unknown): boolean {
  return typeof err === "object" && err !== null && CLOSED_HERE in err;
}

/**
 * Connect's errors. Loaded with the first stream (or a session closed before it was ready), not with this
 * module nor with the session: a command opens the connection before Connect and the service descriptors
 * have loaded (tens of ms), so that the TCP and TLS handshakes overlap loading them. A static import would
 * load Connect first, and an import started with the session would evaluate Connect, which blocks the
 * event loop, before the handshakes had started.
 */
type ConnectErrors = typeof import("./connect_errors.ts");

/** What Connect's transport asks of a session manager. */
type SessionManager = NonNullable<GrpcTransportOptions["sessionManager"]>;

/** One session, and what is known about it. */
interface Session {
  session: ClientHttp2Session;
  /** Resolves once connected; rejects if the session fails or closes first. */
  connected: Promise<ClientHttp2Session>;
  /** Resolves once the socket is connected (TLS's first flight is then on its way), or the session is settled. */
  socketConnected: Promise<void>;
  /** New streams may go here: not failed, not closed, no GOAWAY received. */
  usable: boolean;
  /** Streams open on it; the session keeps the process alive only while there are some. */
  streams: number;
}

/** The admin's HTTP/2 sessions for Connect's transport (see the module doc). */
export class GuardedSessionManager implements SessionManager {
  /** `scheme://host:port` the sessions go to, as Connect compares it with each call's URL. */
  readonly authority: string;
  readonly #options: SecureClientSessionOptions;
  #current: Session | undefined;
  /** Sessions replaced after a GOAWAY or a failure that may still have streams finishing. */
  readonly #retired = new Set<ClientHttp2Session>();
  /** Connect's errors, loading since they were first needed; {@link #errors} once loaded. */
  #loadingErrors?: Promise<ConnectErrors>;
  #errors?: ConnectErrors;

  /** Sessions to `baseUrl`'s origin, made with node:http2's `options`; none is opened until needed. */
  constructor(baseUrl: string, options: SecureClientSessionOptions = {}) {
    this.authority = new URL(baseUrl).origin;
    this.#options = options;
  }

  /** Opens a session ahead of the first call unless a usable one exists. Never rejects. */
  async connect(): Promise<void> {
    await this.#usable().connected.catch(() => {});
  }

  /**
   * Opens a session ahead of the first call unless a usable one exists, and resolves once its socket is
   * connected: the TCP handshake is done and TLS has started its own. Also resolves if the session is ready
   * or failed first. Never rejects; against a remote admin it takes a round trip, so callers bound the wait.
   */
  async socketConnected(): Promise<void> {
    await this.#usable().socketConnected;
  }

  /** Opens a request stream on a usable session, connecting first if needed (Connect's contract). */
  async request(
    method: string,
    path: string,
    headers: OutgoingHttpHeaders,
    options: Omit<ClientSessionRequestOptions, "signal">,
  ): Promise<ClientHttp2Stream> {
    const entry = this.#usable();
    const [session, { Code, ConnectError }] = await Promise.all([entry.connected, this.#connectErrors()]);
    // The server may close a connection right after accepting it (a proxy or load balancer refusing).
    if (session.closed || session.destroyed) {
      entry.usable = false;
      throw new ConnectError("the server closed the connection as soon as it was made", Code.Unavailable);
    }
    const stream = session.request({ ...headers, ":method": method, ":path": path }, options);
    if (entry.streams++ === 0) session.ref();
    stream.once("close", () => {
      if (--entry.streams === 0 && !session.destroyed) session.unref();
    });
    return stream;
  }

  /** Connect reports reads for keep-alive pings, which are not done here. */
  notifyResponseByteRead(): void {}

  /** Closes every session; calls still open on them fail. Safe to call more than once. */
  close(): void {
    const sessions = [...this.#retired];
    if (this.#current) sessions.push(this.#current.session);
    this.#current = undefined;
    this.#retired.clear();
    for (const session of sessions) {
      // As Connect's session manager closes: with a reason, and CANCEL for the streams given up on. Connect's
      // errors have loaded unless the session was opened ahead and closed at once: no call has used it then.
      const errors = this.#errors;
      const aborted = errors
        ? new errors.ConnectError("connection aborted", errors.Code.Canceled)
        : new Error("connection aborted");
      const reason = Object.assign(aborted, { [CLOSED_HERE]: true });
      if (!session.destroyed) session.destroy(reason, constants.NGHTTP2_CANCEL);
    }
  }

  #usable(): Session {
    const entry = this.#current;
    if (entry?.usable && !entry.session.closed && !entry.session.destroyed) return entry;
    if (entry && !entry.session.destroyed) this.#retired.add(entry.session);
    return this.#current = this.#open();
  }

  /** Connect's errors, loaded once. */
  #connectErrors(): Promise<ConnectErrors> {
    return this.#loadingErrors ??= import("./connect_errors.ts").then((module) => this.#errors = module);
  }

  #open(): Session {
    const session = connect(this.authority, this.#options);
    const entry: Session = { session, connected: undefined!, socketConnected: undefined!, usable: true, streams: 0 };
    let ready = false;
    entry.connected = new Promise((resolve, reject) => {
      session.once("connect", () => {
        ready = true;
        // An idle session must not keep a finished command running; one being made must (its result
        // is awaited), so it is unreferenced only once connected, when no stream can be open yet.
        session.unref();
        resolve(session);
      });
      // For the session's whole life: see the module doc. Calls in flight fail through their streams.
      session.on("error", (err) => {
        entry.usable = false;
        reject(err);
      });
      session.once("close", () => {
        entry.usable = false;
        this.#retired.delete(session);
        // Only a session that never connected leaves anything waiting, and only its waiters need Connect's error.
        if (ready) return;
        this.#connectErrors().then(
          ({ Code, ConnectError }) =>
            reject(new ConnectError("the connection was closed before it was ready", Code.Unavailable)),
          reject,
        );
      });
    });
    // A session opened ahead of time may fail with no call waiting for it: that is not unhandled.
    entry.connected.catch(() => {});
    entry.socketConnected = new Promise<void>((resolve) => {
      session.socket?.once("connect", () => resolve());
      entry.connected.then(() => resolve(), () => resolve());
    });
    // After GOAWAY no new stream may start here; the next call opens a new session.
    session.on("goaway", () => void (entry.usable = false));
    return entry;
  }
}
