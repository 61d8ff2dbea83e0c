/**
 * Kubernetes' `rand.String`, with which FlyteAdmin makes up the names it makes up (executions, upload files).
 *
 * @module
 */

/** The letters of Kubernetes' random strings: no vowels (no words), no digits that look like letters. */
const ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

/** `length` random letters of Kubernetes' alphabet, as its `rand.String(length)` makes them. */
export function kubernetesRandomString(length: number): string {
  const picks = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(picks, (pick) => ALPHABET[pick % ALPHABET.length]).join("");
}
