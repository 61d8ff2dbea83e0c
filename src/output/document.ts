/**
 * JSON and YAML documents. YAML is written for YAML 1.1 readers (Go's yaml.v2, viper):
 * strings such as `yes`, `no`, `on` or `12:30` are quoted so they stay strings.
 *
 * @module
 */
import type { JsonValue } from "@bufbuild/protobuf";
import { printableJson } from "./printable.ts";
import { emitYaml, type ImplicitTypes } from "./yaml.ts";

/**
 * Pretty JSON followed by a newline; the characters a terminal acts on that JSON leaves as they are (C1 controls,
 * bidirectional overrides) are `\u` escapes, the same value.
 */
export function renderJson(value: JsonValue): string {
  return printableJson(JSON.stringify(value, null, 2)) + "\n";
}

/**
 * `value` with every string, key and scalar as `shown` shows its text (a redacting sink hides secrets): what
 * is hidden is hidden inside the document, before it is written, so the document stays valid whatever the
 * secret. A number, boolean or null whose text `shown` changes becomes that text, a string; keys that `shown`
 * makes equal are numbered (`[redacted]`, `[redacted] 2`), as a document holds a key once. `shown` changes a text
 * only where it changes a part of it, as redaction does: so one call over every text joined tells whether any
 * changes, and the document, most often, is returned as it is.
 *
 * ```ts
 * import { shownDocument } from "./document.ts";
 *
 * const hide = (text: string) => text.replaceAll("s3cr3t", "[redacted]");
 * shownDocument({ key: "s3cr3t", pin: 1234 }, hide); // { key: "[redacted]", pin: 1234 }
 * ```
 */
export function shownDocument(value: JsonValue, shown: (text: string) => string): JsonValue {
  const texts: string[] = [];
  collectTexts(value, texts);
  // A thousand tasks hold some 50,000 texts: one call over their join costs a tenth of a call on each.
  const joined = texts.join("\0");
  return shown(joined) === joined ? value : shownValue(value, shown);
}

/** Every text of `value` (its strings, keys and scalars as text) pushed onto `texts`. */
function collectTexts(value: JsonValue, texts: string[]): void {
  if (value === null || typeof value !== "object") texts.push(String(value));
  else if (Array.isArray(value)) { for (const item of value) collectTexts(item, texts); }
  else {
    for (const [key, item] of Object.entries(value)) {
      texts.push(key);
      collectTexts(item as JsonValue, texts);
    }
  }
}

/** {@link shownDocument}'s walk: every text of `value` as `shown` shows it. */
function shownValue(value: JsonValue, shown: (text: string) => string): JsonValue {
  if (typeof value === "string") return shown(value);
  if (value === null || typeof value !== "object") {
    const text = String(value);
    const hidden = shown(text);
    return hidden === text ? value : hidden;
  }
  if (Array.isArray(value)) return value.map((item) => shownValue(item, shown));
  const entries = Object.entries(value);
  const taken = new Set(entries.map(([key]) => key));
  // Object.fromEntries, not assignment: a key such as `__proto__` (a label the admin sent) stays a key.
  return Object.fromEntries(entries.map(([key, item]) => {
    let name = shown(key);
    if (name !== key) {
      taken.delete(key);
      const hidden = name;
      for (let n = 2; taken.has(name); n++) name = `${hidden} ${n}`;
      taken.add(name);
    }
    return [name, shownValue(item as JsonValue, shown)];
  }));
}

/** The `yaml` library's options for fctl's YAML: version 1.1, no anchors or aliases, no folding. */
export const YAML_OPTIONS = { version: "1.1", aliasDuplicateObjects: false, lineWidth: 0 } as const;

/**
 * Block YAML, YAML-1.1-safe, no anchors or aliases. The YAML library (~60 ms) loads only when asked for;
 * it decides which plain strings need quotes, and writes what {@link emitYaml} leaves to it.
 */
export async function renderYaml(value: JsonValue): Promise<string> {
  const yaml = await import("yaml");
  return emitYaml(value, implicitTypes(yaml)) ?? yaml.stringify(value, YAML_OPTIONS);
}

/** The YAML 1.1 schema's tests for plain text that reads as another type than string, as one test. */
export function implicitTypes(yaml: typeof import("yaml")): ImplicitTypes {
  const schema = new yaml.Document(null, YAML_OPTIONS).schema;
  const tests = [...schema.tags, ...(schema.compat ?? [])]
    .filter((tag) => tag.default && tag.tag !== "tag:yaml.org,2002:str" && tag.test)
    .map((tag) => tag.test!);
  // One alternation runs as one scan instead of a dozen (the tests are anchored and flag-free today).
  if (tests.every((test) => test.flags === "")) {
    const any = new RegExp(tests.map((test) => `(?:${test.source})`).join("|"));
    return { test: (text) => any.test(text) };
  }
  return { test: (text) => tests.some((test) => test.test(text)) };
}
