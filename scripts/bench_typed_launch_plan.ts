/**
 * The launch plan `create execution`'s benchmark runs (scripts/bench_create_execution.ts): 20 inputs of the kinds a
 * real workflow takes (integers, one beyond 2^53, floats, strings, booleans, lists, a map, a struct as a dataclass
 * default, a datetime with nanoseconds, a duration, a file and a directory, an enum and a union), each with a default,
 * so that the spec file `get launchplan NAME --execFile` writes holds a real value for every one.
 *
 * @module
 */
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { type Literal, LiteralSchema, type PrimitiveSchema } from "../proto/gen/flyteidl/core/literals_pb.ts";
import {
  BlobType_BlobDimensionality,
  type LiteralType,
  LiteralTypeSchema,
  SimpleType,
} from "../proto/gen/flyteidl/core/types_pb.ts";

type LiteralInit = MessageInitShape<typeof LiteralSchema>;
type PrimitiveValue = NonNullable<MessageInitShape<typeof PrimitiveSchema>["value"]>;

const simple = (value: SimpleType): LiteralType => create(LiteralTypeSchema, { type: { case: "simple", value } });
const literal = (init: LiteralInit): Literal => create(LiteralSchema, init);
const primitive = (value: PrimitiveValue): Literal =>
  literal({ value: { case: "scalar", value: { value: { case: "primitive", value: { value } } } } });
const int = (value: bigint) => primitive({ case: "integer", value });
const float = (value: number) => primitive({ case: "floatValue", value });
const str = (value: string) => primitive({ case: "stringValue", value });
const bool = (value: boolean) => primitive({ case: "boolean", value });
const list = (literals: Literal[]): Literal => literal({ value: { case: "collection", value: { literals } } });
const map = (literals: Record<string, Literal>): Literal => literal({ value: { case: "map", value: { literals } } });
const blobType = (format: string, dimensionality: BlobType_BlobDimensionality) => ({ format, dimensionality });
const blob = (uri: string, type: ReturnType<typeof blobType>): Literal =>
  literal({ value: { case: "scalar", value: { value: { case: "blob", value: { uri, metadata: { type } } } } } });
const typeOf = (type: MessageInitShape<typeof LiteralTypeSchema>["type"]): LiteralType =>
  create(LiteralTypeSchema, { type });

const CSV = blobType("csv", BlobType_BlobDimensionality.SINGLE);
const DIRECTORY = blobType("", BlobType_BlobDimensionality.MULTIPART);
const INT_VARIANT = create(LiteralTypeSchema, {
  type: { case: "simple", value: SimpleType.INTEGER },
  structure: { tag: "int" },
});
const STR_VARIANT = create(LiteralTypeSchema, {
  type: { case: "simple", value: SimpleType.STRING },
  structure: { tag: "str" },
});

/** The inputs by name: their type and default. */
export const TYPED_INPUTS: Record<string, { type: LiteralType; default: Literal }> = {
  epochs: { type: simple(SimpleType.INTEGER), default: int(42n) },
  retries: { type: simple(SimpleType.INTEGER), default: int(3n) },
  seed: { type: simple(SimpleType.INTEGER), default: int(9_007_199_254_740_993n) },
  learning_rate: { type: simple(SimpleType.FLOAT), default: float(0.00125) },
  threshold: { type: simple(SimpleType.FLOAT), default: float(-1.5e-9) },
  run_name: { type: simple(SimpleType.STRING), default: str("nightly training run") },
  region: { type: simple(SimpleType.STRING), default: str("us-east-1") },
  answer: { type: simple(SimpleType.STRING), default: str("yes") },
  dry_run: { type: simple(SimpleType.BOOLEAN), default: bool(false) },
  verbose: { type: simple(SimpleType.BOOLEAN), default: bool(true) },
  layer_sizes: {
    type: typeOf({ case: "collectionType", value: simple(SimpleType.INTEGER) }),
    default: list([512n, 256n, 128n, 64n, 10n].map(int)),
  },
  tags: {
    type: typeOf({ case: "collectionType", value: simple(SimpleType.STRING) }),
    default: list(["bench", "mlp", "fp16"].map(str)),
  },
  class_weights: {
    type: typeOf({ case: "mapValueType", value: simple(SimpleType.FLOAT) }),
    default: map({ cat: float(0.25), dog: float(0.5), bird: float(1.75) }),
  },
  hyperparameters: {
    type: simple(SimpleType.STRUCT),
    default: literal({
      value: {
        case: "scalar",
        value: {
          value: {
            case: "generic",
            value: { optimizer: "adam", momentum: 0.9, schedule: { warmup: 500, decay: [0.1, 0.01] }, frozen: false },
          },
        },
      },
    }),
  },
  started_at: {
    type: simple(SimpleType.DATETIME),
    default: primitive({ case: "datetime", value: { seconds: 1_772_368_496n, nanos: 123_456_789 } }),
  },
  timeout: {
    type: simple(SimpleType.DURATION),
    default: primitive({ case: "duration", value: { seconds: 5_400n, nanos: 0 } }),
  },
  training_data: {
    type: typeOf({ case: "blob", value: CSV }),
    default: blob("s3://bench-bucket/data/train.csv", CSV),
  },
  checkpoint_dir: {
    type: typeOf({ case: "blob", value: DIRECTORY }),
    default: blob("s3://bench-bucket/checkpoints/run-7/", DIRECTORY),
  },
  precision: {
    type: typeOf({ case: "enumType", value: { values: ["fp32", "fp16", "bf16"] } }),
    default: str("fp16"),
  },
  batch: {
    type: typeOf({ case: "unionType", value: { variants: [INT_VARIANT, STR_VARIANT] } }),
    default: literal({
      value: { case: "scalar", value: { value: { case: "union", value: { value: int(64n), type: INT_VARIANT } } } },
    }),
  },
};

/** The inputs' types, as a workflow interface's variables. */
export function typedVariables() {
  return Object.fromEntries(
    Object.entries(TYPED_INPUTS).map(([name, input]) => [name, { type: input.type, description: name }]),
  );
}

/** The inputs as a launch plan's default inputs, each with its default. */
export function typedParameters() {
  return Object.fromEntries(
    Object.entries(TYPED_INPUTS).map(([name, input]) => [
      name,
      { var: { type: input.type, description: name }, behavior: { case: "default" as const, value: input.default } },
    ]),
  );
}
