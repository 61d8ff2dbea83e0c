/**
 * Ending the response bodies a test server left open on purpose (one chunk, then nothing), so that its shutdown,
 * which waits for every response to end, does not wait for ever when the client never cancelled one.
 *
 * @module
 */

/** Closes each body; one the client already cancelled is skipped. */
export function endStalledBodies(bodies: Iterable<ReadableStreamDefaultController<Uint8Array>>): void {
  for (const body of bodies) {
    try {
      body.close();
    } catch {
      // Cancelled by the client already.
    }
  }
}
