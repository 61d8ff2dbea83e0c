/**
 * The HTTP/2 connection to the admin service: opened on first use (or ahead of it), reopened when the
 * server closes it or sends GOAWAY, and closed by the client.
 *
 * Why not Connect's `Http2SessionManager`: under Deno, when the peer drops a connection as soon as it
 * is made (a proxy or load balancer refusing), node:http2 emits the socket's error on the session on
 * the tick after `connect`, before that manager has attached listeners to the connected session. An
 * `error` event with no listener is thrown as uncaught, so fctl ended with a stack trace; guarding
 * the session exposed the manager's endless reconnect loop. Here every session has its `error`
 * listener from the moment it exists, and a session that dies while connecting fails the calls
 * waiting for it. Keep-alive pings, which fctl never configured, are not done; a session left after a
 * GOAWAY is unreferenced when idle, node:http2 closes it once its last stream ends, and closing the
 * connection closes it if it is still open.
 *
 * @module
 */
import {
  type ClientHttp2Session,
  type ClientHttp2Stream,
  connect,
  constants,
  type OutgoingHttpHeaders,
  type SecureClientSessionOptions,
} from "node:http2";
import { connect as netConnect, isIP } from "node:net";
import { connect as tlsConnect } from "node:tls";
import type { Duplex } from "node:stream";
import { Code, ConnectError } from "@connectrpc/connect";
import { coalesceWrites } from "./write_coalescing.ts";

const { NGHTTP2_CANCEL } = constants;

/** One session, and what is known about it. */
interface Session {
  session: ClientHttp2Session;
  /** Resolves once connected; rejects if the session fails or closes first. */
  connected: Promise<ClientHttp2Session>;
  /** New streams may go here: not failed, not closed, no GOAWAY received. */
  usable: boolean;
  /** Streams open on it; the session keeps the process alive only while there are some. */
  streams: number;
}

/** The admin's HTTP/2 connection (see the module doc). */
export class Http2Connection {
  /** `scheme://host:port` the connection goes to. */
  readonly authority: string;
  readonly #options: SecureClientSessionOptions;
  #current: Session | undefined;
  /** Sessions replaced after a GOAWAY or a failure that may still have streams finishing. */
  readonly #retired = new Set<ClientHttp2Session>();

  /** A connection to `authority`; nothing is opened until {@link ready} or {@link request}. */
  constructor(authority: string, options: SecureClientSessionOptions = {}) {
    this.authority = new URL(authority).origin;
    this.#options = options;
  }

  /** Opens a session unless a usable one exists; resolves when it is connected. */
  ready(): Promise<ClientHttp2Session> {
    return this.#usable().connected;
  }

  /** Opens a request stream on a usable session, connecting first if needed. */
  async request(headers: OutgoingHttpHeaders): Promise<ClientHttp2Stream> {
    const entry = this.#usable();
    await entry.connected;
    return this.#open(entry, headers);
  }

  /** Closes every session; calls still open on them fail. Safe to call more than once. */
  close(): void {
    const sessions = [...this.#retired];
    if (this.#current) sessions.push(this.#current.session);
    this.#current = undefined;
    this.#retired.clear();
    for (const session of sessions) {
      // As Connect's session manager closes: with a reason, and CANCEL for the streams given up on.
      // (Destroying without a reason tripped an assertion in Deno's nghttp2 now and then.)
      if (!session.destroyed) session.destroy(new ConnectError("connection aborted", Code.Canceled), NGHTTP2_CANCEL);
    }
  }

  #usable(): Session {
    const entry = this.#current;
    if (entry?.usable && !entry.session.closed && !entry.session.destroyed) return entry;
    if (entry && !entry.session.destroyed) this.#retired.add(entry.session);
    return this.#current = this.#connect();
  }

  #connect(): Session {
    const session = connect(this.authority, {
      ...this.#options,
      createConnection: (authority: URL) => coalesceWrites(this.#dial(authority)),
    });
    const entry: Session = { session, connected: undefined!, usable: true, streams: 0 };
    entry.connected = new Promise((resolve, reject) => {
      session.once("connect", () => {
        // An idle connection must not keep a finished command running; one being made must (its
        // result is awaited), so it is unreferenced only once connected. No stream is open yet: streams
        // open after `connected` resolves, right here, and each one references the session again.
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
        reject(new ConnectError("the connection was closed before it was ready", Code.Unavailable));
      });
    });
    // A connection opened ahead of time may fail with no call waiting for it: that is not unhandled.
    entry.connected.catch(() => {});
    // After GOAWAY no new stream may start here; the next call opens a new session.
    session.on("goaway", () => void (entry.usable = false));
    return entry;
  }

  /**
   * The connection's byte stream: the caller's (a proxy tunnel), or TCP, or TLS offering only `h2`, as
   * node:http2 would make it. Made here so that its writes can be coalesced (see write_coalescing.ts).
   */
  #dial(authority: URL): Duplex {
    const options = this.#options;
    if (options.createConnection) return options.createConnection(authority, options);
    const host = authority.hostname.replace(/^\[|\]$/g, "");
    if (authority.protocol === "http:") return netConnect({ host, port: Number(authority.port || 80) });
    return tlsConnect({
      ...options,
      host,
      port: Number(authority.port || 443),
      servername: options.servername ?? (isIP(host) ? undefined : host),
      ALPNProtocols: ["h2"],
    });
  }

  #open(entry: Session, headers: OutgoingHttpHeaders): ClientHttp2Stream {
    const session = entry.session;
    // The server may close a connection right after accepting it (a proxy or load balancer refusing).
    if (session.closed || session.destroyed) {
      entry.usable = false;
      throw new ConnectError("the server closed the connection as soon as it was made", Code.Unavailable);
    }
    const stream = session.request(headers);
    if (entry.streams++ === 0) session.ref();
    stream.once("close", () => {
      if (--entry.streams === 0 && !session.destroyed) session.unref();
    });
    return stream;
  }
}
