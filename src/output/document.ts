/**
 * JSON and YAML documents. YAML is written for YAML 1.1 readers (Go's yaml.v2, viper):
 * strings such as `yes`, `no`, `on` or `12:30` are quoted so they stay strings.
 *
 * @module
 */
import type { JsonValue } from "@bufbuild/protobuf";
import { stringify } from "yaml";

/** Pretty JSON followed by a newline. */
export function renderJson(value: JsonValue): string {
  return JSON.stringify(value, null, 2) + "\n";
}

/** Block YAML, YAML-1.1-safe, no anchors or aliases. */
export function renderYaml(value: JsonValue): string {
  return stringify(value, { version: "1.1", aliasDuplicateObjects: false, lineWidth: 0 });
}
