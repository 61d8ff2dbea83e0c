/**
 * A TCP server on loopback that takes connections and never answers, for tests of what a command does while it
 * waits on one: time limits, Ctrl-C.
 *
 * @module
 */

/** A running mute server. */
export interface MuteServer {
  /** `127.0.0.1:<port>`. */
  hostPort: string;
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** How many connections it has taken so far. */
  connections(): number;
}

/**
 * Runs `fn` with a mute server, closed (with every connection) when `fn` settles. It reads what each connection
 * sends and drops it, or with `read: false` reads nothing, so that a large request stalls in the socket buffers.
 */
export async function withMuteServer(
  fn: (server: MuteServer) => Promise<void>,
  options: { read?: boolean } = {},
): Promise<void> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of listener) {
      held.push(conn);
      if (options.read ?? true) {
        void (async () => {
          for await (const _ of conn.readable) { /* taken, never answered */ }
        })().catch(() => {});
      }
    }
  })();
  const hostPort = `127.0.0.1:${listener.addr.port}`;
  try {
    await fn({ hostPort, url: `http://${hostPort}`, connections: () => held.length });
  } finally {
    listener.close();
    for (const conn of held) {
      try {
        conn.close();
      } catch {
        // closed by its reader
      }
    }
    await accepting.catch(() => {});
  }
}
