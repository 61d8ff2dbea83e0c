import { equal } from "node:assert/strict";
import fc from "fast-check";
import { pathEscape, workflowDotUrl } from "./graph_url.ts";

/**
 * Go's url.PathEscape, written the way Go's shouldEscape decides it, one UTF-8 byte at a time: unreserved
 * characters stay, of the reserved ones a path segment keeps `$&+:=@` and escapes `/;,?`, everything else is
 * escaped (`%XX`, upper-case hex).
 */
function goPathEscape(text: string): string {
  const shouldEscape = (c: number): boolean => {
    const ch = String.fromCharCode(c);
    if (/[A-Za-z0-9]/.test(ch)) return false;
    switch (ch) {
      case "-":
      case "_":
      case ".":
      case "~":
        return false;
      case "$":
      case "&":
      case "+":
      case ",":
      case "/":
      case ":":
      case ";":
      case "=":
      case "?":
      case "@":
        return ch === "/" || ch === ";" || ch === "," || ch === "?";
    }
    return true;
  };
  return [...new TextEncoder().encode(text)].map((c) =>
    shouldEscape(c) ? `%${c.toString(16).toUpperCase().padStart(2, "0")}` : String.fromCharCode(c)
  ).join("");
}

Deno.test("pathEscape keeps exactly what Go's url.PathEscape keeps, for any text", () => {
  fc.assert(
    fc.property(fc.oneof(fc.string({ unit: "binary" }), fc.string({ unit: "grapheme" }), fc.string()), (text) => {
      equal(pathEscape(text), goPathEscape(text));
    }),
    { numRuns: 500 },
  );
  // Every ASCII character once, and the examples flytectl's contract names.
  const ascii = Array.from({ length: 128 }, (_, i) => String.fromCharCode(i)).join("");
  equal(pathEscape(ascii), goPathEscape(ascii));
  equal(pathEscape(" =:@&+$/;,?"), "%20=:@&+$%2F%3B%2C%3F");
  equal(pathEscape("é\u{1F600}"), "%C3%A9%F0%9F%98%80");
});

Deno.test("the DOTURL is the graph viewer's address and the escaped DOT text", () => {
  equal(
    workflowDotUrl('strict digraph  {\n\tstart_node->n0[ lhead="cluster_x" ];\n}\n'),
    "http://graph.flyte.org/#strict%20digraph%20%20%7B%0A%09start_node-%3En0%5B%20lhead=%22cluster_x%22%20%5D%3B%0A%7D%0A",
  );
});
