/**
 * Plain-text tables in flytectl's layout: a header row between dashed rules, one block of
 * lines per row (cells may hold several lines), and `N rows` (`1 row`) after the table.
 *
 * Only a table fitted to a terminal (`maxTableWidth`) is ever narrowed; piped or `--wide`, every cell is whole.
 * Narrowed, a header is never cut: it wraps between its words, and its column is at least as wide as its
 * longest word. A cell too wide for its column is cut with `...`, or wrapped onto more lines in a column that
 * asks for it (`wrap`: what must be read whole, such as why a file failed).
 *
 * @module
 */
import { printable } from "./printable.ts";
import { displayWidth, truncateToWidth, wrapToWidth } from "./text_width.ts";

/** A column: its header and how to read its cell (lines) from a row. */
export interface Column<Row> {
  header: string;
  cell: (row: Row) => string | string[];
  /**
   * Never narrowed when fitting to a terminal (a task's name and version: a cut one identifies nothing); the
   * other columns give up their space first. A kept column that also wraps gives up space, wrapping, when the
   * others do not fit at their narrowest beside it, at most half its width and only if the table then fits; else
   * it stays whole and the table sticks out.
   */
  keep?: boolean;
  /** When fitting to a terminal, lines wider than the column are wrapped onto more lines, never cut. */
  wrap?: boolean;
  /**
   * When a terminal is too narrow for every cell whole (headers may wrap), columns with a rank are left out, the
   * lowest rank first, until the others fit or none is left to leave out; the count line after the table names
   * them. For columns that say little for their width (a 12-column header over `true`).
   */
  dropRank?: number;
  /** When fitting to a terminal, each line of the cell is first cut to this width (flytectl's variable lines). */
  maxLineWidth?: number;
}

/** How to draw. */
export interface TableStyle {
  /** Widest the whole table may be (a terminal's columns): the widest columns are narrowed first. */
  maxTableWidth?: number;
  /** Wraps header text, e.g. in ANSI bold; must not change its visible width. */
  decorateHeader?: (text: string) => string;
  /** Said after the names of columns left out to fit (see `Column.dropRank`), e.g. how to see them. */
  leftOutHint?: string;
  /**
   * The text as the sink will show it (`TextSink.shown`: secrets redacted), applied to every cell line and header
   * before anything is measured or cut: what is hidden then moves no column, tells no length, and is never cut
   * into a part the redaction would not recognise.
   */
  shown?: (text: string) => string;
}

/** Narrowest a column is cut to, so that `...` still leaves a character or two to recognise. */
const MIN_COLUMN_WIDTH = 5;

/** Renders rows as a table; output ends with a newline. Linear in the number of cells. */
export function renderTable<Row>(
  givenColumns: readonly Column<Row>[],
  rows: readonly Row[],
  style: TableStyle = {},
): string {
  const fitting = style.maxTableWidth !== undefined;
  const shown = style.shown;
  const allColumns = shown ? givenColumns.map((column) => ({ ...column, header: shown(column.header) })) : givenColumns;
  const allCells = rows.map((row) => allColumns.map((column) => cellLines(column, row, fitting, shown)));
  // Each line's width is worked out once: the columns' widths and the padding of the lines both need it.
  const allWidths = allCells.map((row) => row.map((lines) => lines.map(displayWidth)));
  const allContent = allColumns.map((_, i) => {
    let width = 0;
    for (const row of allWidths) for (const w of row[i]) if (w > width) width = w;
    return width;
  });
  const allNatural = allColumns.map((column, i) => Math.max(allContent[i], displayWidth(column.header)));
  const allFloor = allColumns.map((column, i) =>
    column.keep && !column.wrap
      ? allNatural[i]
      : Math.max(Math.min(allNatural[i], MIN_COLUMN_WIDTH), longestWord(column.header))
  );
  const kept = fitting
    ? columnsThatFit(allColumns, allContent, allFloor, style.maxTableWidth!)
    : allColumns.map((_, i) => i);
  const columns = kept.map((i) => allColumns[i]);
  const cells = allCells.map((row) => kept.map((i) => row[i]));
  const cellWidths = allWidths.map((row) => kept.map((i) => row[i]));
  const natural = kept.map((i) => allNatural[i]);
  const widths = fitting
    ? fitKeeping(
      columns,
      natural,
      style.maxTableWidth! - (3 * columns.length + 1),
      kept.map((i) => allContent[i]),
      kept.map((i) => allFloor[i]),
    )
    : natural;
  cells.forEach((row, r) => {
    row.forEach((lines, i) => {
      if (widths[i] >= natural[i]) return;
      row[i] = columns[i].wrap
        ? lines.flatMap((line) => wrapToWidth(line, widths[i]))
        : lines.map((line) => truncateToWidth(line, widths[i]));
      cellWidths[r][i] = row[i].map(displayWidth);
    });
  });
  // Between words: a column is never narrower than its header's longest word.
  const headers = columns.map((c, i) => wrapToWidth(c.header, widths[i]));
  const rule = " " + widths.map((w) => "-".repeat(w + 2)).join(" ") + " \n";
  const decorate = style.decorateHeader ?? ((text: string) => text);
  const out: string[] = [rule];
  for (let l = 0; l < Math.max(...headers.map((h) => h.length), 1); l++) {
    const parts = headers.map((h) => h[l] ?? "");
    out.push(
      "| " + parts.map((h, i) => (h === "" ? "" : decorate(h)) + " ".repeat(widths[i] - displayWidth(h))).join(" | ") +
        " |\n",
    );
  }
  out.push(rule);
  cells.forEach((row, r) => {
    const height = Math.max(1, ...row.map((lines) => lines.length));
    for (let l = 0; l < height; l++) {
      let text = "|";
      row.forEach((lines, i) => text += ` ${lines[l] ?? ""}${" ".repeat(widths[i] - (cellWidths[r][i][l] ?? 0))} |`);
      out.push(text + "\n");
    }
    out.push(rule);
  });
  const leftOut = allColumns.filter((_, i) => !kept.includes(i)).map((c) => c.header);
  const note = leftOut.length === 0
    ? ""
    : ` (not shown: ${leftOut.join(", ")}${style.leftOutHint ? `; ${style.leftOutHint}` : ""})`;
  out.push(`${rows.length} ${rows.length === 1 ? "row" : "rows"}${note}\n`);
  return out.join("");
}

/** Printable ASCII only: shown as it is, one column a character. */
const PLAIN_LINE = /^[\x20-\x7e]*$/;

/**
 * The lines of a cell as the table shows them: as the sink shows them (`shown`: secrets redacted, before the line
 * is changed in any other way), each one line, its control characters shown as escapes (an entity's text is the
 * admin's to choose), cut to the column's `maxLineWidth` when fitting to a terminal.
 */
function cellLines<Row>(
  column: Column<Row>,
  row: Row,
  fitting: boolean,
  shownBySink: ((text: string) => string) | undefined,
): string[] {
  const value = column.cell(row);
  const max = fitting ? column.maxLineWidth : undefined;
  return (Array.isArray(value) ? value : [value]).map((given) => {
    const line = shownBySink ? shownBySink(given) : given;
    const shown = PLAIN_LINE.test(line) ? line : printable(line.replace(/[\r\n\t]+/g, " "));
    return max === undefined ? shown : truncateToWidth(shown, max);
  });
}

/** Columns of the widest word of `text` (a header: the narrowest it can wrap to). */
function longestWord(text: string): number {
  return Math.max(0, ...text.split(" ").map(displayWidth));
}

/**
 * The indexes of the columns shown in `maxTableWidth`: all, unless not every cell fits whole (headers wrapped),
 * when columns with a `dropRank` are left out, lowest rank first, until the rest fit or none is left to drop.
 */
function columnsThatFit<Row>(
  columns: readonly Column<Row>[],
  content: readonly number[],
  floor: readonly number[],
  maxTableWidth: number,
): number[] {
  const shown = columns.map((_, i) => i);
  const droppable = shown.filter((i) => columns[i].dropRank !== undefined)
    .sort((a, b) => columns[a].dropRank! - columns[b].dropRank!);
  const uncut = () => shown.reduce((sum, i) => sum + Math.max(content[i], floor[i]) + 3, 1);
  for (const drop of droppable) {
    if (uncut() <= maxTableWidth) break;
    shown.splice(shown.indexOf(drop), 1);
  }
  return shown;
}

/**
 * {@link fitWidths} over the columns not marked `keep`, in what the kept ones leave of `budget`; when that is
 * less than the others need at their narrowest, kept columns that wrap are fitted with them.
 */
function fitKeeping<Row>(
  columns: readonly Column<Row>[],
  natural: readonly number[],
  budget: number,
  content: readonly number[],
  floor: readonly number[],
): number[] {
  const fitAmong = (fitted: number[]) => {
    const kept = columns.reduce((sum, _, i) => sum + (fitted.includes(i) ? 0 : natural[i]), 0);
    const minimum = fitted.map((i) => columns[i].keep ? Math.max(floor[i], Math.ceil(natural[i] / 2)) : floor[i]);
    const widths = fitWidths(fitted.map((i) => natural[i]), budget - kept, fitted.map((i) => content[i]), minimum);
    const all = [...natural];
    fitted.forEach((column, j) => all[column] = widths[j]);
    return { all, fits: fitted.reduce((sum, i, j) => sum + Math.min(natural[i], minimum[j]), 0) <= budget - kept };
  };
  const free = columns.map((_, i) => i).filter((i) => !columns[i].keep);
  const first = fitAmong(free);
  if (first.fits) return first.all;
  // Kept columns wrap only when that makes the table fit: else they stay whole, and the table sticks out.
  const wrapping = columns.map((_, i) => i).filter((i) => !columns[i].keep || columns[i].wrap);
  const second = wrapping.length > free.length ? fitAmong(wrapping) : first;
  return second.fits ? second.all : first.all;
}

/**
 * Column widths whose sum fits `budget`, none below its `minimum` (by default the natural width up to 5 columns).
 * First, columns whose header is wider than any of their cells (`DISCOVERY VERSION` over `1.0`) give up that
 * header excess, largest first, as far as needed (the header then wraps). Then every column wider than a common
 * cap is narrowed to it (the cap as large as the budget allows), so narrow columns stay whole and the widest give
 * up space first. When even the minimum widths do not fit, the table is as narrow as it can be and the terminal
 * wraps it.
 */
export function fitWidths(
  natural: readonly number[],
  budget: number,
  content: readonly number[] = natural,
  minimum: readonly number[] = natural.map((w) => Math.min(w, MIN_COLUMN_WIDTH)),
): number[] {
  const widths = [...natural];
  const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
  const floor = natural.map((w, i) => Math.min(w, minimum[i]));
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
