/**
 * Network round trips for the benchmarks, on loopback:
 *
 * - a TCP relay for the bench admin that holds every chunk for half the round trip in each direction before
 *   passing it on, in order; a new connection's first bytes wait one more half round trip, as for the TCP
 *   handshake. What crosses it (h2c, TLS, HTTP/2) is passed through untouched, so a client's handshakes cost
 *   round trips as they do against an admin across a network, which an injected delay before every RPC does not
 *   model. The client's own TCP connect completes at once, as to a tunnel's local end (`kubectl port-forward`).
 * - an HTTP CONNECT proxy (`HTTPS_PROXY`) whose tunnel is ready one round trip after it is asked for, then relays
 *   as above: the client learns that its connection is up a round trip after asking, as from a TCP handshake
 *   with a remote admin, which the relay cannot show (the kernel completes that handshake at once).
 *
 *   deno run --allow-net scripts/bench_rtt_relay.ts --proxy RTT_MS     prints the proxy's URL, serves until Ctrl-C
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
  return serve((client, open) => relay(client, targetPort, rttMs / 2, open));
}

/** A CONNECT proxy on `127.0.0.1:<port>` whose tunnels are ready a round trip of `rttMs` after they are asked for. */
export function startRttProxy(rttMs: number): RttRelay {
  return serve((client, open) => tunnel(client, rttMs / 2, open));
}

/** Accepts connections on an ephemeral loopback port, each handled by `handle`; `open` holds what `close` ends. */
function serve(handle: (client: Deno.Conn, open: Set<Deno.Conn>) => Promise<void>): RttRelay {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const open = new Set<Deno.Conn>();
  void (async () => {
    for await (const client of listener) {
      open.add(client);
      void handle(client, open).catch(() => closeAll([client]));
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

/** Answers one CONNECT: half a round trip to reach the target, half back with the `200`, then relays. */
async function tunnel(client: Deno.Conn, oneWay: number, open: Set<Deno.Conn>): Promise<void> {
  const head = await readHead(client);
  const target = /^CONNECT (\S+):(\d+) HTTP\/1\.[01]\r\n/.exec(head);
  if (!target) {
    await writeAll(client, new TextEncoder().encode("HTTP/1.1 405 Method Not Allowed\r\n\r\n"));
    closeAll([client]);
    return;
  }
  await sleep(oneWay);
  const server = await Deno.connect({ hostname: target[1].replace(/^\[|\]$/g, ""), port: Number(target[2]) });
  open.add(server);
  await sleep(oneWay);
  await writeAll(client, new TextEncoder().encode("HTTP/1.1 200 Connection established\r\n\r\n"));
  await Promise.all([pass(client, server, oneWay), pass(server, client, oneWay)]);
  closeAll([client, server]);
  open.delete(client);
  open.delete(server);
}

/** The request head (up to its blank line), read a byte at a time so that nothing after it is consumed. */
async function readHead(conn: Deno.Conn): Promise<string> {
  const bytes: number[] = [];
  const byte = new Uint8Array(1);
  while (bytes.length < 16_384) {
    if (await conn.read(byte) === null) break;
    bytes.push(byte[0]);
    const n = bytes.length;
    if (n >= 4 && bytes[n - 4] === 13 && bytes[n - 3] === 10 && bytes[n - 2] === 13 && bytes[n - 1] === 10) break;
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
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

if (import.meta.main) {
  const [flag, value] = Deno.args;
  const rttMs = Number(value);
  if (flag !== "--proxy" || !Number.isInteger(rttMs) || rttMs < 0 || Deno.args.length !== 2) {
    console.error(`usage: bench_rtt_relay.ts --proxy RTT_MS (a whole number of ms), got "${Deno.args.join(" ")}"`);
    Deno.exit(2);
  }
  const proxy = startRttProxy(rttMs);
  Deno.addSignalListener("SIGINT", () => {
    proxy.close();
    Deno.exit(0);
  });
  console.log(`http://127.0.0.1:${proxy.port}`);
}
