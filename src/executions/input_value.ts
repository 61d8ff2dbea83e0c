/**
 * Input values as a spec file states them: each scalar keeps its YAML kind *and* the text the user wrote, so
 * that the input's type decides what the value means. `version: 1.10` is the string "1.10" to a string input
 * and 1.1 to a float one; `yes` is "yes" to a string input and true to a boolean one; integers are exact
 * (bigint), never rounded through a float.
 *
 * @module
 */
import { printable } from "../output/printable.ts";

/**
 * One input value: a scalar with its YAML 1.1 kind and its text, a list, or a mapping (keys in file order).
 * `text` is what the file says: the source of a plain scalar (`1.10`, `yes`, `0x1F`, `~`), the value of a
 * quoted or block one.
 *
 * ```ts
 * import type { InputValue } from "@fctl/fctl";
 *
 * const retries: InputValue = { kind: "int", value: 3n, text: "3" };
 * const tags: InputValue = { kind: "list", items: [{ kind: "string", value: "a", text: "a" }] };
 * console.log(retries.kind, tags.kind);
 * ```
 */
export type InputValue =
  | { kind: "null"; text: string }
  | { kind: "bool"; value: boolean; text: string }
  | { kind: "int"; value: bigint; text: string }
  | { kind: "float"; value: number; text: string }
  | { kind: "string"; value: string; text: string }
  | { kind: "list"; items: InputValue[] }
  | { kind: "map"; entries: Map<string, InputValue> };

/** The scalar kinds of {@link InputValue}. */
export type ScalarInputValue = Extract<InputValue, { text: string }>;

/**
 * An {@link InputValue} from a plain JavaScript value, for callers that build inputs in code rather than read a
 * spec file: `bigint` and whole numbers are integers, other numbers floats, objects mappings.
 *
 * ```ts
 * import { inputValue } from "@fctl/fctl";
 *
 * const value = inputValue({ name: "world", retries: 3, ratio: 0.5, big: 2n ** 62n, tags: ["a"], note: null });
 * console.log(value.kind); // "map"
 * ```
 */
export function inputValue(plain: unknown): InputValue {
  if (plain === null || plain === undefined) return { kind: "null", text: "null" };
  switch (typeof plain) {
    case "boolean":
      return { kind: "bool", value: plain, text: String(plain) };
    case "bigint":
      return { kind: "int", value: plain, text: String(plain) };
    case "number":
      return Number.isInteger(plain)
        ? { kind: "int", value: BigInt(plain), text: String(plain) }
        : { kind: "float", value: plain, text: String(plain) };
    case "string":
      return { kind: "string", value: plain, text: plain };
  }
  if (Array.isArray(plain)) return { kind: "list", items: plain.map(inputValue) };
  if (typeof plain === "object") {
    return { kind: "map", entries: new Map(Object.entries(plain).map(([k, v]) => [k, inputValue(v)])) };
  }
  throw new TypeError(`cannot use a ${typeof plain} as an input value`);
}

/** How much of a value an error line shows. */
const SHOWN_LENGTH = 80;

/**
 * `value` as an error line quotes it: a string quoted, other scalars as written, lists and mappings in flow
 * style; control characters escaped and at most 80 characters (cut with `…`).
 */
export function shownValue(value: InputValue): string {
  const parts: string[] = [];
  let length = 0;
  // Collections are written only as far as the line can show: a list of a million items costs no more.
  const add = (part: string) => {
    parts.push(part);
    length += part.length;
  };
  const walk = (v: InputValue) => {
    if (length > SHOWN_LENGTH * 2) return;
    switch (v.kind) {
      case "string":
        add(JSON.stringify(v.value.length > SHOWN_LENGTH * 2 ? v.value.slice(0, SHOWN_LENGTH * 2) : v.value));
        return;
      case "list":
        add("[");
        v.items.forEach((item, i) => {
          if (i > 0) add(", ");
          walk(item);
        });
        add("]");
        return;
      case "map": {
        add("{");
        let first = true;
        for (const [key, item] of v.entries) {
          if (!first) add(", ");
          first = false;
          add(`${key}: `);
          walk(item);
        }
        add("}");
        return;
      }
      case "null":
        add(v.text === "" ? "null" : v.text);
        return;
      default:
        add(v.text);
    }
  };
  walk(value);
  return printable(parts.join(""), SHOWN_LENGTH);
}

/** `where` extended by a list index: `inputs.xs[2]`. */
export function indexPath(where: string, index: number): string {
  return `${where}[${index}]`;
}

/** `where` extended by a mapping key: `inputs.m.key`, or `inputs.m["odd key"]` when the key is not a plain word. */
export function keyPath(where: string, key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key)
    ? `${where}.${key}`
    : `${where}[${printable(JSON.stringify(key), SHOWN_LENGTH)}]`;
}

const TRUE_TEXTS = new Set(["1", "t", "T", "TRUE", "true", "True"]);
const FALSE_TEXTS = new Set(["0", "f", "F", "FALSE", "false", "False"]);

/** A boolean from text as Go's `strconv.ParseBool` reads it (`1 t T TRUE true True`, and their false forms). */
export function boolFromText(text: string): boolean | undefined {
  if (TRUE_TEXTS.has(text)) return true;
  if (FALSE_TEXTS.has(text)) return false;
  return undefined;
}
