/**
 * The fields of a project a user writes: `--labels k=v,…` and a project file (YAML `id`, `name`, `description`,
 * `labels: {values: {…}}`, `state`, as flytectl's `--file` takes them), read exactly, each bad value one line.
 *
 * @module
 */
import { nestingPosition, yamlNesting } from "../config/yaml_nesting.ts";
import { InvalidOptionError, quote, UsageError } from "../errors.ts";

/** What a user wrote about a project; an absent field is one they did not name. */
export interface ProjectFields {
  id?: string;
  name?: string;
  description?: string;
  labels?: Record<string, string>;
  /** 0 active, 1 archived (a file's `state`). */
  state?: number;
}

/** FlyteAdmin's limits on a project (its ValidateProject, in bytes), which it refuses a RegisterProject for breaking. */
const PROJECT_ID_MAX = 63;
const PROJECT_NAME_MAX = 64;
const PROJECT_DESCRIPTION_MAX = 300;

/**
 * What FlyteAdmin accepts as a project id: a DNS-1123 label (lowercase letters, digits and '-', starting and ending
 * with a letter or digit) of at most 63 characters. A project named otherwise can never be created.
 */
export function creatableProjectId(id: string): boolean {
  return id.length <= PROJECT_ID_MAX && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(id);
}

/**
 * Refuses, before any call, a project FlyteAdmin would refuse to create: an id that is not a DNS-1123 label of at
 * most 63 characters, a name over 64 characters, a description over 300 (a dry run included, which would
 * otherwise report a project the admin can never create).
 *
 * @throws {UsageError} naming the value and the rule
 */
export function checkNewProject(project: { id: string; name: string; description?: string }): void {
  if (!creatableProjectId(project.id)) {
    throw new UsageError(
      `invalid project id ${quote(project.id)}: a project id is lowercase letters, digits and '-', starting and ` +
        `ending with a letter or digit, at most ${PROJECT_ID_MAX} characters (an RFC 1123 label)`,
    );
  }
  checkProjectFields(project);
}

/**
 * Refuses, before any call, a name over 64 bytes or a description over 300, which FlyteAdmin refuses to create or
 * update a project with. FlyteAdmin counts bytes of UTF-8 (Go's len), so 40 letters é are 80, over the limit.
 *
 * @throws {UsageError} naming the field, its length and the limit
 */
export function checkProjectFields(fields: { name?: string; description?: string }): void {
  for (const [field, limit] of [["name", PROJECT_NAME_MAX], ["description", PROJECT_DESCRIPTION_MAX]] as const) {
    const text = fields[field] ?? "";
    const bytes = new TextEncoder().encode(text).length;
    if (bytes > limit) {
      const size = bytes === text.length ? `${bytes} characters` : `${bytes} bytes in UTF-8`;
      throw new UsageError(`project ${field} of ${size}: at most ${limit}`);
    }
  }
}

/** FlyteAdmin's limit on a project's labels, and Kubernetes' rules for a label key's name and for a value. */
const PROJECT_LABELS_MAX = 16;
const LABEL_NAME_MAX = 63;
const LABEL_PREFIX_MAX = 253;
const LABEL_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_KEY_RULE =
  "a label key is at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter " +
  "or digit, after an optional DNS subdomain and '/' (team, example.com/team)";
const LABEL_VALUE_RULE = "a label value is empty, or at most 63 letters, digits, '-', '_' or '.', starting and " +
  "ending with a letter or digit";

/** Whether `key` is a Kubernetes qualified name (an optional DNS subdomain and '/', then a name), as FlyteAdmin asks. */
function labelKeyValid(key: string): boolean {
  const parts = key.split("/");
  if (parts.length > 2) return false;
  const name = parts.at(-1)!;
  const prefix = parts.length === 2 ? parts[0] : undefined;
  if (prefix !== undefined && (prefix.length > LABEL_PREFIX_MAX || !DNS_SUBDOMAIN.test(prefix))) return false;
  return name.length <= LABEL_NAME_MAX && LABEL_NAME.test(name);
}

/**
 * Why FlyteAdmin would refuse these labels of a project (its validateLabels: at most 16, each key a Kubernetes
 * qualified name, each value a Kubernetes label value), or undefined when it takes them.
 */
export function labelsProblem(labels: Record<string, string>): string | undefined {
  const entries = Object.entries(labels);
  if (entries.length > PROJECT_LABELS_MAX) return `${entries.length} labels: at most ${PROJECT_LABELS_MAX}`;
  for (const [key, value] of entries) {
    if (!labelKeyValid(key)) return `${quote(key)} is not a label key: ${LABEL_KEY_RULE}`;
    if (value !== "" && (value.length > LABEL_NAME_MAX || !LABEL_NAME.test(value))) {
      return `the value ${quote(value)} of label ${quote(key)} is not a label value: ${LABEL_VALUE_RULE}`;
    }
  }
  return undefined;
}

/**
 * `k=v,k2=v2` as labels; an empty text is no labels. A pair that is not `k=v`, a key given twice, or labels
 * FlyteAdmin would refuse (see {@link labelsProblem}) is a usage error naming the value.
 */
export function parseLabels(text: string): Record<string, string> {
  const refuse = (why: string) =>
    new InvalidOptionError(`invalid value ${quote(text)} for --labels: ${why}`, {
      option: "labels",
      value: text,
      expected: "key=value pairs separated by commas (k=v,k2=v2), each a Kubernetes label key and value",
    });
  if (text.trim() === "") return {};
  // A map, not an object: a key such as "__proto__" is a key like any other, and refused as one.
  const pairs = new Map<string, string>();
  for (const pair of text.split(",")) {
    const at = pair.indexOf("=");
    if (at <= 0) throw refuse(`${quote(pair)} is not key=value (expected k=v,k2=v2)`);
    const key = pair.slice(0, at).trim();
    // The last of two would win silently, and the first be lost without a word.
    if (pairs.has(key)) throw refuse(`label ${quote(key)} is given twice`);
    pairs.set(key, pair.slice(at + 1).trim());
  }
  const labels = Object.fromEntries(pairs);
  const problem = labelsProblem(labels);
  if (problem) throw refuse(problem);
  return labels;
}

const FILE_KEYS = new Set(["id", "name", "description", "labels", "state"]);

/** What a YAML value is, for a refusal: a mapping, a list or a string. */
function kindOf(value: unknown): string {
  return Array.isArray(value) ? "a list" : value !== null && typeof value === "object" ? "a mapping" : "empty";
}

/**
 * Reads a project file: YAML with `id`, `name`, `description`, `labels: {values: {k: v}}` and `state` (0 or 1).
 * Every scalar is read as the text written (YAML's failsafe schema), as flytectl's Go structs of strings take it:
 * a label `n: yes` is `n=yes`, not `false=true`, and `v: 1.0` is `1.0`, not `1`.
 */
export async function readProjectFile(path: string, readTextFile: (path: string) => Promise<string>) {
  let text: string;
  try {
    text = await readTextFile(path);
  } catch (err) {
    throw new UsageError(`cannot read project file ${quote(path)}: ${err instanceof Error ? err.message : err}`);
  }
  const yaml = await import("yaml");
  let doc: unknown;
  try {
    doc = yaml.parse(text, { version: "1.1", schema: "failsafe" });
  } catch (err) {
    // A file nested thousands deep runs the parser, or the conversion to values, out of stack: said as nesting.
    const nesting = yamlNesting(err);
    const why = nesting ? `nested too deeply${nestingPosition(nesting)}` : err instanceof Error
      // The parser's message goes on to show the line itself: only its first line is kept, without its colon.
      ? err.message.split("\n")[0].replace(/:$/, "")
      : String(err);
    throw new UsageError(`project file ${quote(path)} is not valid YAML: ${why}`);
  }
  const bad = (what: string) => new UsageError(`project file ${quote(path)}: ${what}`);
  if (doc === null || doc === undefined) throw bad("it is empty (expected id, name, description, labels, state)");
  if (typeof doc !== "object" || Array.isArray(doc)) throw bad("expected a mapping of project fields");
  const fields: ProjectFields = {};
  for (const [key, value] of Object.entries(doc as Record<string, unknown>)) {
    if (!FILE_KEYS.has(key)) throw bad(`unknown key ${quote(key)} (expected id, name, description, labels, state)`);
    if (key === "labels") {
      // `labels:` with nothing after it names no labels.
      if (value !== "") fields.labels = fileLabels(value, bad);
    } else if (key === "state") {
      if (value !== "0" && value !== "1") {
        throw bad(
          `state ${typeof value === "string" ? quote(value) : kindOf(value)} is not 0 (active) or 1 (archived)`,
        );
      }
      fields.state = Number(value);
    } else {
      if (typeof value !== "string") throw bad(`${key} must be a string, not ${kindOf(value)}`);
      fields[key as "id" | "name" | "description"] = value;
    }
  }
  return fields;
}

/** A project file's `labels: {values: {k: v}}`, every value a string and the labels ones FlyteAdmin takes. */
function fileLabels(value: unknown, bad: (what: string) => UsageError): Record<string, string> {
  const shape = "labels are written labels: {values: {k: v}}";
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw bad(`labels is ${kindOf(value)}: ${shape}`);
  }
  // A key beside `values` (a label written one level too high) would otherwise be dropped without a word.
  const other = Object.keys(value).find((key) => key !== "values");
  if (other !== undefined) throw bad(`labels has a key ${quote(other)}: ${shape}`);
  const values = (value as { values?: unknown }).values ?? "";
  if (values === "") return {};
  if (typeof values !== "object" || Array.isArray(values)) throw bad(`labels.values is ${kindOf(values)}: ${shape}`);
  const labels: Record<string, string> = {};
  for (const [key, label] of Object.entries(values)) {
    if (typeof label !== "string") throw bad(`the value of label ${quote(key)} is not a string`);
    Object.defineProperty(labels, key, { value: label, enumerable: true, writable: true, configurable: true });
  }
  const problem = labelsProblem(labels);
  if (problem) throw bad(problem);
  return labels;
}
