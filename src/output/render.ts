/**
 * Writes a command's result in the chosen `-o` format. The only code that decides what an
 * entity looks like on stdout.
 *
 * @module
 */
import type { JsonValue } from "@bufbuild/protobuf";
import { checkFormat } from "./check_format.ts";
import type { Io } from "./io.ts";
import { type Column, renderTable } from "./table.ts";

export { checkFormat };

/** One entity or a list of them, with how to show each. */
export interface Renderable<Row> {
  columns: readonly Column<Row>[];
  toJson: (row: Row) => JsonValue;
  /** A list (always an array in JSON/YAML), or a single entity (an object). */
  value: { list: readonly Row[] } | { one: Row };
  /** Whether DOT/DOTURL/SVG make sense (workflows only). */
  visualizable?: boolean;
}

/** How a table is drawn. */
export interface RenderOptions {
  /** Never fit a table to the terminal (`--wide`): every cell whole, as when piped. */
  wide?: boolean;
}

/** Terminal width when the terminal reports none. */
const DEFAULT_TERMINAL_WIDTH = 80;

/** Renders `what` to stdout in `format` (an upper-case `-o` value). */
export async function render<Row>(
  io: Io,
  format: string,
  what: Renderable<Row>,
  options: RenderOptions = {},
): Promise<void> {
  const rows = "list" in what.value ? what.value.list : [what.value.one];
  switch (format) {
    case "JSON":
    case "YAML":
      return await writeDocument(
        io,
        format,
        "list" in what.value ? what.value.list.map(what.toJson) : what.toJson(what.value.one),
      );
    case "DOT":
    case "DOTURL":
    case "SVG":
      return checkFormat(format, what.visualizable ?? false);
    default:
      renderRows(io, what.columns, rows, options);
  }
}

/**
 * Writes `doc` to stdout as JSON or YAML, made of its text as stdout shows it (`TextSink.shown`: secrets
 * redacted in each string, key and scalar before it is written), so that what is hidden leaves a valid document.
 */
export async function writeDocument(io: Pick<Io, "stdout">, format: "JSON" | "YAML", doc: JsonValue): Promise<void> {
  // The document writers are loaded only by the formats that use them: a table never needs them.
  const { renderJson, renderYaml, shownDocument } = await import("./document.ts");
  const shown = io.stdout.shown ? shownDocument(doc, (text) => io.stdout.shown!(text)) : doc;
  io.stdout.write(format === "JSON" ? renderJson(shown) : await renderYaml(shown));
}

/** Writes `rows` to stdout as a table of `columns`: fitted to a terminal, whole when piped or `--wide`. */
export function renderRows<Row>(
  io: Io,
  columns: readonly Column<Row>[],
  rows: readonly Row[],
  options: RenderOptions = {},
): void {
  const colour = io.stdoutIsTerminal && !io.env["NO_COLOR"];
  // On a terminal the table fits its width; piped or `--wide`, cells stay whole for whoever reads them.
  const fit = io.stdoutIsTerminal && !options.wide;
  io.stdout.write(renderTable(columns, rows, {
    maxTableWidth: fit ? (io.columns || DEFAULT_TERMINAL_WIDTH) : undefined,
    decorateHeader: colour ? (text) => `\x1b[1m${text}\x1b[0m` : undefined,
    // Every command with a table takes `--wide`.
    leftOutHint: "--wide shows them",
    shown: io.stdout.shown && ((text) => io.stdout.shown!(text)),
  }));
}
