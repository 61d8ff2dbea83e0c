/**
 * `fctl config view [--all]`: the effective configuration, every option with its value and origin.
 *
 * @module
 */
import type { ConfigRow } from "../../app/describe_config.ts";
import { leafCommand, WIDE_FLAG } from "../command.ts";
import { printNote } from "../../output/print.ts";

/** What `config view` takes: whether to list defaults too, and how to write the rows. */
export interface ConfigViewOptions {
  /** `--all`: also the options left at their defaults. */
  all: boolean;
  format: string;
  wide: boolean;
}

/** `config view`. */
export const CONFIG_VIEW_COMMAND = leafCommand({
  name: "view",
  description: "the effective configuration: every option, its value and where it came from (secrets redacted)",
  arguments: [],
  flags: [{ long: "all", help: "also list options left at their defaults" }, WIDE_FLAG],
  globals: ["config", "output"],
  examples: [
    "fctl config view",
    "fctl config view --all -o yaml",
    "fctl config view -c ~/.flyte/prod.yaml --admin.endpoint dns:///localhost:8089",
  ],
  options: ({ flags, globals: { config } }): ConfigViewOptions => ({
    all: flags.all === true,
    format: config.output,
    wide: flags.wide === true,
  }),
  async run(ctx, options) {
    const [{ describeConfig }, { render }] = await Promise.all([
      import("../../app/describe_config.ts"),
      import("../../output/render.ts"),
    ]);
    const rows = describeConfig(ctx.loaded).filter((row) => options.all || row.source !== "default");
    await render(ctx.io, options.format, {
      columns: [
        { header: "KEY", cell: (row: ConfigRow) => row.key, keep: true },
        { header: "VALUE", cell: (row: ConfigRow) => row.value },
        { header: "SOURCE", cell: (row: ConfigRow) => row.source },
      ],
      toJson: (row) => ({ key: row.key, value: row.json, source: row.source }),
      value: { list: rows },
    }, { wide: options.wide });
    if (rows.length === 0) {
      printNote(ctx.io, "every option has its default value; `fctl config view --all` lists them");
    }
  },
});
