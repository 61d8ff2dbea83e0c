/**
 * `fctl register files`: parse → `registerFiles` → results table. Loaded lazily.
 *
 * @module
 */
import { type JsonValue, toJson } from "@bufbuild/protobuf";
import { IdentifierSchema } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { OperationError } from "../errors.ts";
import { render } from "../output/render.ts";
import type { Column } from "../output/table.ts";
import { type RegisterEntry, registerFiles } from "../register/register_files.ts";
import { connectAdmin } from "./connect.ts";
import { type CommandContext, requireProjectDomain } from "./context.ts";
import type { RegisterFlags } from "./commands/register.ts";

const COLUMNS: readonly Column<RegisterEntry>[] = [
  { header: "NAME", cell: (e) => e.name },
  { header: "STATUS", cell: (e) => e.status },
  { header: "ADDITIONAL INFO", cell: (e) => e.info },
];

function entryJson(entry: RegisterEntry): JsonValue {
  return {
    name: entry.name,
    kind: entry.kind ?? null,
    id: entry.id ? toJson(IdentifierSchema, entry.id) : null,
    status: entry.status,
    info: entry.info,
  };
}

/** Runs `register files` with the resolved configuration. */
export async function runRegisterFiles(ctx: CommandContext, paths: string[], flags: RegisterFlags): Promise<void> {
  const { project, domain } = requireProjectDomain(ctx.config);
  const client = connectAdmin(ctx.loaded);
  try {
    const report = await registerFiles(client, { paths, project, domain, ...flags }, ctx.signal);
    await render(ctx.io, ctx.config.output, { columns: COLUMNS, toJson: entryJson, value: { list: report.entries } });
    if (report.failed > 0) {
      throw new OperationError(`${report.failed} of ${report.entries.length} files failed to register`);
    }
  } finally {
    client.close();
  }
}
