/**
 * A network round trip for the bench admin: a TCP relay on loopback that holds every chunk for half the round
 * trip in each direction before passing it on, in order; a new connection's first bytes wait one more half
 * round trip, as for the TCP handshake. What crosses it (h2c, TLS, HTTP/2) is passed through untouched, so a client's
 * handshakes cost round trips as they do against an admin across a network, which an injected delay before
 * every RPC does not model.
 *
 * @module
 */

/** A running relay. */
export interface RttRelay {
  /** The loopback port clients connect to. */
  port: number;
  /** Stops accepting and ends every relayed connection; safe to call twice. */
  close(): void;
}

/** Relays `127.0.0.1:<port>` to `127.0.0.1:targetPort` with a round trip of `rttMs`. */
export function startRttRelay(targetPort: number, rttMs: number): RttRelay {
  const oneWay = rttMs / 2;
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const open = new Set<Deno.Conn>();
  void (async () => {
    for await (const client of listener) {
      open.add(client);
      void relay(client, targetPort, oneWay, open).catch(() => closeAll([client]));
    }
  })().catch(() => {});
  let closed = false;
  return {
    port: listener.addr.port,
    close: () => {
      if (closed) return;
      closed = true;
      listener.close();
      closeAll(open);
    },
  };
}

async function relay(client: Deno.Conn, targetPort: number, oneWay: number, open: Set<Deno.Conn>): Promise<void> {
  await sleep(oneWay);
  const server = await Deno.connect({ hostname: "127.0.0.1", port: targetPort });
  open.add(server);
  await Promise.all([pass(client, server, oneWay), pass(server, client, oneWay)]);
  closeAll([client, server]);
  open.delete(client);
  open.delete(server);
}

/** Copies `from` to `to`, each chunk written `delay` ms after it was read, in order; then ends `to`'s writes. */
async function pass(from: Deno.Conn, to: Deno.Conn, delay: number): Promise<void> {
  let written = Promise.resolve();
  try {
    for await (const chunk of from.readable) {
      const due = performance.now() + delay;
      written = written.then(async () => {
        await sleep(due - performance.now());
        await writeAll(to, chunk);
      });
      // A failed write is seen at the end; until then it must not count as unhandled.
      written.catch(() => {});
    }
    await written;
    await to.closeWrite();
  } catch {
    // Either side went away: the other is closed by the caller.
  }
}

async function writeAll(to: Deno.Conn, chunk: Uint8Array): Promise<void> {
  for (let offset = 0; offset < chunk.length;) offset += await to.write(chunk.subarray(offset));
}

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

function closeAll(conns: Iterable<Deno.Conn>): void {
  for (const conn of conns) {
    try {
      conn.close();
    } catch {
      // already closed
    }
  }
}
