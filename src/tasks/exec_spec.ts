/**
 * Execution spec files (`get task NAME --execFile FILE`): the YAML document `create execution`
 * reads, with a default value for every input so the user only edits what matters.
 *
 * @module
 */
import type { Task } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import { type LiteralType, SimpleType } from "../../proto/gen/flyteidl/core/types_pb.ts";

/**
 * A value of the spec document; an integer beyond 2^53 is a `bigint` (written digit for digit).
 *
 * ```ts
 * import type { SpecValue } from "@fctl/fctl";
 *
 * const inputs: Record<string, SpecValue> = { name: "world", retries: 3, tags: ["a", "b"], options: { verbose: false } };
 * console.log(Object.keys(inputs));
 * ```
 */
export type SpecValue = null | boolean | number | bigint | string | SpecValue[] | { [key: string]: SpecValue };

/** Where blobs, schemas and structured datasets point until the user says otherwise (flytectl's placeholder). */
export const PLACEHOLDER_URI = "/tmp/somepath";

/** Why {@link PLACEHOLDER_URI} is refused as an input: a spec file run before its URIs were filled in. */
export const PLACEHOLDER_REFUSAL = "is the placeholder --execFile writes; give the input's remote URI " +
  "(s3://, gs://, abfs://, flyte://)";

/** The default input value flytectl writes for `type`; `now` is the datetime default. */
export function defaultValue(type: LiteralType | undefined, now: Date): SpecValue {
  const t = type?.type;
  switch (t?.case) {
    case "simple":
      return simpleDefault(t.value, now);
    case "blob":
    case "schema":
    // fctl: flytectl fails on structured datasets and writes `<nil>` for schemas; both take a URI like a blob.
    case "structuredDatasetType":
      return PLACEHOLDER_URI;
    case "collectionType":
      return [defaultValue(t.value, now)];
    case "mapValueType":
      return { itemKey: defaultValue(t.value, now) };
    case "enumType":
      return t.value.values[0] ?? "";
    case "unionType":
      return t.value.variants.length > 0 ? defaultValue(t.value.variants[0], now) : null;
    case undefined:
      return null;
  }
}

function simpleDefault(simple: SimpleType, now: Date): SpecValue {
  switch (simple) {
    case SimpleType.NONE:
      return null;
    case SimpleType.INTEGER:
    case SimpleType.FLOAT:
      return 0;
    case SimpleType.STRING:
      return "";
    case SimpleType.BOOLEAN:
      return false;
    case SimpleType.DATETIME:
      return now.toISOString();
    case SimpleType.DURATION:
      return "1s";
    case SimpleType.BINARY:
      return { value: [], tag: "msgpack" };
    case SimpleType.ERROR:
      return { failedNodeId: "", message: "" };
    case SimpleType.STRUCT:
      return {};
    default:
      // A simple type newer than these protos: nothing sensible to guess, and the user must fill it in.
      return null;
  }
}

/**
 * The spec document in flytectl's key order, and the comment (description) of each input that has one.
 *
 * ```ts
 * import { connect, type ExecSpec, execSpec, getTask } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const result = await getTask(flyte.client, { project: "flytesnacks", domain: "development", name: "hello", latest: true });
 * if (result.kind === "one") {
 *   const spec: ExecSpec = execSpec(result.task, new Date());
 *   for (const [input, description] of spec.comments) console.log(`${input}: ${description}`);
 *   console.log(spec.document.inputs); // each input with its default value
 * }
 * ```
 */
export interface ExecSpec {
  /** The YAML document: inputs with their defaults, then the execution fields flytectl writes. */
  document: { [key: string]: SpecValue };
  /** Input name → its description, for inputs whose description differs from the name. */
  comments: Map<string, string>;
}

/**
 * Builds the spec of `task`: its inputs sorted by name, each with its default value.
 *
 * ```ts
 * import { connect, execSpec, getTask } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const result = await getTask(flyte.client, {
 *   project: "flytesnacks",
 *   domain: "development",
 *   name: "core.basic.hello",
 *   latest: true,
 * });
 * if (result.kind === "one") console.log(Object.keys(execSpec(result.task, new Date()).document));
 * ```
 */
export function execSpec(task: Task, now: Date): ExecSpec {
  const variables = task.closure?.compiledTask?.template?.interface?.inputs?.variables ?? {};
  const inputs: { [key: string]: SpecValue } = {};
  const comments = new Map<string, string>();
  for (const name of Object.keys(variables).sort()) {
    const variable = variables[name];
    inputs[name] = defaultValue(variable.type, now);
    if (variable.description && variable.description !== name) comments.set(name, variable.description);
  }
  return {
    document: {
      iamRoleARN: "",
      inputs,
      envs: {},
      kubeServiceAcct: "",
      targetDomain: "",
      targetProject: "",
      task: task.id?.name ?? "",
      version: task.id?.version ?? "",
    },
    comments,
  };
}

/**
 * The spec as YAML 1.1 (Go readers), descriptions as comments above their inputs.
 *
 * ```ts
 * import { connect, getTask, renderExecSpec } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const result = await getTask(flyte.client, {
 *   project: "flytesnacks",
 *   domain: "development",
 *   name: "core.basic.hello",
 *   latest: true,
 * });
 * if (result.kind === "one") await Deno.writeTextFile("exec_spec.yaml", await renderExecSpec(result.task, new Date()));
 * ```
 */
export function renderExecSpec(task: Task, now: Date): Promise<string> {
  return renderSpec(execSpec(task, now));
}

/**
 * Any execution spec (a task's, a launch plan's) as YAML 1.1 (Go readers), its comments above their inputs.
 *
 * ```ts
 * import { renderSpec } from "@fctl/fctl";
 *
 * const text = await renderSpec({ document: { inputs: { count: 0 } }, comments: new Map([["count", "how many"]]) });
 * console.log(text); // inputs:\n  # how many\n  count: 0
 * ```
 */
export async function renderSpec(spec: ExecSpec): Promise<string> {
  const { Document, isMap, isScalar } = await import("yaml");
  const doc = new Document(spec.document, { version: "1.1", aliasDuplicateObjects: false });
  const inputs = doc.get("inputs", true);
  if (isMap(inputs)) {
    for (const pair of inputs.items) {
      const comment = isScalar(pair.key) ? spec.comments.get(String(pair.key.value)) : undefined;
      // One `#` line per description line; YAML comments cannot hold line breaks.
      if (comment && isScalar(pair.key)) pair.key.commentBefore = comment.split(/\r?\n/).map((l) => ` ${l}`).join("\n");
    }
  }
  return doc.toString({ lineWidth: 0 });
}
