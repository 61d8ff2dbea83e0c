import { deepEqual } from "node:assert/strict";
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { encode } from "@msgpack/msgpack";
import { LiteralMapSchema, LiteralSchema, type ScalarSchema } from "../../proto/gen/flyteidl/core/literals_pb.ts";
import { collection, primitive } from "../_test_literals.ts";
import { literalDisplay, literalMapDisplay } from "./literal_display.ts";

type ScalarValue = MessageInitShape<typeof ScalarSchema>["value"];
const scalar = (value: ScalarValue) => create(LiteralSchema, { value: { case: "scalar", value: { value } } });

Deno.test("literalDisplay shows each kind of literal as a plain value", () => {
  const cases: [ReturnType<typeof scalar>, unknown][] = [
    [primitive({ case: "integer", value: 42n }), 42],
    [primitive({ case: "integer", value: 9007199254740993n }), "9007199254740993"],
    [primitive({ case: "floatValue", value: 1.5 }), 1.5],
    [primitive({ case: "stringValue", value: "hi" }), "hi"],
    [primitive({ case: "boolean", value: true }), true],
    [primitive({ case: "duration", value: { seconds: 1n, nanos: 0 } }), "1s"],
    [primitive({ case: "duration", value: { seconds: 90n, nanos: 0 } }), "1m30s"],
    [primitive({ case: "datetime", value: { seconds: 1772323200n, nanos: 0 } }), "2026-03-01T00:00:00.000Z"],
    [scalar({ case: "noneType", value: {} }), null],
    [scalar({ case: "blob", value: { uri: "s3://bucket/file.csv" } }), "s3://bucket/file.csv"],
    [scalar({ case: "schema", value: { uri: "s3://bucket/schema" } }), "s3://bucket/schema"],
    [scalar({ case: "structuredDataset", value: { uri: "s3://bucket/sd" } }), "s3://bucket/sd"],
    [scalar({ case: "generic", value: { a: 1, b: ["x"] } }), { a: 1, b: ["x"] }],
    [scalar({ case: "binary", value: { value: encode({ n: 1, s: "x" }), tag: "msgpack" } }), { n: 1, s: "x" }],
    [scalar({ case: "binary", value: { value: new Uint8Array([1, 2, 255]), tag: "raw" } }), {
      value: "AQL/",
      tag: "raw",
    }],
    [
      scalar({
        case: "union",
        value: { value: { value: { case: "scalar", value: { value: { case: "noneType", value: {} } } } } },
      }),
      null,
    ],
  ];
  deepEqual(cases.map(([literal]) => literalDisplay(literal)), cases.map(([, value]) => value));
  const list = collection(primitive({ case: "integer", value: 1n }));
  deepEqual(literalDisplay(list), [1]);
  const map: MessageInitShape<typeof LiteralMapSchema> = { literals: { a: list } };
  deepEqual(literalDisplay(create(LiteralSchema, { value: { case: "map", value: map } })), { a: [1] });
  deepEqual(literalMapDisplay(create(LiteralMapSchema, map)), { a: [1] });
  deepEqual(literalMapDisplay(undefined), {});
});
