/**
 * JSON and YAML documents. YAML is written for YAML 1.1 readers (Go's yaml.v2, viper):
 * strings such as `yes`, `no`, `on` or `12:30` are quoted so they stay strings.
 *
 * @module
 */
import type { JsonValue } from "@bufbuild/protobuf";

/** Pretty JSON followed by a newline. */
export function renderJson(value: JsonValue): string {
  return JSON.stringify(value, null, 2) + "\n";
}

/** Block YAML, YAML-1.1-safe, no anchors or aliases. The YAML library (~60 ms) loads only when asked for. */
export async function renderYaml(value: JsonValue): Promise<string> {
  const { stringify } = await import("yaml");
  return stringify(value, { version: "1.1", aliasDuplicateObjects: false, lineWidth: 0 });
}
