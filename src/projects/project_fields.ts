/**
 * The fields of a project a user writes: `--labels k=v,…` and a project file (YAML `id`, `name`, `description`,
 * `labels: {values: {…}}`, `state`, as flytectl's `--file` takes them), read exactly, each bad value one line.
 *
 * @module
 */
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

/** FlyteAdmin's limits on a project (its ValidateProject), which it refuses a RegisterProject for breaking. */
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
  if (project.name.length > PROJECT_NAME_MAX) {
    throw new UsageError(`project name of ${project.name.length} characters: at most ${PROJECT_NAME_MAX}`);
  }
  const description = project.description ?? "";
  if (description.length > PROJECT_DESCRIPTION_MAX) {
    throw new UsageError(`project description of ${description.length} characters: at most ${PROJECT_DESCRIPTION_MAX}`);
  }
}

/** `k=v,k2=v2` as labels; an empty text is no labels. */
export function parseLabels(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  if (text.trim() === "") return labels;
  for (const pair of text.split(",")) {
    const at = pair.indexOf("=");
    if (at <= 0) {
      throw new InvalidOptionError(
        `invalid value ${quote(text)} for --labels: ${quote(pair)} is not key=value (expected k=v,k2=v2)`,
        { option: "labels", value: text, expected: "key=value pairs separated by commas (k=v,k2=v2)" },
      );
    }
    labels[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return labels;
}

const FILE_KEYS = new Set(["id", "name", "description", "labels", "state"]);

/** Reads a project file: YAML with `id`, `name`, `description`, `labels: {values: {k: v}}` and `state` (0 or 1). */
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
    doc = yaml.parse(text, { version: "1.1" });
  } catch (err) {
    const why = err instanceof Error ? err.message.split("\n")[0] : String(err);
    throw new UsageError(`project file ${quote(path)} is not valid YAML: ${why}`);
  }
  const bad = (what: string) => new UsageError(`project file ${quote(path)}: ${what}`);
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) throw bad("expected a mapping of project fields");
  const fields: ProjectFields = {};
  for (const [key, value] of Object.entries(doc as Record<string, unknown>)) {
    if (!FILE_KEYS.has(key)) throw bad(`unknown key ${quote(key)} (expected id, name, description, labels, state)`);
    if (key === "labels") {
      const values = (value as { values?: unknown } | null)?.values;
      if (value === null || typeof value !== "object" || (values !== undefined && typeof values !== "object")) {
        throw bad("labels must be a mapping with a values mapping (labels: {values: {k: v}})");
      }
      fields.labels = Object.fromEntries(Object.entries(values ?? {}).map(([k, v]) => [k, String(v)]));
    } else if (key === "state") {
      if (value !== 0 && value !== 1) throw bad(`state ${quote(value)} is not 0 (active) or 1 (archived)`);
      fields.state = value;
    } else {
      if (typeof value !== "string") throw bad(`${key} must be a string, not ${quote(value)}`);
      fields[key as "id" | "name" | "description"] = value;
    }
  }
  return fields;
}
