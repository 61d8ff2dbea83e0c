/**
 * Input values to flyteidl literals, as `create execution` sends them, exactly: the input's type decides what a
 * value means (`yes` is "yes" to a string input, true to a boolean one), integers are range-checked int64
 * without passing through a float, datetimes and durations keep nanoseconds, unions pick the variant of the
 * value's own kind (its YAML kind; for a local path the caller found to be a directory or a file, a directory or
 * file blob) before trying the others in declared order, and dataclasses are real MessagePack. A blob given as a
 * local path is reported for upload, not uploaded; nothing here reads the filesystem. Every wrong value is a
 * {@link LiteralValueError} on one line naming the input (and where inside it: `inputs.xs[2]`), the value and
 * the type expected.
 *
 * @module
 */
import { create, type JsonObject, type MessageInitShape } from "@bufbuild/protobuf";
import { DurationSchema, TimestampSchema } from "@bufbuild/protobuf/wkt";
import {
  type Blob,
  BlobSchema,
  type Literal,
  LiteralSchema,
  type ScalarSchema,
} from "../../proto/gen/flyteidl/core/literals_pb.ts";
import { BlobType_BlobDimensionality, type LiteralType, SimpleType } from "../../proto/gen/flyteidl/core/types_pb.ts";
import { KeySuggester } from "../config/nearest.ts";
import { UsageError } from "../errors.ts";
import { excerpt } from "../output/printable.ts";
import { boolFromText, indexPath, type InputValue, keyPath, shownValue } from "./input_value.ts";
import { MSGPACK_TAG, msgpackBytes, structJson } from "./struct_value.ts";
import { durationParts, parseGoDurationNanos, parseRfc3339 } from "./time_text.ts";

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

/**
 * A value that does not fit its input's type (exit 2: nothing was attempted). The message is one line:
 * `inputs.xs[2]: "abc" is not an integer (…)`.
 *
 * ```ts
 * import { inputLiterals, LiteralValueError, readExecutionSpecFile } from "@fctl/fctl";
 * import type { LiteralType } from "@fctl/fctl/types";
 *
 * async function check(path: string, types: Record<string, LiteralType>) {
 *   const spec = await readExecutionSpecFile(path);
 *   try {
 *     inputLiterals(spec.inputs, types);
 *   } catch (err) {
 *     if (err instanceof LiteralValueError) console.error(`${path}: ${err.message}`); // names err.input
 *     else throw err;
 *   }
 * }
 * console.log(typeof check);
 * ```
 */
export class LiteralValueError extends UsageError {
  /** Where the bad value is: `inputs.xs[2]`. */
  readonly input: string;
  /** An error about the value at `input`; `message` is the whole line. */
  constructor(input: string, message: string) {
    super(`${input}: ${message}`);
    this.input = input;
  }
}

/**
 * How {@link inputLiterals} converts.
 *
 * ```ts
 * import type { LiteralOptions } from "@fctl/fctl";
 *
 * // What FLYTE_USE_OLD_DC_FORMAT=true asks of flytectl: dataclasses as protobuf Struct, not MessagePack.
 * const options: LiteralOptions = { oldDataclassFormat: true };
 * console.log(options);
 * ```
 */
export interface LiteralOptions {
  /**
   * Dataclasses (struct inputs given a mapping) as the old protobuf `Struct` (`generic`) instead of MessagePack;
   * flytectl's `FLYTE_USE_OLD_DC_FORMAT`. The caller reads the environment, the library never does.
   */
  oldDataclassFormat?: boolean;
  /** The prefix of input paths in messages (default `inputs`). */
  where?: string;
  /**
   * What each local path given to a union of file and directory blobs is (see {@link unionLocalPaths}), found by
   * the caller: such a union takes the directory (multipart) variant for a directory, the file (single) one for a
   * file. A path not in it (or a remote URI) keeps the declared order.
   */
  localPathKinds?: ReadonlyMap<string, LocalPathKind>;
}

/**
 * What a local path is, as {@link LiteralOptions.localPathKinds} tells it.
 *
 * ```ts
 * import type { LocalPathKind } from "@fctl/fctl";
 *
 * const kinds = new Map<string, LocalPathKind>([["./images", "directory"], ["./notes.txt", "file"]]);
 * console.log(kinds.get("./images")); // "directory"
 * ```
 */
export type LocalPathKind = "file" | "directory";

/**
 * A blob input given as a local file or directory: the caller uploads it (as fast registration uploads its
 * archive) and sets `blob.uri` to where it went before sending the literal.
 *
 * ```ts
 * import type { LocalBlob } from "@fctl/fctl";
 *
 * async function substitute(blobs: LocalBlob[], upload: (path: string) => Promise<string>) {
 *   for (const local of blobs) local.blob.uri = await upload(local.path);
 * }
 * console.log(typeof substitute);
 * ```
 */
export interface LocalBlob {
  /** Where the value is in the inputs: `inputs.files[0]`. */
  input: string;
  /** The local path as written (`file://` URIs made paths). */
  path: string;
  /** A single file, or a directory (multipart). */
  dimensionality: BlobType_BlobDimensionality;
  /** The literal's blob, whose `uri` still holds what was written. */
  blob: Blob;
}

/**
 * The inputs as literals, and the local blobs among them that need uploading.
 *
 * ```ts
 * import type { InputLiterals } from "@fctl/fctl";
 *
 * function describe(result: InputLiterals): string {
 *   return `${Object.keys(result.literals).length} inputs, ${result.localBlobs.length} to upload`;
 * }
 * console.log(typeof describe);
 * ```
 */
export interface InputLiterals {
  /** Input name → literal. */
  literals: Record<string, Literal>;
  /** Blobs given as local paths, in input order. */
  localBlobs: LocalBlob[];
}

/**
 * Converts every input against the entity's input types (`types`: a task's interface inputs, or a launch
 * plan's default inputs). A name that is not an input is an error naming the valid ones; inputs not given are
 * left to FlyteAdmin (defaults, or its `missing` error).
 *
 * ```ts
 * import { connect, getTask, inputLiterals, readExecutionSpecFile } from "@fctl/fctl";
 *
 * const spec = await readExecutionSpecFile("exec_spec.yaml");
 * await using flyte = await connect();
 * const result = await getTask(flyte.client, {
 *   project: "flytesnacks",
 *   domain: "development",
 *   name: spec.task ?? "core.basic.hello",
 *   latest: true,
 * });
 * if (result.kind === "one") {
 *   const variables = result.task.closure?.compiledTask?.template?.interface?.inputs?.variables ?? {};
 *   const types = Object.fromEntries(Object.entries(variables).map(([name, variable]) => [name, variable.type]));
 *   const { literals, localBlobs } = inputLiterals(spec.inputs, types);
 *   console.log(Object.keys(literals), localBlobs.map((blob) => blob.path)); // local files to upload first
 * }
 * ```
 */
export function inputLiterals(
  inputs: ReadonlyMap<string, InputValue>,
  types: Readonly<Record<string, LiteralType | undefined>>,
  options: LiteralOptions = {},
): InputLiterals {
  const where = options.where ?? "inputs";
  const converter = new LiteralConverter(options);
  const literals: Record<string, Literal> = {};
  const names = Object.keys(types).sort();
  for (const [name, value] of inputs) {
    const known = Object.hasOwn(types, name);
    const type = known ? types[name] : undefined;
    const path = keyPath(where, name);
    if (known && !type) throw new LiteralValueError(path, "its type is not set; nothing can be given for it");
    if (!type) {
      const valid = names.length > 0 ? `valid inputs: ${names.join(", ")}` : "it takes no inputs";
      const suggestion = new KeySuggester(names).didYouMean(name);
      throw new LiteralValueError(path, `no such input${suggestion}; ${valid}`);
    }
    Object.defineProperty(literals, name, {
      value: converter.convert(value, type, path),
      enumerable: true,
      writable: true,
    });
  }
  return { literals, localBlobs: converter.localBlobs };
}

/**
 * One value as a literal of `type`; `where` names it in errors (`inputs.n`). See {@link inputLiterals}.
 *
 * ```ts
 * import { inputValue, literalFor } from "@fctl/fctl";
 * import type { LiteralType } from "@fctl/fctl/types";
 *
 * function threeNumbers(listOfInt: LiteralType) {
 *   const { literal } = literalFor(inputValue([1, 2, 3]), listOfInt, "inputs.xs");
 *   return literal.value.case; // "collection"
 * }
 * console.log(typeof threeNumbers);
 * ```
 */
export function literalFor(
  value: InputValue,
  type: LiteralType,
  where: string,
  options: LiteralOptions = {},
): { literal: Literal; localBlobs: LocalBlob[] } {
  const converter = new LiteralConverter(options);
  return { literal: converter.convert(value, type, where), localBlobs: converter.localBlobs };
}

/**
 * The type as messages name it: `integer`, `list of string`, `mapping of string to float`, `enum [a, b]`.
 *
 * ```ts
 * import { literalTypeText } from "@fctl/fctl";
 * import type { Variable } from "@fctl/fctl/types";
 *
 * function describe(name: string, variable: Variable): string {
 *   return `${name}: ${literalTypeText(variable.type)}`; // e.g. "xs: list of integer"
 * }
 * console.log(typeof describe);
 * ```
 */
export function literalTypeText(type: LiteralType | undefined): string {
  const t = type?.type;
  switch (t?.case) {
    case "simple":
      return SIMPLE_NAMES[t.value] ?? `simple type ${t.value}`;
    case "blob":
      return t.value.dimensionality === BlobType_BlobDimensionality.MULTIPART ? "directory (blob)" : "file (blob)";
    case "schema":
      return "schema";
    case "structuredDatasetType":
      return "structured dataset";
    case "collectionType":
      return `list of ${literalTypeText(t.value)}`;
    case "mapValueType":
      return `mapping of string to ${literalTypeText(t.value)}`;
    case "enumType":
      return `enum [${t.value.values.join(", ")}]`;
    case "unionType":
      return `union [${t.value.variants.map(literalTypeText).join(", ")}]`;
    case undefined:
      return "untyped";
  }
}

const SIMPLE_NAMES: Readonly<Record<number, string>> = {
  [SimpleType.NONE]: "none",
  [SimpleType.INTEGER]: "integer",
  [SimpleType.FLOAT]: "float",
  [SimpleType.STRING]: "string",
  [SimpleType.BOOLEAN]: "boolean",
  [SimpleType.DATETIME]: "datetime",
  [SimpleType.DURATION]: "duration",
  [SimpleType.BINARY]: "binary",
  [SimpleType.ERROR]: "error",
  [SimpleType.STRUCT]: "struct",
};

/** What each simple type is given as, for "X is not Y (…)" messages. */
const EXPECTED: Readonly<Record<number, string>> = {
  [SimpleType.NONE]: "none (null)",
  [SimpleType.INTEGER]: `an integer (a whole number from ${INT64_MIN} to ${INT64_MAX})`,
  [SimpleType.FLOAT]: "a float (a number such as 1.5, -2e-3 or .inf)",
  [SimpleType.STRING]: "a string",
  [SimpleType.BOOLEAN]: "a boolean (true or false)",
  [SimpleType.DATETIME]: "a datetime (RFC 3339, e.g. 2024-03-04T05:06:07Z)",
  [SimpleType.DURATION]: "a duration (valid formats: e.g. 300ms, -1.5h, 2h45m)",
  [SimpleType.BINARY]: "binary ({value: [bytes] or base64 text, tag: msgpack})",
  [SimpleType.ERROR]: "an error ({failedNodeId: …, message: …} or a message)",
  [SimpleType.STRUCT]: "a struct (a mapping, or a JSON object as a string)",
};

type ScalarInit = NonNullable<MessageInitShape<typeof ScalarSchema>["value"]>;
type PrimitiveInit = Extract<ScalarInit, { case: "primitive" }>["value"];

function scalarLiteral(value: ScalarInit): Literal {
  return create(LiteralSchema, { value: { case: "scalar", value: { value } } });
}

function primitiveLiteral(value: NonNullable<NonNullable<PrimitiveInit>["value"]>): Literal {
  return scalarLiteral({ case: "primitive", value: { value } });
}

/** The variant of a union a value's own YAML kind asks for, before the others are tried in declared order. */
function isNaturalVariant(value: InputValue, type: LiteralType): boolean {
  const t = type.type;
  switch (value.kind) {
    case "list":
      return t.case === "collectionType";
    case "map":
      return t.case === "mapValueType";
  }
  if (t.case !== "simple") return false;
  const natural: Record<string, SimpleType> = {
    null: SimpleType.NONE,
    int: SimpleType.INTEGER,
    float: SimpleType.FLOAT,
    bool: SimpleType.BOOLEAN,
    string: SimpleType.STRING,
  };
  return natural[value.kind] === t.value;
}

/** Whether the variant is the blob a local path of that kind is: a directory's multipart, a file's single. */
function isBlobOfKind(type: LiteralType, kind: LocalPathKind | undefined): boolean {
  if (kind === undefined || type.type.case !== "blob") return false;
  const multipart = type.type.value.dimensionality === BlobType_BlobDimensionality.MULTIPART;
  return multipart === (kind === "directory");
}

/**
 * The local paths (as {@link LocalBlob.path} gives them) written where a union offers both a file and a directory
 * blob: what the caller looks at on disk, before converting, to tell {@link LiteralOptions.localPathKinds}. A value
 * that is not a local path, or sits where no such union is, is not listed.
 *
 * ```ts
 * import { inputLiterals, readExecutionSpecFile, unionLocalPaths } from "@fctl/fctl";
 * import type { LiteralType } from "@fctl/fctl/types";
 *
 * async function convert(path: string, types: Record<string, LiteralType>) {
 *   const spec = await readExecutionSpecFile(path);
 *   const kinds = new Map<string, "file" | "directory">();
 *   for (const local of unionLocalPaths(spec.inputs, types)) {
 *     const info = await Deno.stat(local).catch(() => undefined);
 *     if (info?.isDirectory) kinds.set(local, "directory");
 *     else if (info?.isFile) kinds.set(local, "file");
 *   }
 *   return inputLiterals(spec.inputs, types, { localPathKinds: kinds });
 * }
 * console.log(typeof convert);
 * ```
 */
export function unionLocalPaths(
  inputs: ReadonlyMap<string, InputValue>,
  types: Readonly<Record<string, LiteralType | undefined>>,
): string[] {
  const found = new Set<string>();
  const walk = (value: InputValue, type: LiteralType | undefined): void => {
    const t = type?.type;
    if (t?.case === "collectionType" && value.kind === "list") { for (const item of value.items) walk(item, t.value); }
    else if (t?.case === "mapValueType" && value.kind === "map") {
      for (const [, item] of value.entries) walk(item, t.value);
    } else if (t?.case === "unionType") {
      const dimensions = new Set(
        t.value.variants.flatMap((v) => v.type.case === "blob" ? [v.type.value.dimensionality] : []),
      );
      const local = value.kind === "string" ? localPath(value.text.trim()) : undefined;
      if (dimensions.size > 1 && local !== undefined && local !== "") found.add(local);
      // A variant may hold such a union deeper (a list of them).
      for (const variant of t.value.variants) walk(value, variant);
    }
  };
  for (const [name, value] of inputs) if (Object.hasOwn(types, name)) walk(value, types[name]);
  return [...found];
}

/** A URI with a scheme (`s3://…`, `gs://…`), as opposed to a local path. */
const REMOTE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

class LiteralConverter {
  readonly localBlobs: LocalBlob[] = [];
  constructor(readonly options: LiteralOptions) {}

  #fail(where: string, value: InputValue, expected: string): LiteralValueError {
    return new LiteralValueError(where, `${shownValue(value)} is not ${expected}`);
  }

  convert(value: InputValue, type: LiteralType, where: string): Literal {
    const t = type.type;
    switch (t.case) {
      case "simple":
        return this.simple(value, t.value, where);
      case "blob": {
        const uri = this.uri(value, where, `a ${literalTypeText(type)}: a URI or a local path`);
        const blob = create(BlobSchema, { uri, metadata: { type: t.value } });
        const local = localPath(uri);
        if (local !== undefined) {
          this.localBlobs.push({ input: where, path: local, dimensionality: t.value.dimensionality, blob });
        }
        return scalarLiteral({ case: "blob", value: blob });
      }
      case "schema": {
        const uri = this.uri(value, where, "a schema (a URI)");
        return scalarLiteral({ case: "schema", value: { uri, type: t.value } });
      }
      case "structuredDatasetType": {
        const uri = this.uri(value, where, "a structured dataset (a URI)");
        return scalarLiteral({
          case: "structuredDataset",
          value: { uri, metadata: { structuredDatasetType: t.value } },
        });
      }
      case "collectionType": {
        if (value.kind !== "list") throw this.#fail(where, value, `a ${literalTypeText(type)}`);
        const literals = value.items.map((item, i) => this.convert(item, t.value, indexPath(where, i)));
        return create(LiteralSchema, { value: { case: "collection", value: { literals } } });
      }
      case "mapValueType": {
        if (value.kind !== "map") throw this.#fail(where, value, `a ${literalTypeText(type)}`);
        const literals: Record<string, Literal> = {};
        for (const [key, item] of value.entries) {
          const literal = this.convert(item, t.value, keyPath(where, key));
          Object.defineProperty(literals, key, { value: literal, enumerable: true, writable: true });
        }
        return create(LiteralSchema, { value: { case: "map", value: { literals } } });
      }
      case "enumType": {
        // flytectl takes null (a key with nothing after it) as the enum's first value, as its exec files write it.
        if (value.kind === "null" && t.value.values.length > 0) {
          return primitiveLiteral({ case: "stringValue", value: t.value.values[0] });
        }
        const text = value.kind === "list" || value.kind === "map" || value.kind === "null" ? undefined : value.text;
        if (text === undefined || !t.value.values.includes(text)) {
          throw new LiteralValueError(
            where,
            `incorrect enum value ${shownValue(value)}, supported values [${t.value.values.join(", ")}]`,
          );
        }
        return primitiveLiteral({ case: "stringValue", value: text });
      }
      case "unionType": {
        const variants = t.value.variants;
        const pathKind = this.#localPathKind(value);
        const natural = (v: LiteralType) => isNaturalVariant(value, v) || isBlobOfKind(v, pathKind);
        const ordered = [...variants.filter(natural), ...variants.filter((v) => !natural(v))];
        for (const variant of ordered) {
          const blobsBefore = this.localBlobs.length;
          try {
            const literal = this.convert(value, variant, where);
            return scalarLiteral({ case: "union", value: { value: literal, type: variant } });
          } catch (err) {
            if (!(err instanceof LiteralValueError)) throw err;
            // A variant that failed half-way may have noted blobs of its own.
            this.localBlobs.length = blobsBefore;
          }
        }
        throw new LiteralValueError(
          where,
          `incorrect union value ${shownValue(value)}, supported values [${variants.map(literalTypeText).join(", ")}]`,
        );
      }
      case undefined:
        throw new LiteralValueError(where, "its type is not set; nothing can be given for it");
    }
  }

  /** What the value is on disk when it is a local path the caller looked at. */
  #localPathKind(value: InputValue): LocalPathKind | undefined {
    const kinds = this.options.localPathKinds;
    if (!kinds || kinds.size === 0 || value.kind !== "string") return undefined;
    const local = localPath(value.text.trim());
    return local === undefined ? undefined : kinds.get(local);
  }

  uri(value: InputValue, where: string, expected: string): string {
    if (value.kind === "string" || value.kind === "int" || value.kind === "float") {
      if (value.text.trim() !== "") return value.text.trim();
    }
    throw this.#fail(where, value, expected);
  }

  simple(value: InputValue, simple: SimpleType, where: string): Literal {
    const expected = EXPECTED[simple] ?? `a value of simple type ${simple}`;
    const fail = () => this.#fail(where, value, expected);
    const isScalar = value.kind !== "list" && value.kind !== "map";
    switch (simple) {
      case SimpleType.INTEGER: {
        const n = integerOf(value);
        if (n === undefined) throw fail();
        if (n < INT64_MIN || n > INT64_MAX) {
          throw new LiteralValueError(
            where,
            `${shownValue(value)} is out of range for an integer (from ${INT64_MIN} to ${INT64_MAX})`,
          );
        }
        return primitiveLiteral({ case: "integer", value: n });
      }
      case SimpleType.FLOAT: {
        const f = floatOf(value);
        if (f === undefined) throw fail();
        return primitiveLiteral({ case: "floatValue", value: f });
      }
      case SimpleType.STRING:
        // flytectl formats null as "" (REFERENCE 8.1): a key with nothing after it is an empty string.
        if (value.kind === "null") return primitiveLiteral({ case: "stringValue", value: "" });
        if (!isScalar) throw fail();
        return primitiveLiteral({ case: "stringValue", value: value.kind === "string" ? value.value : value.text });
      case SimpleType.BOOLEAN: {
        const b = value.kind === "bool"
          ? value.value
          : isScalar && value.kind !== "null"
          ? boolFromText(value.text)
          : undefined;
        if (b === undefined) throw fail();
        return primitiveLiteral({ case: "boolean", value: b });
      }
      case SimpleType.DATETIME: {
        const parsed = value.kind === "string" ? parseRfc3339(value.text.trim()) : undefined;
        if (!parsed) throw fail();
        return primitiveLiteral({ case: "datetime", value: create(TimestampSchema, parsed) });
      }
      case SimpleType.DURATION: {
        const nanos = isScalar && value.kind !== "null" ? parseGoDurationNanos(value.text.trim()) : undefined;
        if (nanos === undefined) throw fail();
        return primitiveLiteral({ case: "duration", value: create(DurationSchema, durationParts(nanos)) });
      }
      case SimpleType.NONE:
        if (value.kind !== "null") throw fail();
        return scalarLiteral({ case: "noneType", value: {} });
      case SimpleType.ERROR: {
        const error = errorOf(value);
        if (!error) throw fail();
        return scalarLiteral({ case: "error", value: error });
      }
      case SimpleType.BINARY: {
        const binary = binaryOf(value);
        if (!binary) throw fail();
        return scalarLiteral({ case: "binary", value: binary });
      }
      case SimpleType.STRUCT:
        return this.struct(value, where, fail);
      default:
        throw new LiteralValueError(
          where,
          `its simple type ${simple} is not one fctl knows; nothing can be given for it`,
        );
    }
  }

  struct(value: InputValue, where: string, fail: () => LiteralValueError): Literal {
    if (value.kind === "string") {
      // A JSON object as text is the old protobuf Struct, as flytectl reads it.
      let json: unknown;
      try {
        json = JSON.parse(value.value);
      } catch (err) {
        throw new LiteralValueError(
          where,
          `${shownValue(value)} is not a struct: not valid JSON (${excerpt((err as Error).message, 120)})`,
        );
      }
      if (json === null || typeof json !== "object" || Array.isArray(json)) throw fail();
      return scalarLiteral({ case: "generic", value: json as JsonObject });
    }
    if (value.kind !== "map") throw fail();
    if (this.options.oldDataclassFormat) {
      const converted = structJson(value);
      if ("problem" in converted) throw new LiteralValueError(where, converted.problem);
      return scalarLiteral({ case: "generic", value: converted.json as JsonObject });
    }
    return scalarLiteral({ case: "binary", value: { value: msgpackBytes(value), tag: MSGPACK_TAG } });
  }
}

/** The local path a blob URI names (`file://` or no scheme at all), or undefined for a remote one. */
function localPath(uri: string): string | undefined {
  if (uri.startsWith("file://")) {
    try {
      return decodeURIComponent(new URL(uri).pathname);
    } catch {
      return uri.slice("file://".length);
    }
  }
  return REMOTE.test(uri) ? undefined : uri;
}

/**
 * An integer from an int, a whole float written as one (`5.0`), base-10 text, or decimal text with an exponent that
 * is a whole number (`1e3`, `2.5E2`): flytectl reads those as the float they are and takes its whole value.
 */
function integerOf(value: InputValue): bigint | undefined {
  switch (value.kind) {
    case "int":
      return value.value;
    case "float":
    case "string":
      return wholeDecimal(value.text.trim());
    default:
      return undefined;
  }
}

/** The exponent past which a whole number is beyond int64 whatever its digits: its digits are not multiplied out. */
const EXPONENT_BEYOND_INT64 = 40;

/** Decimal text (`-12`, `5.0`, `2.5E2`) as the whole number it denotes, exactly; undefined if it is not one. */
function wholeDecimal(text: string): bigint | undefined {
  const parts = /^([-+]?)(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d+))?$/.exec(text);
  if (!parts || (parts[2] === "" && !parts[3])) return undefined;
  const [, sign, whole, fraction = "", exponentText = "0"] = parts;
  const digits = (whole + fraction).replace(/^0+(?=\d)/, "") || "0";
  const exponent = Number(exponentText) - fraction.length;
  const negative = sign === "-";
  if (/^0+$/.test(digits)) return 0n;
  if (exponent >= 0) {
    // Far past int64: the range check refuses it; its digits need not be made.
    if (exponent + digits.length > EXPONENT_BEYOND_INT64) return negative ? -(10n ** 40n) : 10n ** 40n;
    const n = BigInt(digits) * 10n ** BigInt(exponent);
    return negative ? -n : n;
  }
  // A negative exponent leaves a whole number only when the digits it drops are zeros.
  const dropped = -exponent;
  if (dropped > digits.length) return /^0*$/.test(digits) ? 0n : undefined;
  if (!/^0*$/.test(digits.slice(digits.length - dropped))) return undefined;
  const n = BigInt(digits.slice(0, digits.length - dropped) || "0");
  return negative ? -n : n;
}

const FLOAT_TEXT = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;
const SPECIAL_FLOATS: Readonly<Record<string, number>> = {
  inf: Infinity,
  "+inf": Infinity,
  "-inf": -Infinity,
  infinity: Infinity,
  "+infinity": Infinity,
  "-infinity": -Infinity,
  nan: NaN,
  ".inf": Infinity,
  "+.inf": Infinity,
  "-.inf": -Infinity,
  ".nan": NaN,
};

/** A float from an int, a float, or number text (Go's ParseFloat forms and YAML's `.inf`/`.nan`). */
function floatOf(value: InputValue): number | undefined {
  // A number written out (not `.inf`) beyond a float64 is refused, as Go's ParseFloat refuses it for flytectl, rather
  // than sent as infinity.
  const finite = (n: number) => (Number.isFinite(n) ? n : undefined);
  switch (value.kind) {
    case "int":
      return finite(Number(value.value));
    case "float":
      return FLOAT_TEXT.test(value.text.trim()) ? finite(value.value) : value.value;
    case "string": {
      const text = value.text.trim();
      if (FLOAT_TEXT.test(text)) return finite(Number(text));
      return SPECIAL_FLOATS[text.toLowerCase()];
    }
    default:
      return undefined;
  }
}

function errorOf(value: InputValue): { failedNodeId: string; message: string } | undefined {
  if (value.kind === "string") return { failedNodeId: "", message: value.value };
  if (value.kind !== "map") return undefined;
  const result = { failedNodeId: "", message: "" };
  for (const [key, item] of value.entries) {
    if (key !== "failedNodeId" && key !== "message") return undefined;
    if (item.kind === "list" || item.kind === "map") return undefined;
    result[key] = item.kind === "null" ? "" : item.kind === "string" ? item.value : item.text;
  }
  return result;
}

function binaryOf(value: InputValue): { value: Uint8Array; tag: string } | undefined {
  if (value.kind !== "map") return undefined;
  let bytes: Uint8Array | undefined = new Uint8Array();
  let tag = "";
  for (const [key, item] of value.entries) {
    if (key === "tag") {
      if (item.kind !== "string") return undefined;
      tag = item.value;
    } else if (key === "value") {
      bytes = bytesOf(item);
      if (!bytes) return undefined;
    } else {
      return undefined;
    }
  }
  return { value: bytes, tag };
}

function bytesOf(value: InputValue): Uint8Array | undefined {
  if (value.kind === "list") {
    const out = new Uint8Array(value.items.length);
    for (const [i, item] of value.items.entries()) {
      if (item.kind !== "int" || item.value < 0n || item.value > 255n) return undefined;
      out[i] = Number(item.value);
    }
    return out;
  }
  if (value.kind === "string") {
    try {
      return Uint8Array.from(atob(value.value.replace(/\s+/g, "")), (c) => c.charCodeAt(0));
    } catch {
      return undefined;
    }
  }
  return undefined;
}
