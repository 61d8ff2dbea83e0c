/**
 * The INPUTS and OUTPUTS columns of tasks, workflows and launch plans, as flytectl's tables show them.
 *
 * @module
 */
import type { Column } from "../output/table.ts";

/** What the cells read of a flyteidl `VariableMap`, or of a row's (`VariableMapRow`). */
export interface VariableDescriptions {
  variables: Readonly<Record<string, { description: string }>>;
}

/**
 * flytectl cuts each variable line to 25 columns, so long descriptions do not blow up the table; fctl does so
 * only on a terminal (piped and `--wide` tables keep every line whole).
 */
const VARIABLE_LINE_WIDTH = 25;

/** One line per variable in name order: `name: description`, or just the name when they are equal; never cut. */
function variableLines(map: VariableDescriptions | undefined): string[] {
  const variables = map?.variables ?? {};
  return Object.keys(variables).sort().map((name) => {
    const description = variables[name].description;
    const line = description && description !== name ? `${name}: ${description}` : name;
    return line.replace(/[\r\n\t]+/g, " ");
  });
}

/** An INPUTS or OUTPUTS column: the variables `read` finds in a row, one line each (see {@link variableLines}). */
export function variableColumn<Row>(
  header: "INPUTS" | "OUTPUTS",
  read: (row: Row) => VariableDescriptions | undefined,
): Column<Row> {
  return { header, cell: (row) => variableLines(read(row)), maxLineWidth: VARIABLE_LINE_WIDTH };
}
