/**
 * The HTTP/2 sessions of an admin client, made from its options: the endpoint's URL, TLS and CA, and the
 * CONNECT tunnel of a proxy. Apart from the client so that a command can open the connection before the
 * client's modules (Connect's Node transport, the service descriptors) have loaded: the TCP, TLS and HTTP/2
 * handshakes then overlap loading them (see `createAdminClient`'s `sessions`).
 *
 * @module
 */
import type { SecureClientSessionOptions } from "node:http2";
import type { AdminClientOptions } from "./client_options.ts";
import { endpointUrl, parseEndpoint } from "./endpoint.ts";
import type { ConnectionDescription } from "./errors.ts";
import { tunnelConnection } from "./proxy_tunnel.ts";
import { GuardedSessionManager } from "./session_guard.ts";
import { turnsOfTheEventLoop } from "../event_loop.ts";

/** Where an admin client's calls go, and the sessions that carry them. */
export interface AdminSessions {
  /** `scheme://host:port` of the admin service. */
  readonly baseUrl: string;
  /** Where the connection goes, for messages. */
  readonly connection: ConnectionDescription;
  /** The sessions; none is open until a call or `connect()` needs one. */
  readonly manager: GuardedSessionManager;
  /**
   * Whether the connection's set-up has a round trip to overlap with loading the client's modules: TLS's handshake,
   * or a proxy's tunnel ({@link openAhead}). Plain HTTP/2 straight to the admin has none: its preface goes with the
   * first call, which waits for no answer to it.
   */
  readonly opensAhead: boolean;
}

/** The sessions of an admin client with `options`; no connection is made until one is needed. */
export function adminSessions(options: AdminClientOptions): AdminSessions {
  const endpoint = parseEndpoint(options.endpoint);
  const insecure = options.insecure ?? endpoint.schemeInsecure ?? false;
  const baseUrl = endpointUrl(endpoint, insecure);
  const connection: ConnectionDescription = {
    endpoint: baseUrl,
    insecure,
    authType: options.authType,
    maxMessageSizeBytes: options.maxMessageSizeBytes,
  };
  const sessionOptions: SecureClientSessionOptions = {};
  if (!insecure) {
    // Under Deno, `ca` is handed to Deno.connectTls's `caCerts`, which trusts them in addition to the
    // system roots (Node would replace them; reading Node's root list needs --allow-sys).
    if (options.caCertificates) sessionOptions.ca = [options.caCertificates];
    if (options.insecureSkipVerify) sessionOptions.rejectUnauthorized = false;
  }
  if (options.proxy) {
    sessionOptions.createConnection = tunnelConnection({
      proxy: options.proxy,
      host: endpoint.host,
      port: endpoint.port,
      tls: insecure ? undefined : {
        ca: sessionOptions.ca,
        rejectUnauthorized: sessionOptions.rejectUnauthorized ?? true,
      },
    });
  }
  return {
    baseUrl,
    connection,
    manager: new GuardedSessionManager(baseUrl, sessionOptions),
    opensAhead: !insecure || options.proxy !== undefined,
  };
}

/**
 * How long {@link openAhead} waits for the TCP handshake: what a nearby admin takes, loopback or the same
 * network (a remote admin's takes a round trip, which loading the client's modules should overlap instead).
 */
const NEARBY_CONNECT_MS = 2;

/**
 * Opens the connection of `sessions` ahead of the first call, and resolves once its first steps have run:
 * the TCP handshake with a nearby admin done, and TLS's first flight sent. Evaluating the client's modules,
 * which callers do next, runs long stretches of JavaScript in which no I/O is handled; a handshake not started
 * before them waits for all of them, and its round trip follows the loading instead of overlapping it. A
 * remote admin's TCP handshake is not waited for beyond {@link NEARBY_CONNECT_MS}. Never rejects: a failed
 * connection is the first call's to report.
 */
export async function openAhead(sessions: AdminSessions): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    sessions.manager.socketConnected(),
    new Promise((resolve) => timer = setTimeout(resolve, NEARBY_CONNECT_MS)),
  ]);
  clearTimeout(timer);
  // The socket's connect handler has started TLS; one more turn of the event loop writes its first flight.
  await handleArrivedIo();
}

/**
 * Resolves after one turn of the event loop, in which the I/O that arrived meanwhile is handled. Put after the
 * longest evaluation of modules that follows {@link openAhead} (Connect's): a remote admin's TCP handshake that
 * completes during it then starts TLS at once instead of after all of the loading.
 */
export function handleArrivedIo(): Promise<void> {
  return turnsOfTheEventLoop(1);
}
