/**
 * Execution spec files (`create execution --execFile FILE`): the YAML document that `get task --execFile` and
 * `get launchplan --execFile` write, read back exactly. YAML 1.1 as flytectl reads it, but nothing is lost on
 * the way: integers stay exact (bigint), and every scalar keeps the text it was written as, so that
 * `version: 1.10` is the version "1.10" and `yes` is the string "yes" to a string input (see
 * {@link InputValue}). Keys are matched case-insensitively as flytectl does; a key fctl does not know is an
 * error rather than silently ignored, and so is a file naming both a task and a launch plan, or neither. The keys of
 * flytectl's spec struct that are flags (`execFile`, `dryRun`, `relaunch`, `recover`) are taken as flytectl takes
 * them: ignored, unless ignoring one would do what the file says not to (see `FLAG_ONLY`).
 *
 * @module
 */
import { fileErrorReason, isNotFound, quote, UsageError } from "../errors.ts";
import { readBoundedTextFile } from "../fs/read_bounded.ts";
import { KeySuggester } from "../config/nearest.ts";
import { nestingPosition, yamlNesting } from "../config/yaml_nesting.ts";
import { printable } from "../output/printable.ts";
import { boolFromText, indexPath, type InputValue, keyPath, type ScalarInputValue, shownValue } from "./input_value.ts";

/**
 * The keys a spec file may hold, as fctl spells them (a file may use any case).
 *
 * ```ts
 * import { EXEC_SPEC_KEYS } from "@fctl/fctl";
 *
 * console.log(EXEC_SPEC_KEYS.join(", ")); // task, workflow, inputs, envs, version, …
 * ```
 */
export const EXEC_SPEC_KEYS = [
  "task",
  "workflow",
  "inputs",
  "envs",
  "version",
  "targetProject",
  "targetDomain",
  "kubeServiceAcct",
  "iamRoleARN",
  "clusterPool",
  "targetExecutionCluster",
  "overwriteCache",
] as const;

/**
 * Keys of flytectl's spec struct (`ExecutionConfig`) that are flags only: a flytectl spec file may hold them, and
 * flytectl reads them and does nothing with them (the file read is the one `--execFile` names; `--dryRun`'s value,
 * given or not, replaces the file's; relaunch and recover are decided by the flags before the file is read). fctl
 * accepts them too, but where ignoring a value would do what the file says not to do, it refuses it: `dryRun:
 * true` without `--dryRun` (flytectl would create the execution) and a `relaunch` or `recover` id (flytectl would
 * run the file's task or launch plan instead).
 */
const FLAG_ONLY = ["execFile", "dryRun", "relaunch", "recover"] as const;

/**
 * The cap on a spec file's size (1 MiB): far above any real one. A FIFO or device is refused before a byte is read.
 *
 * ```ts
 * import { EXEC_SPEC_FILE_LIMIT, readExecutionSpecFile } from "@fctl/fctl";
 *
 * const spec = await readExecutionSpecFile("exec_spec.yaml", EXEC_SPEC_FILE_LIMIT / 4);
 * console.log(spec.task);
 * ```
 */
export const EXEC_SPEC_FILE_LIMIT = 1024 * 1024;

/** The most values (after aliases are expanded) and the deepest nesting a spec file may hold. */
const MAX_VALUES = 1_000_000;
const MAX_DEPTH = 64;

/**
 * A spec file as read: what to run, where, and with which inputs. Empty text (`iamRoleARN: ""`, as the
 * generated files have it) and null mean the key is not set.
 *
 * ```ts
 * import { type ExecutionSpec, readExecutionSpecFile } from "@fctl/fctl";
 *
 * const spec: ExecutionSpec = await readExecutionSpecFile("exec_spec.yaml");
 * console.log(spec.task ?? spec.workflow, spec.version ?? "(newest)", [...spec.inputs.keys()]);
 * ```
 */
export interface ExecutionSpec {
  /** The file's path as given, for messages. */
  file: string;
  /** The task to run (exactly one of `task` and `workflow` is set). */
  task?: string;
  /** The launch plan to run. */
  workflow?: string;
  /** The version of the task or launch plan; unset: the newest. */
  version?: string;
  /** The project the execution is created in. */
  targetProject?: string;
  /** The domain the execution is created in. */
  targetDomain?: string;
  /** The Kubernetes service account the execution runs as. */
  kubeServiceAcct?: string;
  /** The IAM role the execution assumes. */
  iamRoleARN?: string;
  /** The cluster pool to run in. */
  clusterPool?: string;
  /** The execution cluster label. */
  targetExecutionCluster?: string;
  /** `overwriteCache`: run even where cached outputs exist. */
  overwriteCache?: boolean;
  /** Input name → value, in file order; converted against the entity's types by `inputLiterals`. */
  inputs: Map<string, InputValue>;
  /** Environment variables of the execution, in file order. */
  envs: Map<string, string>;
  /**
   * flytectl's `dryRun` key, which flytectl ignores: `true` is refused by `createExecution` unless its own
   * `dryRun` is set too, so that a file asking for a dry run never creates an execution.
   */
  dryRun?: boolean;
}

/**
 * Reads the spec file at `path` (at most {@link EXEC_SPEC_FILE_LIMIT} bytes, a regular file) and parses it
 * with {@link parseExecutionSpec}. Every problem is a {@link UsageError} (exit 2: nothing was attempted) on one
 * line naming the file.
 *
 * ```ts
 * import { readExecutionSpecFile } from "@fctl/fctl";
 *
 * const spec = await readExecutionSpecFile("exec_spec.yaml");
 * for (const [name, value] of spec.inputs) console.log(name, value.kind);
 * ```
 */
export async function readExecutionSpecFile(path: string, limit = EXEC_SPEC_FILE_LIMIT): Promise<ExecutionSpec> {
  // The parser's module loads while the file is read, not after (parseExecutionSpec imports it again, loaded).
  import("yaml").catch(() => {});
  let text: string;
  try {
    text = await readBoundedTextFile(path, limit);
  } catch (err) {
    const reason = isNotFound(err) ? "no such file" : fileErrorReason(err);
    throw new UsageError(`cannot read exec file ${quote(path)}: ${reason}`);
  }
  return await parseExecutionSpec(text, path);
}

type YamlModule = typeof import("yaml");

/**
 * Parses the text of a spec file; `file` names it in errors. See {@link readExecutionSpecFile}.
 *
 * ```ts
 * import { parseExecutionSpec } from "@fctl/fctl";
 *
 * const spec = await parseExecutionSpec("task: hello\nversion: 1.10\ninputs:\n  name: yes\n", "spec.yaml");
 * console.log(spec.version); // "1.10"
 * console.log(spec.inputs.get("name")); // { kind: "bool", value: true, text: "yes" }: a string input reads "yes"
 * ```
 */
export async function parseExecutionSpec(text: string, file: string): Promise<ExecutionSpec> {
  const yaml = await import("yaml");
  const lineCounter = new yaml.LineCounter();
  const fail = (message: string) => new UsageError(`exec file ${quote(file)}: ${message}`);
  // YAML 1.1 as the Go reader; integers as bigint so that none passes through a float. The library's own
  // duplicate check is quadratic; the walk below does it in one pass.
  const doc = yaml.parseDocument(text, { version: "1.1", intAsBigInt: true, uniqueKeys: false, lineCounter });
  if (doc.errors.length > 0) {
    const [error] = doc.errors;
    // The parser's own words for this one tell a programmer to call another function.
    if (error.code === "MULTIPLE_DOCS") {
      const at = error.linePos?.[0];
      const where = at ? ` at line ${at.line}, column ${at.col}` : "";
      throw new UsageError(
        `exec file ${quote(file)} is not valid YAML: a second document starts${where}; an exec file is one document`,
      );
    }
    // Nesting past what the parser's recursion takes is reported as the stack overflow it is: said as what it means.
    const nesting = yamlNesting(error);
    if (nesting) {
      throw new UsageError(`exec file ${quote(file)} is not valid YAML: nested too deeply${nestingPosition(nesting)}`);
    }
    // The parser's message goes on to show the line itself: only its first line is kept.
    throw new UsageError(
      `exec file ${quote(file)} is not valid YAML: ${
        printable(doc.errors[0].message.split("\n")[0].replace(/:$/, ""), 200)
      }`,
    );
  }
  const reader = new ValueReader(yaml, doc, lineCounter, fail);
  const root = doc.contents === null ? { kind: "map" as const, entries: new Map() } : reader.read(doc.contents, "");
  if (root.kind !== "map") {
    throw fail(`must be a mapping of keys such as "task:" and "inputs:", got ${kindName(root)}`);
  }
  const spec: ExecutionSpec = { file, inputs: new Map(), envs: new Map() };
  const canonical = new Map(EXEC_SPEC_KEYS.map((key) => [key.toLowerCase(), key]));
  const seen = new Map<string, string>();
  for (const [written, value] of root.entries) {
    const key = canonical.get(written.toLowerCase());
    const flag = FLAG_ONLY.find((name) => name.toLowerCase() === written.toLowerCase());
    if (flag) {
      const earlier = seen.get(flag);
      if (earlier !== undefined) {
        throw fail(`keys ${shownText(earlier)} and ${shownText(written)} are the same key ${flag}`);
      }
      seen.set(flag, written);
      flagKey(spec, flag, value, written, fail);
      continue;
    }
    if (!key) {
      const suggestion = new KeySuggester(EXEC_SPEC_KEYS).didYouMean(written);
      throw fail(`unknown key ${shownText(written)}${suggestion}; valid keys: ${EXEC_SPEC_KEYS.join(", ")}`);
    }
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      throw fail(`keys ${shownText(earlier)} and ${shownText(written)} are the same key ${key}`);
    }
    seen.set(key, written);
    if (key === "inputs") spec.inputs = mappingOf(value, written, fail);
    else if (key === "envs") spec.envs = envsOf(value, written, fail);
    else if (key === "overwriteCache") spec.overwriteCache = booleanOf(value, written, fail);
    else spec[key] = textOf(value, written, fail);
  }
  if (!spec.task && !spec.workflow) {
    throw fail("either task or workflow name should be specified to launch an execution");
  }
  if (spec.task && spec.workflow) {
    throw fail(
      `either task or workflow name should be specified to launch an execution, not both ` +
        `(task ${shownText(spec.task)}, workflow ${shownText(spec.workflow)})`,
    );
  }
  return spec;
}

/**
 * A flag's key in the file (see {@link FLAG_ONLY}): checked as flytectl's reader types it, then ignored as flytectl
 * ignores it, or refused where ignoring it would run what the file says not to.
 */
function flagKey(
  spec: ExecutionSpec,
  flag: typeof FLAG_ONLY[number],
  value: InputValue,
  written: string,
  fail: (m: string) => Error,
): void {
  if (flag === "dryRun") {
    spec.dryRun = booleanOf(value, written, fail);
    return;
  }
  const text = textOf(value, written, fail);
  if (flag === "execFile" || text === undefined) return;
  throw fail(
    `${flag} ${shownText(text)} is not applied from an exec file (flytectl ignores it and runs the file's task or ` +
      `launch plan): pass --${flag} ${shownText(text)} instead, or remove the key`,
  );
}

/** Text from the file as a message quotes it: JSON-quoted, control characters escaped, at most 80 characters. */
function shownText(text: string): string {
  return printable(JSON.stringify(text), 80);
}

function kindName(value: InputValue): string {
  switch (value.kind) {
    case "list":
      return "a list";
    case "map":
      return "a mapping";
    case "null":
      return "null";
    default:
      return `${value.kind === "int" ? "an" : "a"} ${value.kind === "bool" ? "boolean" : value.kind} (${
        shownValue(value)
      })`;
  }
}

/** A text key's value: a scalar as written; null and "" mean unset. */
function textOf(value: InputValue, key: string, fail: (m: string) => Error): string | undefined {
  if (value.kind === "list" || value.kind === "map") throw fail(`${key} must be text, got ${kindName(value)}`);
  if (value.kind === "null") return undefined;
  return value.text === "" ? undefined : value.text;
}

function booleanOf(value: InputValue, key: string, fail: (m: string) => Error): boolean | undefined {
  if (value.kind === "null") return undefined;
  if (value.kind === "bool") return value.value;
  const parsed = value.kind === "list" || value.kind === "map" ? undefined : boolFromText(value.text);
  if (parsed === undefined) throw fail(`${key} must be true or false, got ${kindName(value)}`);
  return parsed;
}

function mappingOf(value: InputValue, key: string, fail: (m: string) => Error): Map<string, InputValue> {
  if (value.kind === "null") return new Map();
  if (value.kind !== "map") throw fail(`${key} must be a mapping of input names to values, got ${kindName(value)}`);
  return value.entries;
}

function envsOf(value: InputValue, key: string, fail: (m: string) => Error): Map<string, string> {
  const envs = new Map<string, string>();
  if (value.kind === "null") return envs;
  if (value.kind !== "map") throw fail(`${key} must be a mapping of names to values, got ${kindName(value)}`);
  for (const [name, item] of value.entries) {
    if (item.kind === "list" || item.kind === "map") {
      throw fail(`${keyPath(key, name)} must be text, got ${kindName(item)}`);
    }
    envs.set(name, item.kind === "null" ? "" : item.text);
  }
  return envs;
}

/** Turns the parsed YAML tree into {@link InputValue}s: aliases and merge keys resolved, duplicates refused. */
class ValueReader {
  #count = 0;
  readonly #anchored = new Map<unknown, { value: InputValue; size: number }>();
  constructor(
    readonly yaml: YamlModule,
    readonly doc: import("yaml").Document.Parsed,
    readonly lines: import("yaml").LineCounter,
    readonly fail: (message: string) => Error,
  ) {}

  /** Where `node` starts, for messages: ` (line 3)`. */
  #at(node: unknown): string {
    const offset = this.yaml.isNode(node) ? node.range?.[0] : undefined;
    return offset === undefined ? "" : ` (line ${this.lines.linePos(offset).line})`;
  }

  read(node: unknown, where: string, depth = 0): InputValue {
    const { yaml } = this;
    if (++this.#count > MAX_VALUES) throw this.#tooMany();
    if (depth > MAX_DEPTH) {
      throw this.fail(`${printable(where, 40) || "the document"} is nested deeper than ${MAX_DEPTH} levels`);
    }
    if (yaml.isAlias(node)) {
      const target = node.resolve(this.doc);
      if (!target) throw this.fail(`${where}: unknown alias *${node.source}${this.#at(node)}`);
      // Read once: each further alias of it counts its values without walking them again (a billion laughs
      // is refused at once, not after a million steps).
      const known = this.#anchored.get(target);
      if (known) {
        this.#count += known.size;
        if (this.#count > MAX_VALUES) throw this.#tooMany();
        return known.value;
      }
      return this.read(target, where, depth + 1);
    }
    if (yaml.isNode(node) && node.anchor) {
      const before = this.#count;
      const value = this.#readNode(node, where, depth);
      this.#anchored.set(node, { value, size: this.#count - before });
      return value;
    }
    return this.#readNode(node, where, depth);
  }

  #tooMany(): Error {
    return this.fail(`holds more than ${MAX_VALUES} values (with aliases expanded)`);
  }

  #readNode(node: unknown, where: string, depth: number): InputValue {
    const { yaml } = this;
    if (node === null || node === undefined) return { kind: "null", text: "" };
    if (yaml.isScalar(node)) return this.scalar(node);
    if (yaml.isSeq(node)) {
      return { kind: "list", items: node.items.map((item, i) => this.read(item, indexPath(where, i), depth + 1)) };
    }
    if (yaml.isMap(node)) return this.mapping(node, where, depth);
    throw this.fail(`${where || "the document"}: unexpected YAML node${this.#at(node)}`);
  }

  scalar(node: import("yaml").Scalar): ScalarInputValue {
    const v = node.value;
    // A plain scalar's own text (`1.10`, `yes`, `0x1F`); a quoted or block one's value.
    const text = node.type === "PLAIN" && typeof node.source === "string" ? node.source : stringOf(v);
    if (v === null || v === undefined) return { kind: "null", text };
    if (typeof v === "boolean") return { kind: "bool", value: v, text };
    if (typeof v === "bigint") return { kind: "int", value: v, text };
    if (typeof v === "number") return { kind: "float", value: v, text };
    // Strings, and YAML 1.1 timestamps and binaries, which the input's type reads from their text.
    return { kind: "string", value: typeof v === "string" ? v : text, text };
  }

  mapping(node: import("yaml").YAMLMap, where: string, depth: number): InputValue {
    const { yaml } = this;
    const entries = new Map<string, InputValue>();
    const merged: InputValue[] = [];
    for (const pair of node.items) {
      const key = pair.key;
      if (yaml.isScalar(key) && key.type === "PLAIN" && key.source === "<<") {
        // YAML 1.1 merge key (`<<: *defaults`), as the Go reader supports it.
        const source = this.read(pair.value, where, depth + 1);
        const sources = source.kind === "list" ? source.items : [source];
        for (const item of sources) {
          if (item.kind !== "map") {
            throw this.fail(`${where || "the document"}: a merge key (<<) takes mappings${this.#at(key)}`);
          }
          merged.push(item);
        }
        continue;
      }
      const keyValue = key === null ? { kind: "null" as const, text: "" } : this.read(key, where, depth + 1);
      if (keyValue.kind === "list" || keyValue.kind === "map") {
        throw this.fail(`${where || "the document"}: a key is ${kindName(keyValue)}, not text${this.#at(key)}`);
      }
      const name = keyValue.text;
      if (entries.has(name)) {
        throw this.fail(`key ${shownText(name)} appears twice in ${where || "the document"}${this.#at(key)}`);
      }
      entries.set(name, this.read(pair.value, keyPath(where, name).replace(/^\./, ""), depth + 1));
    }
    // Keys written in the mapping win over merged ones; among merged mappings the first wins.
    for (const source of merged) {
      if (source.kind !== "map") continue;
      for (const [name, value] of source.entries) if (!entries.has(name)) entries.set(name, value);
    }
    return { kind: "map", entries };
  }
}

function stringOf(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return btoa(String.fromCharCode(...value));
  return String(value);
}
