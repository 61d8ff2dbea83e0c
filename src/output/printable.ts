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
  // Most text (every cell of a table) has nothing to show otherwise: returned as it is, without a pass per character.
  if (text.length <= maxLength && !UNPRINTABLE.test(text)) return text;
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

/** How {@link excerpt} shapes text. */
export interface ExcerptOptions {
  /**
   * Hides secrets (the run's redactor), applied before the text is cut, so that no part of a secret is left
   * at the cut where the whole one would no longer be recognised.
   */
  redact?: (text: string) => string;
}

/** Most of a text {@link excerpt} looks at: what a server sends may be megabytes, of which 300 characters are shown. */
const EXCERPT_WINDOW = 64 * 1024;

/** `… (N more characters)`: what a cut text ends with, saying how much was left out. */
function dropMarker(dropped: number): string {
  return `… (${dropped} more ${dropped === 1 ? "character" : "characters"})`;
}

/**
 * Text from outside fctl (a server's error, a program's output) as an error line quotes it: on one line (line
 * breaks and the blanks around them become one space), secrets hidden by `options.redact`, control characters
 * shown as escapes, and at most `maxLength` characters of it, followed by `… (N more characters)` when cut.
 * The cut falls between words: a word cut in half (which may be the start of a token or a credential) is left
 * out whole. Only the first 64 KiB of a longer text is looked at.
 *
 * ```ts
 * import { excerpt } from "./printable.ts";
 *
 * excerpt("invalid_client:\n\x1b[2Jbad secret"); // "invalid_client: \\x1b[2Jbad secret"
 * excerpt("token AT-abcdefghij expired", 12); // "token… (21 more characters)"
 * excerpt("key s3cr3t", 300, { redact: (t) => t.replaceAll("s3cr3t", "[redacted]") }); // "key [redacted]"
 * ```
 */
export function excerpt(text: string, maxLength = 300, options: ExcerptOptions = {}): string {
  let window = text;
  if (text.length > EXCERPT_WINDOW) {
    window = text.slice(0, EXCERPT_WINDOW);
    // The window ends inside a word unless blank follows: that word is left out, as at any cut.
    if (!/\s/.test(text.charAt(EXCERPT_WINDOW))) window = window.replace(/\S+$/, "");
  }
  const redacted = options.redact ? options.redact(window) : window;
  const flat = redacted.replace(/\s*[\r\n]+\s*/g, " ").trim();
  const chars: string[] = [];
  const pieces: string[] = [];
  let used = 0;
  for (const char of flat) {
    const piece = printable(char);
    if (used + piece.length > maxLength) break;
    chars.push(char);
    pieces.push(piece);
    used += piece.length;
  }
  let consumed = chars.reduce((sum, char) => sum + char.length, 0);
  if (consumed === flat.length && window === text) return pieces.join("");
  // Cut inside a word: back to the blank before it.
  if (consumed < flat.length && !/\s/.test(flat.charAt(consumed))) {
    while (chars.length > 0 && !/\s/.test(chars[chars.length - 1])) {
      consumed -= chars.pop()!.length;
      pieces.pop();
    }
  }
  const shown = pieces.join("").trimEnd();
  const dropped = flat.length - consumed + (text.length - window.length);
  return `${shown}${dropMarker(dropped)}`;
}

/**
 * `text` cut to at most `maxLength` characters (never inside a surrogate pair), followed by
 * `… (N more characters)` when cut; nothing is escaped (for a record whose format escapes, such as JSON).
 * `droppedBefore`: characters the caller already left out after `text` (it passed only the start of a longer
 * one), counted in the marker.
 *
 * ```ts
 * import { capLength } from "./printable.ts";
 *
 * capLength("a".repeat(1000), 4); // "aaaa… (996 more characters)"
 * capLength("short", 100); // "short"
 * ```
 */
export function capLength(text: string, maxLength: number, droppedBefore = 0): string {
  if (text.length <= maxLength && droppedBefore === 0) return text;
  let end = Math.min(maxLength, text.length);
  // A high surrogate at the end would leave half a character.
  if (end > 0 && end < text.length && /[\ud800-\udbff]/.test(text.charAt(end - 1))) end--;
  return `${text.slice(0, end)}${dropMarker(text.length - end + droppedBefore)}`;
}

/** What JSON leaves as it is but a terminal acts on: DEL, the C1 controls, bidirectional overrides and isolates. */
const UNESCAPED_BY_JSON = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A JSON text with the characters a terminal acts on that `JSON.stringify` leaves as they are (DEL, C1 controls
 * such as U+009B, bidirectional overrides) written as `\u` escapes: the same JSON value, safe to print. C0
 * controls (ESC, line breaks) are escaped by `JSON.stringify` itself. Such characters appear only inside JSON
 * strings, where a `\u` escape means the same character.
 *
 * ```ts
 * import { printableJson } from "./printable.ts";
 *
 * printableJson(JSON.stringify({ name: "a\u009b2Jb" })); // '{"name":"a\\u009b2Jb"}'
 * ```
 */
export function printableJson(json: string): string {
  return json.replace(UNESCAPED_BY_JSON, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
