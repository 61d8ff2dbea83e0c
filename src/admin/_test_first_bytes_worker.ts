/**
 * A TCP listener on a thread of its own, for sessions_test.ts: it posts its port, then the wall-clock time
 * (ms) at which the first bytes of its first connection arrived. On its own thread it sees them arrive
 * while the test's thread runs JavaScript without handling any I/O.
 *
 * @module
 */
/// <reference lib="deno.worker" />

const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
self.postMessage({ port: listener.addr.port });
const conn = await listener.accept();
await conn.read(new Uint8Array(1));
self.postMessage({ firstBytesAt: Date.now() });
conn.close();
listener.close();
