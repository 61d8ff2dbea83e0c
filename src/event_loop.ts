/**
 * Letting I/O happen before CPU-bound work: a call just made leaves only on a later turn of the event loop (its
 * frames are written then; a client's first call reads the token cache first), and a handshake that completed
 * meanwhile is handled only then. Work that holds the loop holds them back as long, so fctl gives them a few turns
 * first (registration's upload location, create execution's lookup, the connection opened ahead).
 *
 * @module
 */

/** Resolves after `turns` turns of the event loop: timers, and the I/O that completed meanwhile, run in each. */
export async function turnsOfTheEventLoop(turns: number): Promise<void> {
  for (let turn = 0; turn < turns; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
}
