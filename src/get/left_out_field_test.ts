/**
 * Fields a row leaves out, read from the bytes a decoder keeps of them (left_out_field.ts), against the whole message:
 * absent, sent once, sent twice (merged), and the input types of every task of a real package.
 */
import { equal, ok } from "node:assert/strict";
import { create, equals, fromBinary, toBinary } from "@bufbuild/protobuf";
import { VariableSchema } from "../../proto/gen/flyteidl/core/interface_pb.ts";
import { LiteralTypeSchema, SimpleType } from "../../proto/gen/flyteidl/core/types_pb.ts";
import { VariableRowSchema } from "../../proto/gen/fctl/rows/common_rows_pb.ts";
import { withSandbox } from "../sandbox/_test_helpers.ts";
import { registerCore } from "../../tests/entity_fixtures.ts";
import { collectionOf, simple } from "../_test_literals.ts";
import { leftOutField } from "./left_out_field.ts";

const TYPE = VariableSchema.field.type.number;

Deno.test("a variable row leaves its type out; read from what it keeps, the type is the whole variable's", () => {
  ok(VariableRowSchema.fields.every((field) => field.number !== TYPE));
  const variable = create(VariableSchema, {
    description: "x",
    type: collectionOf(simple(SimpleType.INTEGER)),
  });
  const row = fromBinary(VariableRowSchema, toBinary(VariableSchema, variable));
  equal(row.description, "x");
  ok(equals(LiteralTypeSchema, leftOutField(row, TYPE, LiteralTypeSchema)!, variable.type!));
  equal(leftOutField(fromBinary(VariableRowSchema, new Uint8Array()), TYPE, LiteralTypeSchema), undefined);
  equal(leftOutField(undefined, TYPE, LiteralTypeSchema), undefined);
});

Deno.test("a left-out field sent twice is merged as a decoder of the whole message merges it", () => {
  const once = (init: Parameters<typeof create<typeof VariableSchema>>[1]) =>
    toBinary(VariableSchema, create(VariableSchema, init));
  // The second occurrence sets the metadata the first lacks and replaces the oneof it sets.
  const bytes = new Uint8Array([
    ...once({ type: { type: { case: "simple", value: SimpleType.STRING }, metadata: { fields: {} } } }),
    ...once({ type: { type: { case: "simple", value: SimpleType.FLOAT } } }),
  ]);
  const whole = fromBinary(VariableSchema, bytes).type!;
  equal(whole.type.value, SimpleType.FLOAT);
  ok(equals(LiteralTypeSchema, leftOutField(fromBinary(VariableRowSchema, bytes), TYPE, LiteralTypeSchema)!, whole));
});

Deno.test("every task's input types read from its row are the whole task's, got or listed", async () => {
  await withSandbox(async (sandbox, client) => {
    await registerCore(sandbox, ["v1"]);
    const request = { id: { project: "flytesnacks", domain: "development" }, limit: 100 };
    const [whole, rows] = [await client.admin.listTasks(request), await client.rows.listTasks(request)];
    ok(whole.tasks.length > 10, `${whole.tasks.length} tasks registered`);
    equal(rows.tasks.length, whole.tasks.length);
    let typed = 0;
    for (const [i, task] of whole.tasks.entries()) {
      const got = await client.rows.getTask({ id: task.id });
      const variables = task.closure?.compiledTask?.template?.interface?.inputs?.variables ?? {};
      for (const row of [rows.tasks[i], got]) {
        const read = row.closure?.compiledTask?.template?.interface?.inputs?.variables ?? {};
        equal(Object.keys(read).join(), Object.keys(variables).join());
        for (const [name, variable] of Object.entries(variables)) {
          const type = leftOutField(read[name], TYPE, LiteralTypeSchema);
          ok(variable.type && type && equals(LiteralTypeSchema, type, variable.type), `${task.id?.name} ${name}`);
          typed++;
        }
      }
    }
    ok(typed > 10, `${typed} input types compared`);
  });
});
