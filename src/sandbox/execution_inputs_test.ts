import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { LaunchPlanSpecSchema } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import { VariableMapSchema } from "../../proto/gen/flyteidl/core/interface_pb.ts";
import { LiteralMapSchema, LiteralSchema } from "../../proto/gen/flyteidl/core/literals_pb.ts";
import { SimpleType } from "../../proto/gen/flyteidl/core/types_pb.ts";
import {
  collection as list,
  collectionOf,
  enumOf,
  int,
  type LiteralInit,
  none as noneLiteral,
  simple,
  str,
  unionOf,
} from "../_test_literals.ts";
import { LiteralTypeSchema } from "../../proto/gen/flyteidl/core/types_pb.ts";
import { checkAndFetchInputs, expectedInputs, literalTypeOf } from "./execution_inputs.ts";
import { goText } from "./go_text.ts";
import { areTypesCastable } from "./type_casting.ts";

const none = noneLiteral();
const listOf = (value: SimpleType) => collectionOf(simple(value));
const optional = (value: SimpleType) => unionOf(simple(value), simple(SimpleType.NONE));
const typeOf = (literal: LiteralInit) => literalTypeOf(create(LiteralSchema, literal))!;
const castable = (from: ReturnType<typeof typeOf>, to: ReturnType<typeof simple>) =>
  areTypesCastable(from, create(LiteralTypeSchema, to));

Deno.test("an execution input's type: inferred from its literal, and cast as Flyte's compiler casts it", () => {
  assertEquals(castable(typeOf(int(1)), simple(SimpleType.INTEGER)), true);
  assertEquals(castable(typeOf(int(1)), simple(SimpleType.FLOAT)), false);
  assertEquals(castable(typeOf(list(int(1), int(2))), listOf(SimpleType.INTEGER)), true);
  assertEquals(castable(typeOf(list()), listOf(SimpleType.STRING)), true);
  assertEquals(castable(typeOf(list(int(1))), listOf(SimpleType.STRING)), false);
  assertEquals(castable(typeOf(none), optional(SimpleType.INTEGER)), true);
  assertEquals(castable(typeOf(int(3)), optional(SimpleType.INTEGER)), true);
  assertEquals(castable(typeOf(none), simple(SimpleType.INTEGER)), false);
  // An enum is made from a string, as FlyteAdmin's check of an execution's inputs takes it.
  assertEquals(castable(typeOf(str("red")), enumOf("red", "blue")), true);
  assertEquals(
    goText(LiteralTypeSchema, create(LiteralTypeSchema, listOf(SimpleType.INTEGER))),
    "collection_type:{simple:INTEGER}",
  );
});

Deno.test("expected inputs: the launch plan's defaults plus the workflow inputs it neither defaults nor fixes", () => {
  const workflowInputs = create(VariableMapSchema, {
    variables: {
      a: { type: simple(SimpleType.INTEGER) },
      b: { type: simple(SimpleType.INTEGER) },
      c: { type: simple(SimpleType.INTEGER) },
    },
  });
  const spec = create(LaunchPlanSpecSchema, {
    defaultInputs: {
      parameters: {
        b: {
          var: { type: simple(SimpleType.INTEGER) },
          behavior: { case: "default", value: int(2) },
        },
      },
    },
    fixedInputs: { literals: { c: int(3) } },
  });
  const expected = expectedInputs(spec, workflowInputs);
  assertEquals(Object.keys(expected), ["a", "b"]);
  assertEquals(expected.a.behavior, { case: "required", value: true });
  const inputs = checkAndFetchInputs(create(LiteralMapSchema, { literals: { a: int(1) } }), spec.fixedInputs, expected);
  assertEquals(Object.keys(inputs.literals).sort(), ["a", "b", "c"]);
  let refused = "";
  try {
    checkAndFetchInputs(create(LiteralMapSchema, { literals: { a: list(int(1)) } }), spec.fixedInputs, expected);
  } catch (err) {
    refused = err instanceof ConnectError ? err.rawMessage : String(err);
  }
  assertEquals(
    refused,
    "invalid a input wrong type. Expected simple:INTEGER, but got collection_type:{simple:INTEGER}",
  );
});

Deno.test("execution inputs are cast as FlyteAdmin casts them: an enum takes a string, not a number; a union literal its variant", () => {
  const workflowInputs = create(VariableMapSchema, {
    variables: {
      color: { type: enumOf("red", "blue") },
      either: { type: unionOf(simple(SimpleType.INTEGER), simple(SimpleType.STRING)) },
    },
  });
  const spec = create(LaunchPlanSpecSchema, {});
  const expected = expectedInputs(spec, workflowInputs);
  const refusal = (literals: Record<string, LiteralInit>) => {
    try {
      checkAndFetchInputs(create(LiteralMapSchema, { literals }), undefined, expected);
      return "";
    } catch (err) {
      return err instanceof ConnectError ? err.rawMessage : String(err);
    }
  };
  const either = create(LiteralSchema, {
    value: {
      case: "scalar",
      value: { value: { case: "union", value: { value: int(5), type: simple(SimpleType.INTEGER) } } },
    },
  });
  assertEquals(refusal({ color: str("red"), either }), "");
  assertEquals(
    refusal({ color: int(1), either }),
    'invalid color input wrong type. Expected enum_type:{values:"red" values:"blue"}, but got simple:INTEGER',
  );
});

Deno.test("a collection's or map's type is its elements' as the compiler infers it: all of them, not the first", () => {
  const text = (literal: LiteralInit) => goText(LiteralTypeSchema, typeOf(literal));
  // Several types: a union of them in their text's order.
  assertEquals(
    text(list(str("a"), int(1), int(2))),
    "collection_type:{union_type:{variants:{simple:INTEGER} variants:{simple:STRING}}}",
  );
  assertEquals(castable(typeOf(list(int(1), str("a"))), listOf(SimpleType.INTEGER)), false);
  assertEquals(
    castable(
      typeOf(list(int(1), str("a"))),
      collectionOf(unionOf(simple(SimpleType.INTEGER), simple(SimpleType.STRING))),
    ),
    true,
  );
  // An empty collection among them counts only when nothing else does.
  assertEquals(text(list(list(), list(int(1)))), "collection_type:{collection_type:{simple:INTEGER}}");
  assertEquals(text(list(list())), "collection_type:{collection_type:{simple:NONE}}");
  // Collections of unions give up their variants to one union, made a collection, beside the other types (here a
  // collection of NONE) as they are: the compiler's buildMultipleTypeUnion.
  assertEquals(
    text(list(list(int(1), str("a")), list(none))),
    "collection_type:{collection_type:{union_type:{variants:{collection_type:{simple:NONE}} " +
      "variants:{simple:INTEGER} variants:{simple:STRING}}}}",
  );
  const map = { value: { case: "map" as const, value: { literals: { a: int(1), b: str("x") } } } };
  assertEquals(text(map), "map_value_type:{union_type:{variants:{simple:INTEGER} variants:{simple:STRING}}}");
});

/** What checkAndFetchInputs answers for input `x` of type `type` given `given`: "" or the code and message. */
function answerFor(type: ReturnType<typeof simple>, given: LiteralInit): string {
  try {
    checkAndFetchInputs(
      create(LiteralMapSchema, { literals: { x: given } }),
      undefined,
      expectedInputs(create(LaunchPlanSpecSchema, {}), create(VariableMapSchema, { variables: { x: { type } } })),
    );
    return "";
  } catch (err) {
    if (!(err instanceof ConnectError)) throw err;
    return `${Code[err.code]}: ${err.rawMessage}`;
  }
}

const blobWithoutMetadata = {
  value: { case: "scalar" as const, value: { value: { case: "blob" as const, value: { uri: "s3://b/k" } } } },
};

Deno.test("an input the compiler infers no type of is refused as ValidateLiteralType refuses it; in a collection, as no type casts from it", () => {
  assertEquals(
    answerFor(listOf(SimpleType.INTEGER), blobWithoutMetadata),
    "InvalidArgument: Failed to validate literal type for [x] with err: got unknown literal type: [<nil>].\n" +
      "Suggested solution: Please update all your Flyte deployment images to the latest version and try again",
  );
  // ValidateLiteralType follows element types only while they are not nil: a collection of nil passes it, and then
  // casts to nothing, printed as Go prints the nil.
  assertEquals(
    answerFor(listOf(SimpleType.INTEGER), list(blobWithoutMetadata)),
    "InvalidArgument: invalid x input wrong type. Expected collection_type:{simple:INTEGER}, but got collection_type:{}",
  );
});

Deno.test("an element of no type beside others is a nil variant of the union, as the compiler's literalTypeForLiterals keeps it", () => {
  const mixed = list(int(1), blobWithoutMetadata);
  assertEquals(
    goText(LiteralTypeSchema, typeOf(mixed)),
    "collection_type:{union_type:{variants:{} variants:{simple:INTEGER}}}",
  );
  assertEquals(
    answerFor(listOf(SimpleType.INTEGER), mixed),
    "InvalidArgument: invalid x input wrong type. Expected collection_type:{simple:INTEGER}, but got " +
      "collection_type:{union_type:{variants:{} variants:{simple:INTEGER}}}",
  );
  // No variant takes the nil: against variants the compiler checks without comparing, the input is refused...
  const blobOrInts = collectionOf(unionOf({ type: { case: "blob", value: {} } }, listOf(SimpleType.INTEGER)));
  assertEquals(
    answerFor(blobOrInts, mixed),
    "InvalidArgument: invalid x input wrong type. Expected collection_type:{union_type:{variants:{blob:{}} " +
      "variants:{collection_type:{simple:INTEGER}}}}, but got collection_type:{union_type:{variants:{} " +
      "variants:{simple:INTEGER}}}",
  );
  // ...and against one it compares exactly (an integer), the compiler dereferences the nil: FlyteAdmin's recovered
  // panic, INTERNAL with no message.
  assertEquals(answerFor(collectionOf(optional(SimpleType.INTEGER)), mixed), "Internal: ");
});

Deno.test("a union literal without its type is a union of one nil variant, as the compiler infers it", () => {
  const untyped = create(LiteralSchema, {
    value: { case: "scalar", value: { value: { case: "union", value: { value: int(5) } } } },
  });
  assertEquals(goText(LiteralTypeSchema, typeOf(untyped)), "union_type:{variants:{}}");
  assertEquals(answerFor(simple(SimpleType.INTEGER), untyped), "Internal: ");
  assertEquals(
    answerFor(listOf(SimpleType.INTEGER), untyped),
    "InvalidArgument: invalid x input wrong type. Expected collection_type:{simple:INTEGER}, but got union_type:{variants:{}}",
  );
});

Deno.test("a dataset without metadata, or a blob without a type, is of a nil dataset or blob type: castable to none", () => {
  const dataset = {
    value: {
      case: "scalar" as const,
      value: { value: { case: "structuredDataset" as const, value: { uri: "s3://b/d" } } },
    },
  };
  assertEquals(
    answerFor(
      { type: { case: "structuredDatasetType", value: { format: "parquet" } } } as ReturnType<typeof simple>,
      dataset,
    ),
    'InvalidArgument: invalid x input wrong type. Expected structured_dataset_type:{format:"parquet"}, but got ' +
      "structured_dataset_type:{}",
  );
  const blob = {
    value: {
      case: "scalar" as const,
      value: { value: { case: "blob" as const, value: { uri: "s3://b/k", metadata: {} } } },
    },
  };
  assertEquals(
    answerFor({ type: { case: "blob", value: {} } } as ReturnType<typeof simple>, blob),
    "InvalidArgument: invalid x input wrong type. Expected blob:{}, but got blob:{}",
  );
});
