import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { type LiteralType, LiteralTypeSchema, SimpleType } from "../../proto/gen/flyteidl/core/types_pb.ts";
import { areTypesCastable, literalTypeText } from "./type_casting.ts";

const type = (init: MessageInitShape<typeof LiteralTypeSchema>): LiteralType => create(LiteralTypeSchema, init);
const simple = (value: SimpleType) => type({ type: { case: "simple", value } });
const INT = simple(SimpleType.INTEGER);
const STR = simple(SimpleType.STRING);
const NONE = simple(SimpleType.NONE);
const union = (...variants: LiteralType[]) => type({ type: { case: "unionType", value: { variants } } });
const list = (element: LiteralType) => type({ type: { case: "collectionType", value: element } });
const enumOf = (...values: string[]) => type({ type: { case: "enumType", value: { values } } });
const blob = (format: string) => type({ type: { case: "blob", value: { format } } });
const dataset = (format: string) => type({ type: { case: "structuredDatasetType", value: { format } } });

Deno.test("types cast as Flyte's compiler casts them when it checks a workflow's bindings", () => {
  const cases: [LiteralType, LiteralType, boolean][] = [
    [INT, INT, true],
    [INT, STR, false],
    // Enums are strings, both ways.
    [enumOf("a", "b"), STR, true],
    [STR, enumOf("a", "b"), true],
    // A list of anything else does not cast; an empty list (of none) casts to any list.
    [list(INT), list(INT), true],
    [list(STR), list(INT), false],
    [list(NONE), list(INT), true],
    [INT, list(INT), false],
    // A union accepts what exactly one variant accepts; a one-variant union casts as its variant.
    [INT, union(INT, NONE), true],
    [NONE, union(INT, NONE), true],
    [INT, union(INT, INT), false],
    [union(INT), INT, true],
    [union(INT, NONE), INT, false],
    // Blobs without a format match any; datasets are nullable and match formats case-insensitively.
    [blob(""), blob("csv"), true],
    [blob("csv"), blob("parquet"), false],
    [NONE, dataset("parquet"), true],
    [dataset("PARQUET"), dataset("parquet"), true],
    [dataset("csv"), dataset("parquet"), false],
    // Metadata and annotations do not count, a structure's tag does.
    [
      type({ type: { case: "simple", value: SimpleType.STRUCT }, metadata: { title: "x" } }),
      simple(SimpleType.STRUCT),
      true,
    ],
    [
      type({ type: { case: "simple", value: SimpleType.STRUCT }, structure: { tag: "a" } }),
      simple(SimpleType.STRUCT),
      false,
    ],
  ];
  for (const [from, to, expected] of cases) {
    assertEquals(areTypesCastable(from, to), expected, `${literalTypeText(from)} -> ${literalTypeText(to)}`);
  }
});

Deno.test("types print as the compiler's messages print them", () => {
  assertEquals(
    literalTypeText(list(union(INT, NONE))),
    "collection_type:{union_type:{variants:{simple:INTEGER} variants:{simple:NONE}}}",
  );
  assertEquals(literalTypeText(enumOf("a", "b")), 'enum_type:{values:"a" values:"b"}');
  assertEquals(
    literalTypeText(type({ type: { case: "simple", value: SimpleType.INTEGER }, metadata: { b: 1, a: "x" } })),
    'simple:INTEGER metadata:{fields:{key:"a" value:{string_value:"x"}} fields:{key:"b" value:{number_value:1}}}',
  );
  assertEquals(
    literalTypeText(
      type({ type: { case: "simple", value: SimpleType.STRUCT }, structure: { dataclassType: { y: STR, x: INT } } }),
    ),
    "simple: STRUCT structure{dataclass_type:{key:x value:{simple:INTEGER}, dataclass_type:{key:y value:{simple:STRING}}",
  );
});
