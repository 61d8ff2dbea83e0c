/**
 * What oauth4webapi's own findings about an answer say, in one line with nothing secret. The library puts its
 * evidence in the error's `cause`: often a plain object (which printed as `[object Object]`) holding the
 * whole answer, tokens included, or a parse error quoting the body. Only the names and values that explain
 * the finding are taken from it: a JWT's `alg`, the claim or attribute compared, what was expected and by
 * whose rule, a `token_type`, a refused URL without its query.
 *
 * @module
 */
import * as oauth from "oauth4webapi";
import { quote } from "../errors.ts";
import { redactUrl } from "../log/shown_url.ts";

/** Longest value quoted from the evidence (a name or an algorithm, never a body). */
const MAX_VALUE = 100;

/** Whose rule a compared value is (oauth4webapi's `reason`), as said after what was expected. */
const REASONS: ReadonlyMap<string, string> = new Map([
  ["client configuration", "as the client is configured"],
  ["authorization server metadata", "as the authorization server announces"],
  ["default value", "by default"],
]);

/** An oauth4webapi finding: an answer it could not accept, or something it does not support. */
export function isOAuthProblem(err: unknown): err is oauth.OperationProcessingError | oauth.UnsupportedOperationError {
  return err instanceof oauth.OperationProcessingError || err instanceof oauth.UnsupportedOperationError;
}

/**
 * The finding's message and its evidence, e.g. `unexpected JWT "alg" header parameter "HS256" (expected
 * "RS256" by default)` or `unsupported \`token_type\` value "mac"`.
 */
export function describeOAuthProblem(err: oauth.OperationProcessingError | oauth.UnsupportedOperationError): string {
  const cause: unknown = err.cause;
  if (cause instanceof URL) return `${err.message}: ${redactUrl(cause)}`;
  if (cause instanceof Response) {
    const type = cause.headers.get("content-type");
    return `${err.message} (HTTP ${cause.status}${type ? `, content-type ${quoteValue(type)}` : ""})`;
  }
  // An Error here is a parser's, which may quote the answer; other shapes say nothing useful.
  if (!isRecord(cause)) return err.message;
  const header = isRecord(cause.header) ? cause.header : {};
  const body = isRecord(cause.body) ? cause.body : {};
  const value = header.alg ?? cause.alg ?? (err.message.includes("token_type") ? body.token_type : undefined);
  const notes: string[] = [];
  for (const name of ["claim", "attribute"] as const) {
    if (typeof cause[name] === "string") notes.push(`${name} ${quoteValue(cause[name])}`);
  }
  const expected = expectedText(cause.expected);
  const reason = typeof cause.reason === "string" ? REASONS.get(cause.reason) ?? `(${quoteValue(cause.reason)})` : "";
  if (expected) notes.push(`expected ${expected}${reason ? ` ${reason}` : ""}`);
  const shown = typeof value === "string" || typeof value === "number" ? ` ${quoteValue(value)}` : "";
  return `${err.message}${shown}${notes.length > 0 ? ` (${notes.join(", ")})` : ""}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function quoteValue(value: unknown): string {
  const text = String(value);
  return quote(text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE)}…` : text);
}

/** `"RS256"`, or `one of "RS256", "ES256"`; empty when nothing usable was expected. */
function expectedText(expected: unknown): string {
  if (typeof expected === "string" || typeof expected === "number") return quoteValue(expected);
  if (Array.isArray(expected) && expected.length > 0 && expected.every((item) => typeof item === "string")) {
    return expected.length === 1 ? quoteValue(expected[0]) : `one of ${expected.map(quoteValue).join(", ")}`;
  }
  return "";
}
