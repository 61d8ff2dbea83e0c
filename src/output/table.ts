/**
 * Plain-text tables in flytectl's layout: a header row between dashed rules, one block of
 * lines per row (cells may hold several lines), and `N rows` (`1 row`) after the table.
 *
 * Only a table fitted to a terminal (`maxTableWidth`) is ever cut; piped or `--wide`, every cell is whole.
 *
 * @module
 */
import { displayWidth, padToWidth, truncateToWidth } from "./text_width.ts";

/** A column: its header and how to read its cell (lines) from a row. */
export interface Column<Row> {
  header: string;
  cell: (row: Row) => string | string[];
  /**
   * Never cut when fitting to a terminal (a task's name and version: a cut one identifies nothing); the
   * other columns give up their space first, and a table that still does not fit is left to the terminal.
   */
  keep?: boolean;
  /** When fitting to a terminal, each line of the cell is first cut to this width (flytectl's variable lines). */
  maxLineWidth?: number;
}

/** How to draw. */
export interface TableStyle {
  /** Widest the whole table may be (a terminal's columns): the widest columns are cut first. */
  maxTableWidth?: number;
  /** Wraps header text, e.g. in ANSI bold; must not change its visible width. */
  decorateHeader?: (text: string) => string;
}

/** Renders rows as a table; output ends with a newline. Linear in the number of cells. */
export function renderTable<Row>(
  columns: readonly Column<Row>[],
  rows: readonly Row[],
  style: TableStyle = {},
): string {
  const fitting = style.maxTableWidth !== undefined;
  const cells = rows.map((row) =>
    columns.map((column) => {
      const value = column.cell(row);
      const lines = (Array.isArray(value) ? value : [value]).map((line) => line.replace(/[\r\n\t]+/g, " "));
      const max = column.maxLineWidth;
      return fitting && max !== undefined ? lines.map((line) => truncateToWidth(line, max)) : lines;
    })
  );
  const content = columns.map((_, i) => {
    let width = 0;
    for (const row of cells) for (const line of row[i]) width = Math.max(width, displayWidth(line));
    return width;
  });
  const natural = columns.map((column, i) => Math.max(content[i], displayWidth(column.header)));
  const widths = fitting
    ? fitKeeping(columns, natural, style.maxTableWidth! - (3 * columns.length + 1), content)
    : natural;
  if (widths.some((w, i) => w < natural[i])) {
    for (const row of cells) {
      row.forEach((lines, i) => {
        if (widths[i] < natural[i]) row[i] = lines.map((line) => truncateToWidth(line, widths[i]));
      });
    }
  }
  const headers = columns.map((c, i) => truncateToWidth(c.header, widths[i]));
  const rule = " " + widths.map((w) => "-".repeat(w + 2)).join(" ") + " \n";
  const line = (parts: string[]) => "| " + parts.map((p, i) => padToWidth(p, widths[i])).join(" | ") + " |\n";
  const decorate = style.decorateHeader ?? ((text: string) => text);
  const out: string[] = [rule];
  out.push(
    "| " + headers.map((h, i) => decorate(h) + " ".repeat(widths[i] - displayWidth(h))).join(" | ") +
      " |\n",
  );
  out.push(rule);
  for (const row of cells) {
    const height = Math.max(1, ...row.map((lines) => lines.length));
    for (let l = 0; l < height; l++) out.push(line(row.map((lines) => lines[l] ?? "")));
    out.push(rule);
  }
  out.push(`${rows.length} ${rows.length === 1 ? "row" : "rows"}\n`);
  return out.join("");
}

/** {@link fitWidths} over the columns not marked `keep`, in what the kept ones leave of `budget`. */
function fitKeeping<Row>(
  columns: readonly Column<Row>[],
  natural: readonly number[],
  budget: number,
  content: readonly number[],
): number[] {
  const free = columns.map((_, i) => i).filter((i) => !columns[i].keep);
  if (free.length === columns.length) return fitWidths(natural, budget, content);
  const kept = columns.reduce((sum, c, i) => sum + (c.keep ? natural[i] : 0), 0);
  const fitted = fitWidths(free.map((i) => natural[i]), budget - kept, free.map((i) => content[i]));
  const widths = [...natural];
  free.forEach((column, j) => widths[column] = fitted[j]);
  return widths;
}

/** Narrowest a column is cut to, so that `...` still leaves a character or two to recognise. */
const MIN_COLUMN_WIDTH = 5;

/**
 * Column widths whose sum fits `budget`. First, columns whose header is wider than any of their cells
 * (`DISCOVERABLE` over `true`) give up that header excess, largest first, as far as needed. Then every column
 * wider than a common cap is cut to it (the cap as large as the budget allows), so narrow columns stay whole
 * and the widest give up space first. When even the minimum widths do not fit, the table is as narrow as it can
 * be and the terminal wraps it.
 */
export function fitWidths(natural: readonly number[], budget: number, content: readonly number[] = natural): number[] {
  const widths = [...natural];
  const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
  const floor = natural.map((w) => Math.min(w, MIN_COLUMN_WIDTH));
  const excess = natural.map((w, i) => w - Math.max(content[i], floor[i]));
  for (const i of excess.map((_, i) => i).sort((a, b) => excess[b] - excess[a])) {
    const over = sum(widths) - budget;
    if (over <= 0) return widths;
    if (excess[i] > 0) widths[i] -= Math.min(excess[i], over);
  }
  if (sum(widths) <= budget) return widths;
  const start = [...widths];
  const sumAtCap = (cap: number) => start.reduce((total, w, i) => total + Math.max(floor[i], Math.min(w, cap)), 0);
  let low = 0;
  let high = Math.max(...start);
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (sumAtCap(mid) <= budget) low = mid;
    else high = mid - 1;
  }
  const fitted = start.map((w, i) => Math.max(floor[i], Math.min(w, low)));
  // Hand what the cap left over, one column each, to the columns that were cut, left to right.
  let spare = budget - sum(fitted);
  for (let i = 0; i < fitted.length && spare > 0; i++) {
    if (fitted[i] < start[i]) {
      fitted[i]++;
      spare--;
    }
  }
  return fitted;
}
