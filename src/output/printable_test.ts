import { equal } from "node:assert/strict";
import { capLength, excerpt, printable, printableJson } from "./printable.ts";

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

Deno.test("excerpt: one line, escapes shown, cut between words with how much was left out", () => {
  equal(excerpt("invalid_client:\n\x1b[2Jbad secret"), "invalid_client: \\x1b[2Jbad secret");
  equal(excerpt("  a\r\n\r\n  b\tc  "), "a b\\tc");
  equal(excerpt("token AT-abcdefghij expired", 12), "token… (21 more characters)");
  equal(excerpt("token AT-abcdefghij expired", 19), "token AT-abcdefghij… (8 more characters)");
  equal(excerpt("x".repeat(1000), 10), "… (1000 more characters)");
  equal(excerpt("a b", 2), "a… (1 more character)");
  equal(excerpt("ab", 1), "… (2 more characters)");
});

Deno.test("excerpt: secrets are hidden before the cut, which never leaves part of one", () => {
  const redact = (text: string) => text.replaceAll("c3VwZXItc2VjcmV0", "[redacted]");
  equal(excerpt("Basic c3VwZXItc2VjcmV0 sent", 300, { redact }), "Basic [redacted] sent");
  // The cut falls inside the credential: it is left out whole, not shown in part.
  equal(excerpt("Basic c3VwZXItc2VjcmV0 sent", 12), "Basic… (21 more characters)");
});

Deno.test("excerpt: of megabytes, only the start is read; a word cut by the window is left out", () => {
  const huge = `start ${"y".repeat(10 * 1024 * 1024)}`;
  equal(excerpt(huge, 20), `start… (${huge.length - 6} more characters)`);
  const window = 64 * 1024;
  const split = `${"a ".repeat(window / 2 - 3)}secret-split-by-the-window`;
  const shown = excerpt(split, 200_000, { redact: (text) => text.replaceAll("secret-split-by-the-window", "[x]") });
  equal(shown.includes("secret"), false, shown.slice(-40));
  equal(shown.endsWith(`a… (${split.length - (window - 6)} more characters)`), true, shown.slice(-40));
});

Deno.test("capLength: at most the limit, never half a character, and how much was left out", () => {
  equal(capLength("a".repeat(1000), 4), "aaaa… (996 more characters)");
  equal(capLength("short", 100), "short");
  equal(capLength("ab🚀", 3), "ab… (2 more characters)");
  equal(capLength("abc", 3, 1000), "abc… (1000 more characters)");
  equal(capLength("abcd", 3, 1), "abc… (2 more characters)");
});

Deno.test("printableJson: DEL, C1 controls and bidirectional overrides as \\u escapes, the same JSON value", () => {
  const value = { name: "a\u009b2Jb\u007f\u202eevil\x1b[2J" };
  const json = printableJson(JSON.stringify(value));
  equal(json, '{"name":"a\\u009b2Jb\\u007f\\u202eevil\\u001b[2J"}');
  equal(JSON.stringify(JSON.parse(json)), JSON.stringify(value));
});

Deno.test("renderJson: the same JSON value, with nothing a terminal acts on left as it is", async () => {
  const { renderJson } = await import("./document.ts");
  const value = { name: "a\x1b[2J\u009b\u202e" };
  const json = renderJson(value);
  equal(json, '{\n  "name": "a\\u001b[2J\\u009b\\u202e"\n}\n');
  equal(JSON.parse(json).name, value.name);
});
