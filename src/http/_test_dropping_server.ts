/**
 * A TCP server on loopback whose first connection is closed before any answer and whose next ones are answered
 * `200` with a body: a connection that fails in passing, for tests of what is tried again.
 *
 * @module
 */

/** A running dropping server. */
export interface DroppingServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** How many connections it has taken so far. */
  connections(): number;
}

/** Runs `fn` with a dropping server answering `body`, closed when `fn` settles. */
export async function withDroppingServer(
  body: string,
  fn: (server: DroppingServer) => Promise<void>,
): Promise<void> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let connections = 0;
  const answer = new TextEncoder().encode(
    `HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
  );
  const serving = (async () => {
    for await (const conn of listener) {
      if (++connections === 1) {
        conn.close();
        continue;
      }
      await conn.read(new Uint8Array(4096));
      await conn.write(answer);
      conn.close();
    }
  })();
  try {
    await fn({ url: `http://127.0.0.1:${listener.addr.port}`, connections: () => connections });
  } finally {
    listener.close();
    await serving.catch(() => {});
  }
}
