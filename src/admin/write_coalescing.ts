/**
 * One socket write per turn of the event loop, however many HTTP/2 frames are ready.
 *
 * Node's HTTP/2 session collects the frames that become ready during a turn of the event loop and
 * sends them with one `writev` (it schedules the write with `setImmediate`). Deno's port of
 * node:http2 writes each frame with its own `socket.write`, a system call each: a unary gRPC call
 * costs about five, and a registration round of eight concurrent calls about forty, on both ends.
 * Corking the socket at the first write of a turn and uncorking it in that turn's check phase
 * restores Node's behaviour: one `writev` per turn and fewer, fuller TCP segments (a registration
 * against the sandbox goes from about 430 `sendto` calls to about 40 `writev`).
 *
 * @module
 */
import type { Writable } from "node:stream";

const COALESCING = Symbol("coalescing");

/**
 * Makes `socket` hold the writes of each event-loop turn and send them together at the end of the
 * turn. Returns `socket`; applying it twice changes nothing. Ending the socket sends what is held
 * (`end` uncorks), and destroying it drops it, as destroying drops unsent writes anyway.
 */
export function coalesceWrites<S extends Writable>(socket: S): S {
  const target = socket as S & { [COALESCING]?: true };
  if (target[COALESCING]) return socket;
  target[COALESCING] = true;
  const write = socket.write;
  let held = false;
  const release = () => {
    held = false;
    if (!socket.destroyed) socket.uncork();
  };
  // An own `write` on this one socket: the only hook between node:http2's frame writes and the socket.
  socket.write = function (this: S, ...args: Parameters<S["write"]>): boolean {
    if (!held && !socket.writableEnded && !socket.destroyed) {
      held = true;
      socket.cork();
      setImmediate(release);
    }
    return (write as (...a: unknown[]) => boolean).apply(this, args);
  } as S["write"];
  return socket;
}
