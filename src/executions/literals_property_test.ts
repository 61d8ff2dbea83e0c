/**
 * Property tests of execution inputs: generated input types (every simple type, blobs, enums, unions of every
 * kind, collections and maps nested, MessagePack structs) and values of them, written as spec file text, read
 * by parseExecutionSpec, converted by inputLiterals and decoded back: the values that come out are the values
 * that went in, integers exact to int64's edges. The expected values are worked out here, not by the code
 * under test (dates by `Date`, MessagePack by a decoder written from its specification).
 */
import { ok } from "node:assert/strict";
import fc from "fast-check";
import { create } from "@bufbuild/protobuf";
import { type LiteralType, LiteralTypeSchema, SimpleType } from "../../proto/gen/flyteidl/core/types_pb.ts";
import { checkProperty, runs } from "../_test_property.ts";
import { UsageError } from "../errors.ts";
import { parseExecutionSpec } from "./spec_file.ts";
import { inputLiterals, LiteralValueError } from "./literals.ts";
import { assertSameValue, type Decoded, decodeLiteral } from "./_test_literal_decode.ts";
import { collectionOf, enumOf, type LiteralTypeInit, mapOf, simple, unionOf } from "../_test_literals.ts";

/** YAML kinds of values: a union picks the variant of the value's own kind first. */
type Kind = "null" | "int" | "float" | "bool" | "string" | "list" | "map";
const KINDS: Kind[] = ["null", "int", "float", "bool", "string", "list", "map"];

/** The variant type whose own kind is `kind`. */
const KIND_TYPES: Record<Kind, LiteralTypeInit> = {
  null: simple(SimpleType.NONE),
  int: simple(SimpleType.INTEGER),
  float: simple(SimpleType.FLOAT),
  bool: simple(SimpleType.BOOLEAN),
  string: simple(SimpleType.STRING),
  list: collectionOf(simple(SimpleType.INTEGER)),
  map: mapOf(simple(SimpleType.INTEGER)),
};

/** A value as spec file text, and what decoding its literal must give. */
interface Sample {
  yaml: string;
  expected: Decoded;
}

/** A generated input type: its kind when it is a union's natural variant, its values' YAML kind, its values. */
interface Gen {
  type: LiteralTypeInit;
  natural?: Kind;
  valueKind: Kind;
  union?: boolean;
  /** Values of the type; `inUnion`: strings always quoted (a plain `yes` is a boolean to a union). */
  values: (inUnion: boolean) => fc.Arbitrary<Sample>;
}

/** A double-quoted YAML string: every character outside printable ASCII escaped, lone surrogates included. */
function quoted(text: string): string {
  return `"${
    text.replace(/[^\x20-\x7e]|["\\]/g, (c) =>
      c === '"' ? '\\"' : c === "\\" ? "\\\\" : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
  }"`;
}

/** A float as YAML 1.1 reads a float (never an integer: `1.0`, not `1`). */
function floatText(f: number): string {
  if (Number.isNaN(f)) return ".nan";
  if (!Number.isFinite(f)) return f > 0 ? ".inf" : "-.inf";
  if (Object.is(f, -0)) return "-0.0";
  const text = String(f);
  return /[.e]/.test(text) ? text : `${text}.0`;
}

function fixed(
  type: LiteralTypeInit,
  natural: Kind | undefined,
  valueKind: Kind,
  values: (inUnion: boolean) => fc.Arbitrary<Sample>,
): Gen {
  return { type, natural, valueKind, values };
}

const INT64_EDGES = [(1n << 63n) - 1n, -(1n << 63n), -((1n << 63n) - 1n), (1n << 53n) + 1n, -((1n << 53n) + 1n), 0n];

const integerGen = fixed(simple(SimpleType.INTEGER), "int", "int", () =>
  fc.tuple(
    fc.oneof(fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }), fc.constantFrom(...INT64_EDGES)),
    fc.boolean(),
  ).map(([n, hex]) => ({ yaml: hex && n >= 0n ? `0x${n.toString(16)}` : String(n), expected: n })));

const floatGen = fixed(
  simple(SimpleType.FLOAT),
  "float",
  "float",
  // Whole floats often: `1.0` must stay a float, never become the integer 1.
  () =>
    fc.oneof(fc.double(), fc.integer().map((n) => n * 1.0), fc.constantFrom(0, -0, 1, 2 ** 53, 1e21))
      .map((f) => ({ yaml: floatText(f), expected: f })),
);

const TRUE_WORDS = ["true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"];
const FALSE_WORDS = ["false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"];
const boolGen = fixed(
  simple(SimpleType.BOOLEAN),
  "bool",
  "bool",
  () => fc.tuple(fc.boolean(), fc.nat(8)).map(([b, i]) => ({ yaml: (b ? TRUE_WORDS : FALSE_WORDS)[i], expected: b })),
);

/** Words a string input keeps as written though YAML 1.1 reads them as other kinds. */
const PLAIN_WORDS = [
  "yes",
  "no",
  "on",
  "off",
  "y",
  "n",
  "true",
  "1.10",
  "0x1F",
  "12",
  "1e3",
  "2024-01-01",
  "0o17",
  ".inf",
];
const stringGen = fixed(
  simple(SimpleType.STRING),
  "string",
  "string",
  (inUnion) =>
    inUnion ? fc.string({ unit: "binary" }).map((s) => ({ yaml: quoted(s), expected: s })) : fc.oneof(
      fc.string({ unit: "binary" }).map((s) => ({ yaml: quoted(s), expected: s })),
      fc.constantFrom(...PLAIN_WORDS).map((w) => ({ yaml: w, expected: w })),
    ),
);

const noneGen = fixed(
  simple(SimpleType.NONE),
  "null",
  "null",
  () => fc.constantFrom("null", "~", "Null", "NULL").map((yaml) => ({ yaml, expected: null })),
);

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

const datetimeGen = fixed(simple(SimpleType.DATETIME), undefined, "string", () =>
  fc.record({
    date: fc.date({
      min: new Date("0001-01-01T00:00:00Z"),
      max: new Date("9999-12-31T23:59:59Z"),
      noInvalidDate: true,
    }),
    fraction: fc.stringMatching(/^\d{0,9}$/),
    offset: fc.option(fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 })),
  }).map(({ date, fraction, offset }) => {
    // The text shows the wall-clock time at `offset`; the instant is the same.
    const minutes = offset ?? 0;
    const wall = new Date(Math.floor(date.getTime() / 1000) * 1000 + minutes * 60_000);
    const ymd = `${pad(wall.getUTCFullYear(), 4)}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())}`;
    const hms = `${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}:${pad(wall.getUTCSeconds())}`;
    const zone = offset === null
      ? "Z"
      : `${minutes < 0 ? "-" : "+"}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
    const text = `${ymd}T${hms}${fraction ? `.${fraction}` : ""}${zone}`;
    return {
      yaml: quoted(text),
      expected: { seconds: BigInt(Math.floor(date.getTime() / 1000)), nanos: Number(fraction.padEnd(9, "0")) },
    };
  }).filter(({ yaml }) => !yaml.startsWith('"0000') && !yaml.startsWith('"1000')));

const durationGen = fixed(
  simple(SimpleType.DURATION),
  undefined,
  "string",
  () =>
    fc.tuple(fc.bigInt({ min: -((1n << 63n) - 1n), max: (1n << 63n) - 1n }), fc.boolean()).map(([nanos, inNs]) => {
      const sign = nanos < 0n ? "-" : "";
      const abs = nanos < 0n ? -nanos : nanos;
      const second = 1_000_000_000n;
      const text = inNs
        ? `${sign}${abs}ns`
        : `${sign}${abs / (3600n * second)}h${(abs / (60n * second)) % 60n}m${(abs / second) % 60n}.${
          String(abs % second).padStart(9, "0")
        }s`;
      return { yaml: text, expected: { durationNanos: nanos } };
    }),
);

/** Words no other kind reads: not booleans, nulls or float names in any YAML or Go form. */
const WORD = fc.stringMatching(/^[a-z]{3,8}$/).filter((w) =>
  !["true", "false", "yes", "off", "null", "nan", "inf", "infinity"].includes(w)
);

const enumGen: fc.Arbitrary<Gen> = fc.uniqueArray(WORD, { minLength: 1, maxLength: 5 }).map((values) =>
  fixed(
    enumOf(...values),
    undefined,
    "string",
    () => fc.constantFrom(...values).map((w) => ({ yaml: w, expected: w })),
  )
);

const blobGen = fixed(
  { type: { case: "blob", value: { format: "csv" } } },
  undefined,
  "string",
  () =>
    fc.tuple(fc.constantFrom("s3", "gs", "abfs"), WORD, WORD).map(([scheme, bucket, key]) => {
      const uri = `${scheme}://${bucket}/${key}.csv`;
      return { yaml: quoted(uri), expected: { uri } };
    }),
);

/** Plain data as a dataclass holds it: integers (int64), floats, booleans, null, strings, lists, mappings. */
const structData: fc.Arbitrary<Sample> = fc.letrec<{ value: Sample; map: Sample }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    integerGen.values(true),
    floatGen.values(true),
    boolGen.values(true),
    noneGen.values(true),
    stringGen.values(true),
    fc.array(tie("value"), { maxLength: 3 }).map((items) => ({
      yaml: `[${items.map((i) => i.yaml).join(", ")}]`,
      expected: items.map((i) => i.expected),
    })),
    tie("map"),
  ),
  map: fc.uniqueArray(fc.tuple(fc.string({ unit: "binary", maxLength: 8 }), tie("value")), {
    selector: ([key]) => key,
    maxLength: 3,
  }).map(mappingSample),
})).map;

function mappingSample(entries: [string, Sample][]): Sample {
  const expected: { [key: string]: Decoded } = {};
  for (const [key, sample] of entries) {
    Object.defineProperty(expected, key, { value: sample.expected, enumerable: true, writable: true });
  }
  return { yaml: `{${entries.map(([key, sample]) => `${quoted(key)}: ${sample.yaml}`).join(", ")}}`, expected };
}

const structGen = fixed(simple(SimpleType.STRUCT), undefined, "map", () => structData);

const LEAVES: fc.Arbitrary<Gen> = fc.oneof(
  fc.constantFrom(integerGen, floatGen, boolGen, stringGen, noneGen, datetimeGen, durationGen, blobGen, structGen),
  enumGen,
);

function listGen(inner: Gen): Gen {
  return fixed(
    collectionOf(inner.type),
    "list",
    "list",
    () =>
      fc.array(inner.values(false), { maxLength: 4 }).map((items) => ({
        yaml: `[${items.map((i) => i.yaml).join(", ")}]`,
        expected: items.map((i) => i.expected),
      })),
  );
}

function mapGen(inner: Gen): Gen {
  return fixed(
    mapOf(inner.type),
    "map",
    "map",
    () =>
      fc.uniqueArray(fc.tuple(fc.string({ unit: "binary", maxLength: 8 }), inner.values(false)), {
        selector: ([key]) => key,
        maxLength: 4,
      }).map(mappingSample),
  );
}

/**
 * A union whose values are those of `chosen`, beside variants of other kinds in any order: none of those can
 * take `chosen`'s values, so the variant the converter picks (its own kind's, or the only one that fits) is known.
 */
function unionGen(chosen: Gen, kinds: Kind[], position: number): Gen {
  const taken = chosen.natural ?? chosen.valueKind;
  const variants = kinds.filter((k) => k !== taken).map((k) => KIND_TYPES[k]);
  variants.splice(position % (variants.length + 1), 0, chosen.type);
  return {
    type: unionOf(...variants),
    valueKind: chosen.valueKind,
    union: true,
    values: () => chosen.values(true),
  };
}

function genArb(depth: number): fc.Arbitrary<Gen> {
  if (depth <= 0) return LEAVES;
  const inner = genArb(depth - 1);
  return fc.oneof(
    { weight: 3, arbitrary: LEAVES },
    inner.map(listGen),
    inner.map(mapGen),
    fc.tuple(inner.filter((g) => !g.union), fc.subarray(KINDS), fc.nat()).map(([chosen, kinds, position]) =>
      unionGen(chosen, kinds, position)
    ),
  );
}

/** Inputs of generated types with values of them: name, type, sample. */
const INPUTS = fc.array(genArb(2), { minLength: 1, maxLength: 4 }).chain((gens) =>
  fc.tuple(...gens.map((g) => g.values(false))).map((samples) =>
    samples.map((sample, i) => ({ name: `i${i}`, type: gens[i].type, sample }))
  )
);

Deno.test("property: spec file text → inputs → literals → values gives back the values written", async () => {
  await checkProperty(
    "executions: spec file inputs round-trip through literals",
    fc.asyncProperty(INPUTS, async (inputs) => {
      const text = ["task: t", "inputs:", ...inputs.map(({ name, sample }) => `  ${name}: ${sample.yaml}`)].join("\n");
      const spec = await parseExecutionSpec(text, "spec.yaml");
      const types: Record<string, LiteralType> = {};
      for (const { name, type } of inputs) types[name] = create(LiteralTypeSchema, type);
      const { literals } = inputLiterals(spec.inputs, types);
      for (const { name, sample } of inputs) {
        assertSameValue(decodeLiteral(literals[name]), sample.expected, `${name} of\n${text}`);
      }
    }),
    { numRuns: runs(400) },
  );
});

Deno.test("property: a value of another type is refused with one line naming the input, never thrown otherwise", async () => {
  await checkProperty(
    "executions: a wrong value is one LiteralValueError line",
    fc.asyncProperty(
      genArb(1),
      genArb(1).chain((source) => source.values(false)),
      async (target, sample) => {
        const spec = await parseExecutionSpec(`task: t\ninputs:\n  x: ${sample.yaml}\n`, "spec.yaml");
        try {
          inputLiterals(spec.inputs, { x: create(LiteralTypeSchema, target.type) });
        } catch (err) {
          ok(err instanceof LiteralValueError && err instanceof UsageError, String(err));
          ok(err.message.startsWith("inputs.x") && !err.message.includes("\n"), err.message);
          ok(err.message.length < 600, err.message);
        }
      },
    ),
    { numRuns: runs(400) },
  );
});
