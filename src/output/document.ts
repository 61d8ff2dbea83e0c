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
