/**
 * Plain-text tables in flytectl's layout: a header row between dashed rules, one block of
 * lines per row (cells may hold several lines), and `N rows` after the table.
 *
 * @module
 */
import { displayWidth, padToWidth, truncateToWidth } from "./text_width.ts";

/** A column: its header and how to read its cell (lines) from a row. */
export interface Column<Row> {
  header: string;
  cell: (row: Row) => string | string[];
}

/** How to draw. */
export interface TableStyle {
  /** Widest a cell line may be before it is cut with `...`. */
  maxCellWidth?: number;
  /** Wraps header text, e.g. in ANSI bold; must not change its visible width. */
  decorateHeader?: (text: string) => string;
}

/** Renders rows as a table; output ends with a newline. Linear in the number of cells. */
export function renderTable<Row>(
  columns: readonly Column<Row>[],
  rows: readonly Row[],
  style: TableStyle = {},
): string {
  const cut = (line: string) => style.maxCellWidth ? truncateToWidth(line, style.maxCellWidth) : line;
  const cells = rows.map((row) =>
    columns.map((column) => {
      const value = column.cell(row);
      return (Array.isArray(value) ? value : [value]).map((line) => cut(line.replace(/[\r\n\t]+/g, " ")));
    })
  );
  const widths = columns.map((column, i) => {
    let width = displayWidth(column.header);
    for (const row of cells) for (const line of row[i]) width = Math.max(width, displayWidth(line));
    return width;
  });
  const rule = " " + widths.map((w) => "-".repeat(w + 2)).join(" ") + " \n";
  const line = (parts: string[]) => "| " + parts.map((p, i) => padToWidth(p, widths[i])).join(" | ") + " |\n";
  const decorate = style.decorateHeader ?? ((text: string) => text);
  const out: string[] = [rule];
  out.push(
    "| " + columns.map((c, i) => decorate(c.header) + " ".repeat(widths[i] - displayWidth(c.header))).join(" | ") +
      " |\n",
  );
  out.push(rule);
  for (const row of cells) {
    const height = Math.max(1, ...row.map((lines) => lines.length));
    for (let l = 0; l < height; l++) out.push(line(row.map((lines) => lines[l] ?? "")));
    out.push(rule);
  }
  out.push(`${rows.length} rows\n`);
  return out.join("");
}
