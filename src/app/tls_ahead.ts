/**
 * Deno's TLS set-up, done on another thread while a command loads the admin client.
 *
 * The first TLS connection a Deno process makes costs about 60 ms of CPU before its first byte, on the thread
 * that makes it, whatever the server's certificate; later ones cost 2–4 ms (measured with `Deno.connectTls` to a
 * loopback server, and through `node:http2`, which fctl's admin client uses). Key generation on a NIST curve with
 * WebCrypto sets up the same state, and Deno runs it on a worker thread: one key asked for before the client's
 * modules load (about 50 ms of loading `node:http2` and Connect) sets it up beside them, and the handshake then
 * costs what a later one does. Measured: the first handshake 4 ms instead of 62 ms, the main thread spending under
 * 2 ms on asking.
 *
 * Only for a connection that will use TLS (over plaintext the key would be work for nothing), and only with more
 * than one core: on one, the worker thread would take its time from the main thread's loading, and a Deno whose
 * key generation no longer shared that set-up would make it pure extra work there.
 *
 * @module
 */
import { parseEndpoint, reachedInsecurely } from "../admin/endpoint.ts";
import type { LoadedConfig } from "../config/load.ts";

let started = false;

/**
 * Whether the configured admin is reached over TLS. False for an endpoint that does not parse: making the
 * client reports it.
 */
export function adminUsesTls(loaded: Pick<LoadedConfig, "config" | "sources">): boolean {
  try {
    return !reachedInsecurely(parseEndpoint(loaded.config["admin.endpoint"]), loaded);
  } catch {
    return false;
  }
}

/**
 * Starts Deno's TLS set-up on a worker thread, once per process; returns at once. The key made is dropped, and a
 * failure to make it only leaves the set-up to the first connection, as without this.
 */
export function prepareTlsAhead(): void {
  if (started || navigator.hardwareConcurrency < 2) return;
  started = true;
  crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign"]).catch(() => {});
}
