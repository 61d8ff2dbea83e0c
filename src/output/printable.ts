/**
 * Text from outside fctl (a program's stderr, a server's message) made safe to show on a terminal: control
 * characters appear as visible escapes instead of moving the cursor, clearing the screen or setting the
 * title, and the length is capped.
 *
 * @module
 */

/** How {@link printable} cuts text longer than its limit. */
export interface PrintableOptions {
  /** Keep the end of the text rather than its start (the last lines of a program's stderr say the most). */
  keepEnd?: boolean;
}

// C0 controls, DEL, C1 controls (U+009B alone starts an escape sequence on some terminals), and the
// bidirectional embeddings, overrides and isolates, which reorder what a terminal shows.
// deno-lint-ignore no-control-regex -- control characters are exactly what this finds
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** One character as it is shown: itself, or an escape (`\n`, `\x1b`, `\u202e`). */
function shown(char: string): string {
  if (!UNPRINTABLE.test(char)) return char;
  const code = char.charCodeAt(0);
  return NAMED[char] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16)}`);
}

/**
 * `text` with every control character shown as an escape, at most `maxLength` characters long; longer text
 * is cut (never inside an escape or a surrogate pair) and marked with `…` where it was cut.
 *
 * ```ts
 * import { printable } from "./printable.ts";
 *
 * printable("denied \x1b[2J"); // "denied \\x1b[2J"
 * printable("a".repeat(1000), 10); // "aaaaaaaaa…"
 * printable("line 1\nline 2", 9, { keepEnd: true }); // "…\\nline 2"
 * ```
 */
export function printable(text: string, maxLength = Infinity, options: PrintableOptions = {}): string {
  // Each character shows as one or more: no more of the text than maxLength can be needed.
  const needed = Number.isFinite(maxLength) && text.length > maxLength + 1
    ? (options.keepEnd ? text.slice(-(maxLength + 1)) : text.slice(0, maxLength + 1))
    : text;
  const pieces = Array.from(needed, shown);
  let length = 0;
  for (const piece of pieces) length += piece.length;
  if (length <= maxLength && needed === text) return pieces.join("");
  const budget = Math.max(0, maxLength - 1);
  const kept: string[] = [];
  let used = 0;
  for (const piece of options.keepEnd ? pieces.reverse() : pieces) {
    if (used + piece.length > budget) break;
    kept.push(piece);
    used += piece.length;
  }
  return options.keepEnd ? `…${kept.reverse().join("")}` : `${kept.join("")}…`;
}
