/**
 * The INPUTS and OUTPUTS cells of tasks, workflows and launch plans, as flytectl's tables show them.
 *
 * @module
 */
import type { VariableMap } from "../../proto/gen/flyteidl/core/interface_pb.ts";

/**
 * flytectl cuts each variable line to 25 columns, so long descriptions do not blow up the table; fctl does so
 * only on a terminal (piped and `--wide` tables keep every line whole).
 */
export const VARIABLE_LINE_WIDTH = 25;

/** One line per variable in name order: `name: description`, or just the name when they are equal; never cut. */
export function variableLines(map: VariableMap | undefined): string[] {
  const variables = map?.variables ?? {};
  return Object.keys(variables).sort().map((name) => {
    const description = variables[name].description;
    const line = description && description !== name ? `${name}: ${description}` : name;
    return line.replace(/[\r\n\t]+/g, " ");
  });
}
