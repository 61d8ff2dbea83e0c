import { ok } from "node:assert/strict";
import { adminSessions, openAhead } from "./sessions.ts";

/** A listener on its own thread that reports when the first bytes of a connection reach it. */
function firstBytesListener() {
  const worker = new Worker(new URL("./_test_first_bytes_worker.ts", import.meta.url), { type: "module" });
  const messages: Record<string, number>[] = [];
  let wake = () => {};
  worker.onmessage = (event) => {
    messages.push(event.data);
    wake();
  };
  const next = async (): Promise<Record<string, number>> => {
    while (messages.length === 0) await new Promise<void>((resolve) => wake = resolve);
    return messages.shift()!;
  };
  return { next, [Symbol.dispose]: () => worker.terminate() };
}

for (const insecure of [false, true]) {
  const first = insecure ? "the HTTP/2 preface" : "TLS's first flight (ClientHello)";
  Deno.test(`openAhead: ${first} is sent before the caller's next stretch of JavaScript runs`, async () => {
    using listener = firstBytesListener();
    const { port } = await listener.next();
    const sessions = adminSessions({ endpoint: `dns:///127.0.0.1:${port}`, insecure });
    try {
      await openAhead(sessions);
      // Stands for evaluating the client's modules, which a command does next: no I/O is handled meanwhile.
      const blockStart = Date.now();
      while (Date.now() - blockStart < 1_000) { /* busy */ }
      const { firstBytesAt } = await listener.next();
      // Sent before the block, the bytes arrive at its start; sent only after it, a second later.
      ok(firstBytesAt - blockStart < 500, `the first bytes arrived ${firstBytesAt - blockStart} ms into the block`);
    } finally {
      sessions.manager.close();
    }
  });
}

Deno.test("adminSessions: TLS, and a proxy's tunnel, open ahead; plain HTTP/2 straight to the admin has nothing to send", () => {
  const opensAhead = (options: Parameters<typeof adminSessions>[0]) => adminSessions(options).opensAhead;
  ok(opensAhead({ endpoint: "dns:///flyte.example.com:443" }));
  ok(opensAhead({ endpoint: "dns:///flyte.example.com:443", insecure: false, proxy: "http://proxy.internal:3128" }));
  ok(opensAhead({ endpoint: "dns:///flyte.example.com:80", insecure: true, proxy: "http://proxy.internal:3128" }));
  ok(!opensAhead({ endpoint: "dns:///flyte.example.com:80", insecure: true }));
  ok(!opensAhead({ endpoint: "http://flyte.example.com:80" }), "an http:// endpoint is plain HTTP/2 too");
});
