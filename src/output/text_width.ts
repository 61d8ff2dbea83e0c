/**
 * Display width of text in a terminal: East Asian wide and fullwidth characters and most
 * emoji take two columns, combining marks and zero-width characters none.
 *
 * @module
 */

const ZERO_WIDTH =
  /[\u0300-\u036f\u0483-\u0489\u0591-\u05bd\u0610-\u061a\u064b-\u065f\u200b-\u200f\u20d0-\u20ff\ufe00-\ufe0f\ufe20-\ufe2f]/u;

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

function isWide(cp: number): boolean {
  return (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0x303e) || (cp >= 0x3041 && cp <= 0x33ff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0xa000 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) || (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff) || (cp >= 0x20000 && cp <= 0x3fffd);
}

/** Columns `text` occupies in a terminal (no escape codes expected). */
export function displayWidth(text: string): number {
  // Most cells are printable ASCII: one column per character, no per-character work (10k-row tables).
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let width = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || ZERO_WIDTH.test(ch)) continue;
    width += isWide(cp) ? 2 : 1;
  }
  return width;
}

/** Cuts `text` to at most `max` columns, ending with `...` when cut. */
export function truncateToWidth(text: string, max: number): string {
  if (displayWidth(text) <= max) return text;
  const budget = Math.max(0, max - 3);
  let out = "";
  let width = 0;
  for (const ch of text) {
    const w = displayWidth(ch);
    if (width + w > budget) break;
    out += ch;
    width += w;
  }
  return out + "...";
}

/** Pads `text` with spaces to `width` columns. */
export function padToWidth(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - displayWidth(text)));
}

/** Characters after which a word too long for its line is best broken: paths and dotted names. */
const BREAK_AFTER = /[/._\-:,]/;

/**
 * Splits `text` into lines of at most `width` columns, between words where it can; a word longer than a line
 * is broken after a `/` in the line's second half, else after a `.`, `_`, `-`, `:` or `,` there, else where the
 * line ends. Nothing is lost: the lines hold every character of `text` but the spaces they were broken at.
 */
export function wrapToWidth(text: string, width: number): string[] {
  const max = Math.max(1, width);
  if (displayWidth(text) <= max) return [text];
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    const joined = line === "" ? word : `${line} ${word}`;
    if (displayWidth(joined) <= max) {
      line = joined;
      continue;
    }
    if (line !== "") lines.push(line);
    line = displayWidth(word) > max ? breakWord(word, max, lines) : word;
  }
  if (line !== "" || lines.length === 0) lines.push(line);
  return lines;
}

/**
 * Adds the lines of `max` columns a word too long for one is broken into to `lines`, and returns its last part,
 * which fits. In one pass over the word: a name or description an admin answers can be megabytes without a space,
 * and breaking it again from each line's start took minutes.
 */
function breakWord(word: string, max: number, lines: string[]): string {
  const chars = [...word];
  let from = 0;
  for (;;) {
    let width = 0;
    let end = from;
    let breakAt = 0;
    let slashAt = 0;
    while (end < chars.length) {
      const w = displayWidth(chars[end]);
      if (width + w > max) break;
      width += w;
      end++;
      if (BREAK_AFTER.test(chars[end - 1]) && width * 2 > max) breakAt = end;
      if (chars[end - 1] === "/" && width * 2 > max) slashAt = end;
    }
    if (end === chars.length) {
      const rest = chars.slice(from).join("");
      // Characters that join into wider ones (a sequence of emoji) can still be too wide: a line of their own.
      if (displayWidth(rest) <= max) return rest;
      lines.push(rest);
      return "";
    }
    // A character wider than the whole line still goes somewhere: alone on its line.
    const cut = slashAt || breakAt || Math.max(from + 1, end);
    lines.push(chars.slice(from, cut).join(""));
    from = cut;
  }
}
