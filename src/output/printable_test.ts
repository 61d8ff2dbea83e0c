import { equal } from "node:assert/strict";
import { printable } from "./printable.ts";

Deno.test("printable: control characters are shown as escapes; printable text, non-ASCII included, is kept", () => {
  equal(printable("denied \x1b[2J\x1b]0;owned\x07"), "denied \\x1b[2J\\x1b]0;owned\\x07");
  equal(printable("a\nb\r\tc\x00\x7f\u009b"), "a\\nb\\r\\tc\\x00\\x7f\\x9b");
  equal(printable("safe \u202eevil"), "safe \\u202eevil");
  equal(printable("Grüße, 東京 🚀"), "Grüße, 東京 🚀");
});

Deno.test("printable: longer text is cut to the limit, from either end, never inside an escape or a character", () => {
  equal(printable("a".repeat(1000), 10), "aaaaaaaaa…");
  equal(printable("abcdef", 6), "abcdef");
  equal(printable("line 1\nline 2", 9, { keepEnd: true }), "…\\nline 2");
  equal(printable("line 1\nline 2", 8, { keepEnd: true }), "…line 2");
  // The escape of \x1b (4 characters) does not fit in the 2 left: it is left out whole.
  equal(printable("abcd\x1bxyz", 7), "abcd…");
  equal(printable("x\x1b" + "y".repeat(3), 6, { keepEnd: true }), "…yyy");
  equal(printable("🚀🚀🚀", 4), "🚀…");
  equal(printable("🚀🚀🚀", 4, { keepEnd: true }), "…🚀");
  equal(printable("z".repeat(5_000_000) + "end", 5, { keepEnd: true }), "…zend");
});
