/**
 * The one way the `yaml` package says a text is nested too deeply to read: its parser runs out of stack on text
 * nested thousands deep and reports that as a document error with the code `RESOURCE_EXHAUSTION` (its other use of
 * the code, too many aliases, is only thrown later, by `toJS`), and a text that parses but is too deep to convert
 * runs `toJS` out of stack (a RangeError). Config, exec and project files each name it as nesting, not as a stack
 * overflow.
 *
 * @module
 */

/** Where a YAML text was found nested too deeply; `at` is missing when the error gave no position. */
export interface YamlNesting {
  at?: { line: number; col: number };
}

/**
 * `err` (a document's parse error, or what parsing or `toJS` threw) as a text nested too deeply, else undefined.
 *
 * ```ts
 * import { parseDocument } from "yaml";
 * import { yamlNesting } from "./yaml_nesting.ts";
 *
 * const [error] = parseDocument(`a: ${"[".repeat(5000)}${"]".repeat(5000)}`).errors;
 * console.log(yamlNesting(error)?.at?.line); // 1
 * ```
 */
export function yamlNesting(err: unknown): YamlNesting | undefined {
  if (err instanceof RangeError) return {};
  const error = err as { code?: unknown; linePos?: { line: number; col: number }[] } | undefined;
  if (error?.code !== "RESOURCE_EXHAUSTION") return undefined;
  const at = error.linePos?.[0];
  return at ? { at: { line: at.line, col: at.col } } : {};
}

/** ` at line L, column C` for a nesting with a position, else nothing. */
export function nestingPosition(nesting: YamlNesting): string {
  return nesting.at ? ` at line ${nesting.at.line}, column ${nesting.at.col}` : "";
}
