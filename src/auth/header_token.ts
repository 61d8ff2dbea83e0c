/**
 * A token is sent as `Bearer <token>` in a header: only visible ASCII can go there. A token with a blank, a line
 * break or a control character in it would be refused by the HTTP stack with an error quoting it whole, or, sent,
 * add a header of the server's choosing (`AT-1\r\nx-injected: 1`). Such a token is refused before any use, in a
 * line that names where it came from and what is wrong with it, never the token.
 *
 * @module
 */
import { OperationError } from "../errors.ts";

/** What kinds of characters a token holds that no header value may, in the order an error names them. */
const KINDS: readonly [RegExp, string][] = [
  [/[ \t]/, "a space"],
  [/[\r\n]/, "a line break"],
  [/(?![\t\r\n])\p{Cc}/u, "a control character"],
  [/\P{ASCII}/u, "a character outside ASCII"],
];

/**
 * Why `token` cannot be sent in a header, e.g. `it contains a space and a line break`; undefined when it can.
 *
 * ```ts
 * import { headerTokenProblem } from "./header_token.ts";
 *
 * headerTokenProblem("AT-1 x-injected: 1"); // "it contains a space"
 * headerTokenProblem("eyJhbGciOi.J9.x-y_z"); // undefined
 * ```
 */
export function headerTokenProblem(token: string): string | undefined {
  if (token === "") return "it is empty";
  const found = KINDS.filter(([kind]) => kind.test(token)).map(([, name]) => name);
  if (found.length === 0) return undefined;
  const last = found.pop()!;
  return `it contains ${found.length > 0 ? `${found.join(", ")} and ${last}` : last}`;
}

/**
 * `token`, when it can be sent in a header; else an error naming `origin` (`the token endpoint of ClientSecret`,
 * `admin.command "get-token"`) and what is wrong, without the token.
 */
export function checkHeaderToken(token: string, origin: string): string {
  const problem = headerTokenProblem(token);
  if (problem) throw new OperationError(`the token from ${origin} is not a valid header value (${problem})`);
  return token;
}
