import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { equals, fromBinary, type Message } from "@bufbuild/protobuf";
import { unpackTar } from "modern-tar";
import { TaskSpecSchema } from "../proto/gen/flyteidl/admin/task_pb.ts";
import { WorkflowSpecSchema } from "../proto/gen/flyteidl/admin/workflow_pb.ts";
import { LaunchPlanSchema } from "../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import { writeRenamedCopies } from "./bench_package.ts";

const CORE = new URL("../../shared/fixtures/flytectl/flytesnacks-core.tgz", import.meta.url);
const SCHEMAS = { "1": TaskSpecSchema, "2": WorkflowSpecSchema, "3": LaunchPlanSchema } as const;

/** The `.pb` members of a `.tgz` by base name, decoded, and the names of its other members. */
async function readPackage(path: string | URL) {
  const file = await Deno.open(path);
  const members = await unpackTar(file.readable.pipeThrough(new DecompressionStream("gzip")));
  const entities = new Map<string, { kind: keyof typeof SCHEMAS; message: Message }>();
  const others: string[] = [];
  for (const { header, data } of members) {
    const base = header.name.slice(header.name.lastIndexOf("/") + 1);
    const kind = /_([123])\.pb$/.exec(base)?.[1] as keyof typeof SCHEMAS | undefined;
    if (kind && data) entities.set(base, { kind, message: fromBinary(SCHEMAS[kind] as typeof TaskSpecSchema, data) });
    else if (data) others.push(base);
  }
  return { entities, others };
}

/** Every `flyteidl.core.Identifier` with a name in `value`. */
function identifiers(value: unknown, found: { name: string }[] = []): { name: string }[] {
  if (typeof value !== "object" || value === null || value instanceof Uint8Array) return found;
  if (Array.isArray(value)) {
    for (const item of value) identifiers(item, found);
    return found;
  }
  const record = value as Record<string, unknown> & { name: string };
  if (record.$typeName === "flyteidl.core.Identifier" && record.name) found.push(record);
  for (const [key, field] of Object.entries(record)) if (key !== "$typeName") identifiers(field, found);
  return found;
}

Deno.test("renamed copies of flytesnacks-core: every identifier of copy c is prefixed c<c>., nothing else changes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fctl-bench-package-test-" });
  try {
    const original = await readPackage(CORE);
    const count = await writeRenamedCopies(CORE.pathname, 3, `${dir}/copies.tgz`);
    const copies = await readPackage(`${dir}/copies.tgz`);
    assertEquals(original.entities.size, 84);
    assertEquals(count, 3 * 84);
    assertEquals(copies.entities.size, 3 * 84);
    // The fast-registration source, once.
    assertEquals(copies.others, original.others.filter((name) => /^fast.*\.tar\.gz$/.test(name)));
    assertEquals(copies.others.length, 1);
    for (const [name, { kind, message }] of original.entities) {
      const [, index, rest] = /^(\d+)_(.+)$/.exec(name)!;
      for (let copy = 0; copy < 3; copy++) {
        const renamed = copies.entities.get(`${String(copy * 1000 + Number(index)).padStart(6, "0")}_c${copy}.${rest}`);
        assert(renamed, `copy ${copy} of ${name}`);
        assertEquals(renamed.kind, kind);
        const ids = identifiers(renamed.message);
        assert(ids.length > 0, `${name} has identifiers`);
        for (const id of ids) {
          assert(id.name.startsWith(`c${copy}.`), `${id.name} in copy ${copy} of ${name}`);
          id.name = id.name.slice(`c${copy}.`.length);
        }
        const schema = SCHEMAS[kind] as typeof TaskSpecSchema;
        assert(equals(schema, renamed.message as never, message as never), `copy ${copy} of ${name} is the original`);
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
