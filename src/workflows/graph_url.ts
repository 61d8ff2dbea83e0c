/**
 * The DOTURL of a workflow graph (`get workflow -o doturl`): the DOT text on the Flyte graph viewer's page,
 * escaped as flytectl escapes it (Go's `url.PathEscape`).
 *
 * @module
 */

/** The page that draws the DOT text after its `#`. */
export const GRAPH_VIEWER = "http://graph.flyte.org/#";

// What Go's url.PathEscape leaves as it is: the unreserved characters of RFC 3986 (letters, digits, `-._~`) and
// the sub-delimiters a path segment may hold (`$&+:=@`); `/`, `;`, `,` and `?` are escaped, as is everything else.
const KEPT = new Uint8Array(128);
for (const char of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~$&+:=@") {
  KEPT[char.charCodeAt(0)] = 1;
}
const HEX = "0123456789ABCDEF";

/**
 * Go's `url.PathEscape`: each UTF-8 byte of `text` outside the kept set as `%XX` (upper-case hex; a space is `%20`).
 * A lone surrogate, which has no UTF-8 form, is escaped as U+FFFD.
 *
 * ```ts
 * import { pathEscape } from "./graph_url.ts";
 *
 * pathEscape('a->b [ label="x y" ];'); // "a-%3Eb%20%5B%20label=%22x%20y%22%20%5D%3B"
 * ```
 */
export function pathEscape(text: string): string {
  let out = "";
  for (const byte of new TextEncoder().encode(text)) {
    out += byte < 128 && KEPT[byte] ? String.fromCharCode(byte) : `%${HEX[byte >> 4]}${HEX[byte & 15]}`;
  }
  return out;
}

/**
 * The URL that shows `dot` in the Flyte graph viewer.
 *
 * ```ts
 * import { workflowDotUrl } from "./graph_url.ts";
 *
 * workflowDotUrl("strict digraph  {\n\n}\n"); // "http://graph.flyte.org/#strict%20digraph%20%20%7B%0A%0A%7D%0A"
 * ```
 */
export function workflowDotUrl(dot: string): string {
  return `${GRAPH_VIEWER}${pathEscape(dot)}`;
}
