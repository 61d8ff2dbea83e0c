/**
 * Which `-o` formats a command can write: checked by a command's options step, before it loads anything, and by
 * `render` itself. Import-light: command modules import it at their top level.
 *
 * @module
 */
import { UsageError } from "../errors.ts";

/** The `-o` formats that draw a workflow's graph. */
const GRAPH_FORMATS: ReadonlySet<string> = new Set(["DOT", "DOTURL", "SVG"]);

/**
 * Refuses a format the command cannot write, before it does any work: DOT, DOTURL and SVG are workflow graphs.
 *
 * @throws {UsageError} `format` is DOT, DOTURL or SVG
 */
export function checkFormat(format: string, visualizable: boolean): void {
  if (!GRAPH_FORMATS.has(format)) return;
  if (!visualizable) {
    throw new UsageError(
      `visualization is only supported on workflows: -o ${format} cannot show this command's output; ` +
        "use TABLE, JSON or YAML",
    );
  }
  throw new UsageError(`output format ${format} is not available for this command`);
}
