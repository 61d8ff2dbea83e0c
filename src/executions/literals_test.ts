import { deepEqual, equal, throws } from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import {
  BlobType_BlobDimensionality,
  type LiteralType,
  LiteralTypeSchema,
  SimpleType,
} from "../../proto/gen/flyteidl/core/types_pb.ts";
import { UsageError } from "../errors.ts";
import { inputLiterals, literalFor, literalTypeText, LiteralValueError, unionLocalPaths } from "./literals.ts";
import { parseExecutionSpec } from "./spec_file.ts";
import { inputValue } from "./input_value.ts";
import { assertSameValue, decodeLiteral, decodeMsgpack } from "./_test_literal_decode.ts";
import { collectionOf, enumOf, type LiteralTypeInit, mapOf, simple, unionOf } from "../_test_literals.ts";

const blob = (dimensionality = BlobType_BlobDimensionality.SINGLE): LiteralTypeInit => ({
  type: { case: "blob", value: { format: "csv", dimensionality } },
});
const INT = simple(SimpleType.INTEGER);
const FLOAT = simple(SimpleType.FLOAT);
const STR = simple(SimpleType.STRING);
const BOOL = simple(SimpleType.BOOLEAN);
const NONE = simple(SimpleType.NONE);
const STRUCT = simple(SimpleType.STRUCT);

/** The inputs of `yaml` (the body of `inputs:`, one `name: value` per line) converted against `types`. */
async function convert(yaml: string, types: Record<string, LiteralTypeInit>, oldDataclassFormat = false) {
  const body = yaml.split("\n").map((line) => `  ${line}`).join("\n");
  const spec = await parseExecutionSpec(`task: t\ninputs:\n${body}\n`, "spec.yaml");
  const literalTypes: Record<string, LiteralType> = {};
  for (const [name, init] of Object.entries(types)) literalTypes[name] = create(LiteralTypeSchema, init);
  return inputLiterals(spec.inputs, literalTypes, { oldDataclassFormat });
}

async function decoded(yaml: string, type: LiteralTypeInit, oldDataclassFormat = false) {
  const { literals } = await convert(`x: ${yaml}`, { x: type }, oldDataclassFormat);
  return decodeLiteral(literals.x);
}

/** The variant a union literal chose. */
async function variantOf(yaml: string, type: LiteralTypeInit): Promise<string> {
  const { literals } = await convert(`x: ${yaml}`, { x: type });
  const v = literals.x.value;
  if (v.case !== "scalar" || v.value.value.case !== "union") throw new Error("not a union literal");
  return literalTypeText(v.value.value.value.type);
}

Deno.test("the input's type decides what a scalar means", async () => {
  assertSameValue(await decoded("yes", STR), "yes");
  assertSameValue(await decoded("yes", BOOL), true);
  assertSameValue(await decoded("1.10", STR), "1.10");
  assertSameValue(await decoded("1.10", FLOAT), 1.1);
  assertSameValue(await decoded("0x1F", STR), "0x1F");
  assertSameValue(await decoded("0x1F", INT), 31n);
  assertSameValue(await decoded('"42"', INT), 42n);
  assertSameValue(await decoded("5.0", INT), 5n);
  assertSameValue(await decoded("1", BOOL), true);
  assertSameValue(await decoded("F", BOOL), false);
  assertSameValue(await decoded('"-.inf"', FLOAT), -Infinity);
  assertSameValue(await decoded("7", FLOAT), 7);
  assertSameValue(await decoded("9223372036854775807", INT), 9223372036854775807n);
  assertSameValue(await decoded("-9223372036854775808", INT), -9223372036854775808n);
  assertSameValue(await decoded("9007199254740993", INT), 9007199254740993n);
  assertSameValue(await decoded("red", enumOf("red", "green")), "red");
  assertSameValue(await decoded("1", enumOf("1", "2")), "1");
});

Deno.test("datetimes and durations keep nanoseconds", async () => {
  assertSameValue(await decoded("2024-03-04T05:06:07.123456789+02:00", simple(SimpleType.DATETIME)), {
    seconds: 1709521567n,
    nanos: 123456789,
  });
  assertSameValue(await decoded('"0001-01-01T00:00:00Z"', simple(SimpleType.DATETIME)), {
    seconds: -62135596800n,
    nanos: 0,
  });
  assertSameValue(await decoded("2h45m0.000000001s", simple(SimpleType.DURATION)), { durationNanos: 9900000000001n });
  assertSameValue(await decoded("-1.5h", simple(SimpleType.DURATION)), { durationNanos: -5400000000000n });
  assertSameValue(await decoded("2562047h47m16.854775807s", simple(SimpleType.DURATION)), {
    durationNanos: 9223372036854775807n,
  });
  assertSameValue(await decoded("0", simple(SimpleType.DURATION)), { durationNanos: 0n });
});

Deno.test("a union takes the variant of the value's own kind, then the first in declared order that fits", async () => {
  equal(await variantOf("5", unionOf(STR, INT)), "integer");
  equal(await variantOf('"5"', unionOf(INT, STR)), "string");
  equal(await variantOf("null", unionOf(STR, NONE)), "none");
  equal(await variantOf("1.5", unionOf(INT, STR, FLOAT)), "float");
  equal(await variantOf("yes", unionOf(STR, BOOL)), "boolean");
  equal(await variantOf("[1]", unionOf(mapOf(INT), collectionOf(INT))), "list of integer");
  equal(await variantOf("{a: 1}", unionOf(collectionOf(INT), STRUCT, mapOf(INT))), "mapping of string to integer");
  // No variant of its kind: the declared order decides.
  equal(await variantOf("5", unionOf(FLOAT, STR)), "float");
  equal(await variantOf("5", unionOf(STR, FLOAT)), "string");
  equal(await variantOf("{a: 1}", unionOf(NONE, STRUCT)), "struct");
  // Its kind's variant does not take it: the others are tried.
  equal(await variantOf('"abc"', unionOf(enumOf("abc"), STR)), "string");
  equal(await variantOf("[x]", unionOf(collectionOf(INT), collectionOf(STR))), "list of string");
  equal(await variantOf("s3://b/k", unionOf(INT, blob())), "file (blob)");
});

Deno.test("structs are MessagePack with integers as integers and floats as floats", async () => {
  assertSameValue(await decoded("{a: 1, b: 2.5, c: [yes, null, x], d: {e: 9223372036854775807}}", STRUCT), {
    a: 1n,
    b: 2.5,
    c: [true, null, "x"],
    d: { e: 9223372036854775807n },
  });
  // A whole float stays a float (float64), and the integers beside it integers.
  assertSameValue(await decoded("{a: 1.0, b: 1, c: -0.0}", STRUCT), { a: 1, b: 1n, c: -0 });
  const { literals } = await convert("x: {a: 1.0}", { x: STRUCT });
  const scalar = literals.x.value.case === "scalar" ? literals.x.value.value.value : undefined;
  equal(scalar?.case, "binary");
  if (scalar?.case === "binary") {
    equal(scalar.value.tag, "msgpack");
    deepEqual([...scalar.value.value], [0x81, 0xa1, 0x61, 0xcb, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0]);
    assertSameValue(decodeMsgpack(scalar.value.value), { a: 1 });
  }
  // Smallest integer forms otherwise, as Python's msgpack writes them.
  const small = await convert("x: {a: 1}", { x: STRUCT });
  const smallScalar = small.literals.x.value.case === "scalar" ? small.literals.x.value.value.value : undefined;
  if (smallScalar?.case === "binary") deepEqual([...smallScalar.value.value], [0x81, 0xa1, 0x61, 0x01]);
  else throw new Error("not binary");
  // Past 32 bits: uint64 / int64 (never a float64, which the encoder writes for such a JavaScript number).
  const wide = await convert("x: {a: 4294967296, b: -2147483649}", { x: STRUCT });
  const wideScalar = wide.literals.x.value.case === "scalar" ? wide.literals.x.value.value.value : undefined;
  if (wideScalar?.case !== "binary") throw new Error("not binary");
  deepEqual([...wideScalar.value.value], [
    0x82,
    0xa1,
    0x61,
    0xcf,
    ...[0, 0, 0, 1, 0, 0, 0, 0],
    0xa1,
    0x62,
    0xd3,
    ...[0xff, 0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff],
  ]);
});

Deno.test("the old dataclass format, and a JSON string, are a protobuf Struct", async () => {
  assertSameValue(await decoded("{a: 1, b: [x]}", STRUCT, true), { generic: { a: 1, b: ["x"] } });
  assertSameValue(await decoded(`'{"a": {"b": 2}}'`, STRUCT), { generic: { a: { b: 2 } } });
});

Deno.test("binary, error, schema and structured dataset values", async () => {
  assertSameValue(await decoded("{value: [1, 2, 255], tag: raw}", simple(SimpleType.BINARY)), {
    tag: "raw",
    bytes: [1n, 2n, 255n],
  });
  assertSameValue(await decoded("{value: AQL/, tag: raw}", simple(SimpleType.BINARY)), {
    tag: "raw",
    bytes: [1n, 2n, 255n],
  });
  assertSameValue(await decoded("boom", simple(SimpleType.ERROR)), { failedNodeId: "", message: "boom" });
  assertSameValue(await decoded("s3://b/table", { type: { case: "schema", value: {} } }), { uri: "s3://b/table" });
  assertSameValue(
    await decoded("gs://b/df", { type: { case: "structuredDatasetType", value: { format: "parquet" } } }),
    {
      uri: "gs://b/df",
    },
  );
});

Deno.test("blobs given as local paths are listed for upload with where they are", async () => {
  const { literals, localBlobs } = await convert(
    "files: [s3://b/a.csv, ./b.csv, file:///tmp/c%20d.csv]\ndir: /data/dir\nmaybe: ./e.csv",
    {
      files: collectionOf(blob()),
      dir: blob(BlobType_BlobDimensionality.MULTIPART),
      maybe: unionOf(NONE, INT, blob()),
    },
  );
  deepEqual(
    localBlobs.map((b) => [b.input, b.path, b.dimensionality]),
    [
      ["inputs.files[1]", "./b.csv", BlobType_BlobDimensionality.SINGLE],
      ["inputs.files[2]", "/tmp/c d.csv", BlobType_BlobDimensionality.SINGLE],
      ["inputs.dir", "/data/dir", BlobType_BlobDimensionality.MULTIPART],
      ["inputs.maybe", "./e.csv", BlobType_BlobDimensionality.SINGLE],
    ],
  );
  // The caller substitutes the uploaded location in the literal itself.
  localBlobs[0].blob.uri = "s3://bucket/uploaded/b.csv";
  assertSameValue(decodeLiteral(literals.files), [{ uri: "s3://b/a.csv" }, { uri: "s3://bucket/uploaded/b.csv" }, {
    uri: "file:///tmp/c%20d.csv",
  }]);
});

async function wrong(yaml: string, types: Record<string, LiteralTypeInit>, message: string) {
  let error: unknown;
  try {
    await convert(yaml, types);
  } catch (err) {
    error = err;
  }
  equal(error instanceof LiteralValueError && error instanceof UsageError, true, `no error for ${yaml}`);
  equal((error as Error).message, message);
}

Deno.test("every wrong value is one line naming the input, the value and the type", async () => {
  const INT_RANGE = "from -9223372036854775808 to 9223372036854775807";
  await wrong("x: ten", { x: INT }, `inputs.x: "ten" is not an integer (a whole number ${INT_RANGE})`);
  await wrong("x: 1.5", { x: INT }, `inputs.x: 1.5 is not an integer (a whole number ${INT_RANGE})`);
  await wrong(
    "x: 9223372036854775808",
    { x: INT },
    `inputs.x: 9223372036854775808 is out of range for an integer (${INT_RANGE})`,
  );
  await wrong(
    "x: [1, 2, x]",
    { x: collectionOf(INT) },
    `inputs.x[2]: "x" is not an integer (a whole number ${INT_RANGE})`,
  );
  await wrong(
    "x: {a: {b c: x}}",
    { x: mapOf(mapOf(FLOAT)) },
    'inputs.x.a["b c"]: "x" is not a float (a number such as 1.5, -2e-3 or .inf)',
  );
  await wrong("x: maybe", { x: BOOL }, 'inputs.x: "maybe" is not a boolean (true or false)');
  await wrong("x: [a]", { x: STR }, 'inputs.x: ["a"] is not a string');
  await wrong(
    "x: '2024-13-01T00:00:00Z'",
    { x: simple(SimpleType.DATETIME) },
    'inputs.x: "2024-13-01T00:00:00Z" is not a datetime (RFC 3339, e.g. 2024-03-04T05:06:07Z)',
  );
  await wrong(
    "x: 5",
    { x: simple(SimpleType.DURATION) },
    "inputs.x: 5 is not a duration (valid formats: e.g. 300ms, -1.5h, 2h45m)",
  );
  await wrong(
    "x: 2562048h",
    { x: simple(SimpleType.DURATION) },
    'inputs.x: "2562048h" is not a duration (valid formats: e.g. 300ms, -1.5h, 2h45m)',
  );
  await wrong("x: 0", { x: NONE }, "inputs.x: 0 is not none (null)");
  await wrong(
    "x: pink",
    { x: enumOf("red", "green") },
    'inputs.x: incorrect enum value "pink", supported values [red, green]',
  );
  await wrong(
    "x: [1]",
    { x: unionOf(INT, NONE) },
    "inputs.x: incorrect union value [1], supported values [integer, none]",
  );
  await wrong("x: 5", { x: collectionOf(INT) }, "inputs.x: 5 is not a list of integer");
  await wrong("x: [5]", { x: mapOf(INT) }, "inputs.x: [5] is not a mapping of string to integer");
  await wrong("x: 5", { x: STRUCT }, "inputs.x: 5 is not a struct (a mapping, or a JSON object as a string)");
  await wrong(
    "x: '{a'",
    { x: STRUCT },
    `inputs.x: "{a" is not a struct: not valid JSON (Expected property name or '}' in JSON at position 1 (line 1 column 2))`,
  );
  await wrong("x: '[1]'", { x: STRUCT }, 'inputs.x: "[1]" is not a struct (a mapping, or a JSON object as a string)');
  await wrong(
    "x: {value: [256]}",
    { x: simple(SimpleType.BINARY) },
    "inputs.x: {value: [256]} is not binary ({value: [bytes] or base64 text, tag: msgpack})",
  );
  await wrong(
    "x: {code: 1}",
    { x: simple(SimpleType.ERROR) },
    "inputs.x: {code: 1} is not an error ({failedNodeId: …, message: …} or a message)",
  );
  await wrong("x: ''", { x: blob() }, 'inputs.x: "" is not a file (blob): a URI or a local path');
  await wrong("x: {a: 1}", { x: { type: { case: "schema", value: {} } } }, "inputs.x: {a: 1} is not a schema (a URI)");
  await wrong(
    "x: null",
    { x: { type: { case: "structuredDatasetType", value: {} } } },
    "inputs.x: null is not a structured dataset (a URI)",
  );
  await wrong("x: 1", { x: {} }, "inputs.x: its type is not set; nothing can be given for it");
  await wrong(
    "nam: 1",
    { name: STR, count: INT },
    'inputs.nam: no such input; did you mean "name"?; valid inputs: count, name',
  );
  await wrong("x: 1", {}, "inputs.x: no such input; it takes no inputs");
  await wrong(
    `x: "${"\\x1b".repeat(200)}"`,
    { x: INT },
    `inputs.x: "${"\\u001b".repeat(13)}… is not an integer (a whole number ${INT_RANGE})`,
  );
});

Deno.test("an input whose type is not set is named as such, not as unknown", () => {
  throws(() => inputLiterals(new Map([["x", inputValue(1)]]), { x: undefined }), {
    message: "inputs.x: its type is not set; nothing can be given for it",
  });
});

Deno.test("the old Struct refuses numbers a double cannot hold", () => {
  const type = create(LiteralTypeSchema, STRUCT);
  throws(
    () => literalFor(inputValue({ a: 2n ** 60n + 1n }), type, "inputs.s", { oldDataclassFormat: true }),
    { message: "inputs.s: 1152921504606846977 cannot be held exactly in a protobuf Struct (its numbers are doubles)" },
  );
  throws(
    () => literalFor(inputValue({ a: Infinity }), type, "inputs.s", { oldDataclassFormat: true }),
    { message: "inputs.s: Infinity cannot be held in a protobuf Struct (JSON numbers are finite)" },
  );
});

Deno.test("a union of a file and a directory blob takes the variant of what a local path is, then declared order", async () => {
  const FILE = blob(BlobType_BlobDimensionality.SINGLE);
  const DIR = blob(BlobType_BlobDimensionality.MULTIPART);
  const spec = await parseExecutionSpec(
    "task: t\ninputs:\n  a: ./images\n  b: file:///data/notes.txt\n  c: s3://bucket/key\n  d: [./images, ./gone]\n",
    "spec.yaml",
  );
  const union = create(LiteralTypeSchema, unionOf(FILE, DIR));
  const types = { a: union, b: union, c: union, d: create(LiteralTypeSchema, collectionOf(unionOf(FILE, DIR))) };
  // What is looked at on disk: every local path under such a union, once; never a remote URI.
  deepEqual(unionLocalPaths(spec.inputs, types), ["./images", "/data/notes.txt", "./gone"]);
  // Only a union offering both kinds of blob needs to know.
  deepEqual(unionLocalPaths(spec.inputs, { a: create(LiteralTypeSchema, unionOf(FILE, INT)) }), []);
  const localPathKinds = new Map([["./images", "directory" as const], ["/data/notes.txt", "file" as const]]);
  const { literals, localBlobs } = inputLiterals(spec.inputs, types, { localPathKinds });
  const chosen = (literal: (typeof literals)[string]) => {
    const v = literal.value;
    if (v.case !== "scalar" || v.value.value.case !== "union") throw new Error("not a union literal");
    return literalTypeText(v.value.value.value.type);
  };
  equal(chosen(literals.a), "directory (blob)");
  equal(chosen(literals.b), "file (blob)");
  equal(chosen(literals.c), "file (blob)");
  const items = literals.d.value.case === "collection" ? literals.d.value.value.literals : [];
  // A path not looked at (or not there) keeps declared order: the upload's check then names what is wrong.
  deepEqual(items.map(chosen), ["directory (blob)", "file (blob)"]);
  deepEqual(
    localBlobs.map(({ input, path, dimensionality }) => [input, path, dimensionality]),
    [
      ["inputs.a", "./images", BlobType_BlobDimensionality.MULTIPART],
      ["inputs.b", "/data/notes.txt", BlobType_BlobDimensionality.SINGLE],
      ["inputs.d[0]", "./images", BlobType_BlobDimensionality.MULTIPART],
      ["inputs.d[1]", "./gone", BlobType_BlobDimensionality.SINGLE],
    ],
  );
  // Declared the other way round, a file still takes the file variant and a remote URI the first.
  const reversed = create(LiteralTypeSchema, unionOf(DIR, FILE));
  const other = inputLiterals(spec.inputs, { ...types, b: reversed, c: reversed }, { localPathKinds });
  equal(chosen(other.literals.b), "file (blob)");
  equal(chosen(other.literals.c), "directory (blob)");
});
