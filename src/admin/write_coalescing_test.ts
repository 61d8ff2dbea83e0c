import { deepEqual, equal } from "node:assert/strict";
import { Buffer } from "node:buffer";
import { connect, createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { coalesceWrites } from "./write_coalescing.ts";

/** A TCP server collecting what each connection sends until it ends. */
async function withReceiver(fn: (port: number, received: Promise<string>) => Promise<void>) {
  let resolveReceived: (text: string) => void;
  const received = new Promise<string>((resolve) => (resolveReceived = resolve));
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("end", () => {
      resolveReceived(Buffer.concat(chunks).toString());
      socket.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    await fn((server.address() as AddressInfo).port, received);
  } finally {
    // A failed assertion leaves the client's socket open: do not wait for it.
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** Records the batches the socket hands to the operating system: one entry per write or writev. */
function recordBatches(socket: Socket): string[][] {
  const batches: string[][] = [];
  const internal = socket as unknown as {
    _write(chunk: Buffer, encoding: string, cb: () => void): void;
    _writev(chunks: { chunk: Buffer }[], cb: () => void): void;
  };
  const write = internal._write.bind(socket);
  const writev = internal._writev.bind(socket);
  internal._write = (chunk, encoding, cb) => {
    batches.push([String(chunk)]);
    write(chunk, encoding, cb);
  };
  internal._writev = (chunks, cb) => {
    batches.push(chunks.map(({ chunk }) => String(chunk)));
    writev(chunks, cb);
  };
  return batches;
}

const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 1));

Deno.test("coalesceWrites: the writes of one turn go out as one batch, in order; the next turn's as another", async () => {
  await withReceiver(async (port, received) => {
    const socket = connect(port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    const batches = recordBatches(socket);
    equal(coalesceWrites(coalesceWrites(socket)), socket); // twice is the same as once

    for (const frame of ["a", "b", "c", "d", "e"]) socket.write(frame);
    await Promise.resolve().then(() => socket.write("f")); // a microtask is still the same turn
    equal(batches.length, 0, "nothing is sent before the turn ends");
    await nextTurn();
    deepEqual(batches, [["a", "b", "c", "d", "e", "f"]]);

    socket.write("g");
    socket.write("h");
    await nextTurn();
    deepEqual(batches, [["a", "b", "c", "d", "e", "f"], ["g", "h"]]);

    socket.write("i");
    socket.end("j"); // ending sends what is held at once
    equal(await received, "abcdefghij");
  });
});

Deno.test("coalesceWrites: destroying a socket with writes held neither throws nor sends them later", async () => {
  await withReceiver(async (port) => {
    const socket = coalesceWrites(connect(port, "127.0.0.1"));
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write("held");
    socket.destroy();
    await nextTurn();
    equal(socket.destroyed, true);
  });
});
