/**
 * A literal (a node's input or output) as a plain value to read: primitives as themselves, durations as Go prints
 * them (`1s`), times in RFC 3339, structs and MessagePack binaries as JSON, blobs, schemas and structured datasets
 * as their URIs, other binaries as base64 with their tag, collections and maps element by element.
 *
 * @module
 */
import type { JsonValue } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { Literal, LiteralMap, Primitive } from "../../proto/gen/flyteidl/core/literals_pb.ts";
import { decodeMsgpack } from "../get/msgpack_decode.ts";
import { durationText } from "./duration_text.ts";

/** Bytes as base64. */
function base64(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

/** An integer as a number while exact, else its digits. */
function integer(value: bigint): JsonValue {
  return Number.isSafeInteger(Number(value)) ? Number(value) : String(value);
}

function primitive(p: Primitive): JsonValue {
  const v = p.value;
  switch (v.case) {
    case "integer":
      return integer(v.value);
    case "floatValue":
    case "stringValue":
    case "boolean":
      return v.value;
    case "datetime":
      return timestampDate(v.value).toISOString();
    case "duration":
      return durationText(v.value);
    default:
      return null;
  }
}

/**
 * The plain value of `literal`: what `get execution --details` prints for an input or output.
 *
 * ```ts
 * import { literalDisplay } from "./literal_display.ts";
 *
 * console.log(literalDisplay(undefined)); // null
 * ```
 */
export function literalDisplay(literal: Literal | undefined): JsonValue {
  const v = literal?.value;
  switch (v?.case) {
    case "collection":
      return v.value.literals.map(literalDisplay);
    case "map":
      return literalMapDisplay(v.value);
    case "offloadedMetadata":
      return v.value.uri;
    case "scalar":
      break;
    default:
      return null;
  }
  const s = v.value.value;
  switch (s.case) {
    case "primitive":
      return primitive(s.value);
    case "blob":
    case "schema":
    case "structuredDataset":
      return s.value.uri;
    case "generic":
      // protobuf-es holds a Struct as its JSON object.
      return s.value as JsonValue;
    case "union":
      return literalDisplay(s.value.value);
    case "error":
      return { error: s.value.message, failedNodeId: s.value.failedNodeId };
    case "binary":
      if (s.value.tag === "msgpack") {
        try {
          return decodeMsgpack(s.value.value) as JsonValue;
        } catch {
          // Not one MessagePack value: shown as the bytes they are.
        }
      }
      return { value: base64(s.value.value), tag: s.value.tag };
    default:
      return null;
  }
}

/** Each literal of a map as its plain value, by name. */
export function literalMapDisplay(map: LiteralMap | undefined): { [name: string]: JsonValue } {
  return Object.fromEntries(Object.entries(map?.literals ?? {}).map(([name, l]) => [name, literalDisplay(l)]));
}
