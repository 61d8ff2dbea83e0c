/**
 * A message in protobuf's compact text format, as Go's `String()` (and so `%v`) prints it in FlyteAdmin's and the
 * compiler's messages: `collection_type:{simple:INTEGER}`. Fields in declaration order, those at their defaults
 * left out, enums by name, map entries sorted by key. (Go adds a random second space now and then, so that nobody
 * depends on the text; that is not copied.)
 *
 * @module
 */
import type { DescField, DescMessage, Message } from "@bufbuild/protobuf";
import { ScalarType } from "@bufbuild/protobuf";

type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A string quoted as Go's text format quotes it. */
function quote(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char === '"' || char === "\\") out += `\\${char}`;
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += char;
  }
  return `${out}"`;
}

function scalarText(type: ScalarType, value: unknown): string {
  switch (type) {
    case ScalarType.STRING:
      return quote(String(value));
    case ScalarType.BYTES:
      return quote(new TextDecoder().decode(value as Uint8Array));
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      // Go's shortest 'g' form writes exponents with at least two digits.
      return String(value).replace(/e([+-])(\d)$/, "e$10$2");
    default:
      return String(value);
  }
}

/** Whether a proto3 scalar (or enum number) holds its default, which the text format leaves out. */
function isDefault(value: unknown): boolean {
  if (value instanceof Uint8Array) return value.length === 0;
  return value === undefined || value === "" || value === 0 || value === 0n || value === false;
}

/** google.protobuf.Value, which protobuf-es keeps as JSON, in Go's text form. */
function jsonValueText(value: JsonValue): string {
  if (value === null) return "null_value:NULL_VALUE";
  if (typeof value === "number") return `number_value:${scalarText(ScalarType.DOUBLE, value)}`;
  if (typeof value === "string") return `string_value:${quote(value)}`;
  if (typeof value === "boolean") return `bool_value:${value}`;
  if (Array.isArray(value)) return `list_value:{${value.map((item) => `values:{${jsonValueText(item)}}`).join(" ")}}`;
  return `struct_value:{${structText(value)}}`;
}

/** google.protobuf.Struct, which protobuf-es keeps as a JSON object, in Go's text form. */
function structText(object: { [key: string]: JsonValue }): string {
  return Object.keys(object).sort().map((key) => `fields:{key:${quote(key)} value:{${jsonValueText(object[key])}}}`)
    .join(" ");
}

/** A message-typed value: well-known types protobuf-es unwraps are written back as Go writes the messages. */
function messageText(desc: DescMessage, value: unknown): string {
  switch (desc.typeName) {
    case "google.protobuf.Struct":
      return structText(value as { [key: string]: JsonValue });
    case "google.protobuf.Value":
      return jsonValueText(value as JsonValue);
    case "google.protobuf.ListValue":
      return (value as JsonValue[]).map((item) => `values:{${jsonValueText(item)}}`).join(" ");
  }
  if (desc.typeName.startsWith("google.protobuf.") && desc.typeName.endsWith("Value") && typeof value !== "object") {
    const field = desc.fields[0];
    return field.fieldKind === "scalar" && !isDefault(value) ? `value:${scalarText(field.scalar, value)}` : "";
  }
  return goText(desc, value as Message);
}

function elementText(field: DescField, value: unknown): string {
  if (field.fieldKind === "list" || field.fieldKind === "map") {
    if (field.message) return `{${messageText(field.message, value)}}`;
    if (field.enum) return field.enum.value[value as number]?.name ?? String(value);
    return scalarText(field.scalar!, value);
  }
  return "";
}

function fieldText(field: DescField, value: unknown): string[] {
  switch (field.fieldKind) {
    case "scalar":
      return isDefault(value) && !field.oneof ? [] : [`${field.name}:${scalarText(field.scalar, value)}`];
    case "enum":
      if (isDefault(value) && !field.oneof) return [];
      return [`${field.name}:${field.enum.value[value as number]?.name ?? String(value)}`];
    case "message":
      return value === undefined ? [] : [`${field.name}:{${messageText(field.message, value)}}`];
    case "list":
      return (value as unknown[]).map((item) => `${field.name}:${elementText(field, item)}`);
    case "map": {
      const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
      const key = (text: string) => field.mapKey === ScalarType.STRING ? quote(text) : text;
      return entries.map(([k, v]) => `${field.name}:{key:${key(k)} value:${elementText(field, v)}}`);
    }
  }
}

/**
 * `message` (of type `desc`) as Go's `String()` writes it.
 *
 * ```ts
 * import { create } from "@bufbuild/protobuf";
 * import { LiteralTypeSchema, SimpleType } from "../../proto/gen/flyteidl/core/types_pb.ts";
 * import { goText } from "./go_text.ts";
 *
 * const list = create(LiteralTypeSchema, {
 *   type: { case: "collectionType", value: { type: { case: "simple", value: SimpleType.INTEGER } } },
 * });
 * console.log(goText(LiteralTypeSchema, list)); // collection_type:{simple:INTEGER}
 * ```
 */
export function goText<T extends Message>(desc: DescMessage, message: T): string {
  const record = message as unknown as Record<string, unknown>;
  const parts: string[] = [];
  for (const field of desc.fields) {
    let value: unknown;
    if (field.oneof) {
      const oneof = record[field.oneof.localName] as { case?: string; value?: unknown } | undefined;
      if (oneof?.case !== field.localName) continue;
      value = oneof.value;
    } else {
      value = record[field.localName];
    }
    parts.push(...fieldText(field, value));
  }
  return parts.join(" ");
}
