/**
 * A recording forward proxy on loopback, for tests of which HTTP calls go through a proxy.
 *
 * @module
 */

/** A running recording proxy. */
export interface RecordingProxy {
  url: string;
  /** The absolute-form request targets the proxy was asked for. */
  seen: string[];
  close(): Promise<void>;
}

/** Starts a forward proxy that answers every request itself, so a test sees which requests went through it. */
export function startProxy(name: string): RecordingProxy {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(req.url);
    return new Response(`${name} ${req.url}`);
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, seen, close: () => server.shutdown() };
}
