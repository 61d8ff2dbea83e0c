/**
 * A large package for the registration benchmark: `copies` copies of a pyflyte package's entities in one
 * `.tgz`, copy `c` with every entity name prefixed `c<c>.` so no two copies collide. Every identifier in a spec
 * (its own, task and launch plan references, sub-workflows, a launch plan's workflow) is renamed the same way,
 * so each copy references only its own entities and registers in the same rounds as the original. The
 * fast-registration source is kept once. Members are named as pyflyte names them, `<index>_<name>_<kind>.pb`.
 *
 *   deno run --allow-read --allow-write scripts/bench_package.ts SOURCE.tgz COPIES DEST.tgz
 *
 * @module
 */
import { fromBinary, type Message, toBinary } from "@bufbuild/protobuf";
import { packTar, type TarEntry, unpackTar } from "modern-tar";
import { TaskSpecSchema } from "../proto/gen/flyteidl/admin/task_pb.ts";
import { WorkflowSpecSchema } from "../proto/gen/flyteidl/admin/workflow_pb.ts";
import { LaunchPlanSchema } from "../proto/gen/flyteidl/admin/launch_plan_pb.ts";

/** The message each pyflyte kind suffix (`_1.pb`, `_2.pb`, `_3.pb`) holds. */
const SCHEMAS = { "1": TaskSpecSchema, "2": WorkflowSpecSchema, "3": LaunchPlanSchema } as const;

/** Prefixes the name of every `flyteidl.core.Identifier` inside `value`, in place. */
function renameIdentifiers(value: unknown, prefix: string): void {
  if (typeof value !== "object" || value === null || value instanceof Uint8Array) return;
  if (Array.isArray(value)) {
    for (const item of value) renameIdentifiers(item, prefix);
    return;
  }
  const record = value as Record<string, unknown>;
  if ((record as Partial<Message>).$typeName === "flyteidl.core.Identifier" && record.name) {
    record.name = `${prefix}${record.name}`;
  }
  for (const [key, field] of Object.entries(record)) if (key !== "$typeName") renameIdentifiers(field, prefix);
}

/** A copy of one `.pb` member with every identifier renamed. */
function renamedMember(kind: keyof typeof SCHEMAS, bytes: Uint8Array, prefix: string): Uint8Array {
  const schema = SCHEMAS[kind] as typeof TaskSpecSchema;
  const message = fromBinary(schema, bytes);
  renameIdentifiers(message, prefix);
  return toBinary(schema, message);
}

/** Writes `copies` renamed copies of the package `source` (a `.tgz`) to `dest`; returns how many entities. */
export async function writeRenamedCopies(source: string, copies: number, dest: string): Promise<number> {
  const file = await Deno.open(source);
  const members = await unpackTar(file.readable.pipeThrough(new DecompressionStream("gzip")));
  const mtime = new Date("2024-01-01T00:00:00Z");
  const entries: TarEntry[] = [];
  let entities = 0;
  for (const member of members) {
    const base = member.header.name.slice(member.header.name.lastIndexOf("/") + 1);
    if (!member.data) continue;
    if (/^fast.*\.tar\.gz$/.test(base)) {
      entries.push({ header: { name: base, size: member.data.length, mtime }, body: member.data });
      continue;
    }
    const parts = /^(\d+)_(.+)_([123])\.pb$/.exec(base);
    if (!parts) continue;
    const [, index, name, kind] = parts as unknown as [string, string, string, keyof typeof SCHEMAS];
    for (let copy = 0; copy < copies; copy++) {
      const prefix = `c${copy}.`;
      const body = renamedMember(kind, member.data, prefix);
      const number = String(copy * 1000 + Number(index)).padStart(6, "0");
      entries.push({ header: { name: `${number}_${prefix}${name}_${kind}.pb`, size: body.length, mtime }, body });
      entities++;
    }
  }
  const tar = await packTar(entries);
  const gzipped = new Blob([tar]).stream().pipeThrough(new CompressionStream("gzip"));
  await Deno.writeFile(dest, gzipped);
  return entities;
}

if (import.meta.main) {
  const [source, copies, dest] = Deno.args;
  if (!source || !dest || !(Number(copies) >= 1)) {
    console.error("usage: deno run --allow-read --allow-write scripts/bench_package.ts SOURCE.tgz COPIES DEST.tgz");
    Deno.exit(2);
  }
  const entities = await writeRenamedCopies(source, Number(copies), dest);
  console.log(`wrote ${dest}: ${entities} entities`);
}
