import { deepEqual, equal, rejects } from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import { join } from "node:path";
import { UsageError } from "../errors.ts";
import { type Task, TaskSchema } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import { type LiteralType, LiteralTypeSchema, SimpleType } from "../../proto/gen/flyteidl/core/types_pb.ts";
import { renderExecSpec } from "../tasks/exec_spec.ts";
import { EXEC_SPEC_KEYS, parseExecutionSpec, readExecutionSpecFile } from "./spec_file.ts";
import { inputLiterals } from "./literals.ts";
import { assertSameValue, decodeLiteral } from "./_test_literal_decode.ts";
import { simple } from "../_test_literals.ts";

const NOW = new Date("2024-03-04T05:06:07.123Z");

/** Every input type `get task --execFile` writes a default for, and what that default converts to. */
const TYPES: [string, Parameters<typeof create<typeof LiteralTypeSchema>>[1], unknown][] = [
  ["a_integer", simple(SimpleType.INTEGER), 0n],
  ["b_float", simple(SimpleType.FLOAT), 0],
  ["c_string", simple(SimpleType.STRING), ""],
  ["d_boolean", simple(SimpleType.BOOLEAN), false],
  ["e_datetime", simple(SimpleType.DATETIME), { seconds: 1709528767n, nanos: 123_000_000 }],
  ["f_duration", simple(SimpleType.DURATION), { durationNanos: 1_000_000_000n }],
  ["g_none", simple(SimpleType.NONE), null],
  ["h_struct", simple(SimpleType.STRUCT), {}],
  ["i_binary", simple(SimpleType.BINARY), {}],
  ["j_error", simple(SimpleType.ERROR), { failedNodeId: "", message: "" }],
  ["k_blob", { type: { case: "blob", value: { format: "csv" } } }, { uri: "/tmp/somepath" }],
  ["l_schema", { type: { case: "schema", value: {} } }, { uri: "/tmp/somepath" }],
  ["m_structured_dataset", { type: { case: "structuredDatasetType", value: { format: "parquet" } } }, {
    uri: "/tmp/somepath",
  }],
  ["n_collection", { type: { case: "collectionType", value: simple(SimpleType.INTEGER) } }, [0n]],
  ["p_map", { type: { case: "mapValueType", value: simple(SimpleType.FLOAT) } }, { itemKey: 0 }],
  ["q_enum", { type: { case: "enumType", value: { values: ["red", "green"] } } }, "red"],
  [
    "r_union",
    { type: { case: "unionType", value: { variants: [simple(SimpleType.INTEGER), simple(SimpleType.STRING)] } } },
    0n,
  ],
];

function allTypes(): Record<string, LiteralType> {
  return Object.fromEntries(TYPES.map(([name, init]) => [name, create(LiteralTypeSchema, init)]));
}

function allTypesTask(): Task {
  const variables = Object.fromEntries(TYPES.map(([name, init]) => [name, { type: init, description: `${name} doc` }]));
  return create(TaskSchema, {
    id: { project: "flytesnacks", domain: "development", name: "core.types.all", version: "1.10" },
    closure: { compiledTask: { template: { type: "python-task", interface: { inputs: { variables } } } } },
  });
}

Deno.test("the spec get task --execFile writes reads back, and every default converts to a literal", async () => {
  const text = await renderExecSpec(allTypesTask(), NOW);
  const spec = await parseExecutionSpec(text, "spec.yaml");
  equal(spec.task, "core.types.all");
  equal(spec.version, "1.10");
  equal(spec.workflow, undefined);
  equal(spec.iamRoleARN, undefined);
  deepEqual([...spec.inputs.keys()], TYPES.map(([name]) => name));
  const { literals, localBlobs } = inputLiterals(spec.inputs, allTypes());
  for (const [name, , expected] of TYPES) {
    // The binary default `{value: [], tag: msgpack}` is empty bytes tagged msgpack: decoding them fails.
    if (name === "i_binary") {
      const scalar = literals[name].value.case === "scalar" ? literals[name].value.value.value : undefined;
      deepEqual(scalar?.case === "binary" ? [scalar.value.tag, scalar.value.value.length] : undefined, ["msgpack", 0]);
      continue;
    }
    assertSameValue(decodeLiteral(literals[name]), expected, name);
  }
  deepEqual(localBlobs.map((b) => [b.input, b.path]), [["inputs.k_blob", "/tmp/somepath"]]);
});

Deno.test("scalars keep the text they were written as: versions, yes/no words, big integers", async () => {
  const spec = await parseExecutionSpec(
    [
      "Task: hello",
      "VERSION: 1.10",
      "kubeserviceacct: 0x1F",
      "overwriteCache: yes",
      "envs:",
      "  A: 1.10",
      "  B: no",
      "  C:",
      "inputs:",
      "  big: 9223372036854775807",
      "  word: yes",
      "  n: 2",
    ].join("\n"),
    "spec.yaml",
  );
  equal(spec.task, "hello");
  equal(spec.version, "1.10");
  equal(spec.kubeServiceAcct, "0x1F");
  equal(spec.overwriteCache, true);
  deepEqual([...spec.envs], [["A", "1.10"], ["B", "no"], ["C", ""]]);
  deepEqual(spec.inputs.get("big"), { kind: "int", value: 9223372036854775807n, text: "9223372036854775807" });
  deepEqual(spec.inputs.get("word"), { kind: "bool", value: true, text: "yes" });
});

Deno.test("aliases and merge keys are resolved; keys written beat merged ones", async () => {
  const spec = await parseExecutionSpec(
    "workflow: lp\ninputs:\n  base: &b {x: 1, y: 2}\n  more:\n    <<: *b\n    y: 3\n  again: *b\n",
    "spec.yaml",
  );
  const more = spec.inputs.get("more");
  deepEqual(more?.kind === "map" ? [...more.entries.keys()] : [], ["y", "x"]);
  deepEqual(spec.inputs.get("again"), spec.inputs.get("base"));
});

async function refused(text: string, message: string) {
  await rejects(parseExecutionSpec(text, "spec.yaml"), (err: Error) => {
    equal(err instanceof UsageError, true);
    equal(err.message, message);
    return true;
  });
}

Deno.test("every bad spec file is one line naming the file and the key", async () => {
  await refused(
    "task: t\ntsk: x\n",
    `exec file "spec.yaml": unknown key "tsk"; did you mean "task"?; valid keys: ${EXEC_SPEC_KEYS.join(", ")}`,
  );
  await refused(
    "task: t\nfoo: x\n",
    `exec file "spec.yaml": unknown key "foo"; valid keys: ${EXEC_SPEC_KEYS.join(", ")}`,
  );
  await refused(
    "inputs: {}\n",
    'exec file "spec.yaml": either task or workflow name should be specified to launch an execution',
  );
  await refused(
    "task: ''\n",
    'exec file "spec.yaml": either task or workflow name should be specified to launch an execution',
  );
  await refused(
    "task: a\nworkflow: b\n",
    'exec file "spec.yaml": either task or workflow name should be specified to launch an execution, not both (task "a", workflow "b")',
  );
  await refused("task: a\nTask: b\n", 'exec file "spec.yaml": keys "task" and "Task" are the same key task');
  await refused(
    "- task\n",
    'exec file "spec.yaml": must be a mapping of keys such as "task:" and "inputs:", got a list',
  );
  await refused("task: [a]\n", 'exec file "spec.yaml": task must be text, got a list');
  await refused(
    "task: t\noverwriteCache: maybe\n",
    'exec file "spec.yaml": overwriteCache must be true or false, got a string ("maybe")',
  );
  await refused(
    "task: t\ninputs: [1]\n",
    'exec file "spec.yaml": inputs must be a mapping of input names to values, got a list',
  );
  await refused(
    "task: t\nenvs: x\n",
    'exec file "spec.yaml": envs must be a mapping of names to values, got a string ("x")',
  );
  await refused("task: t\nenvs:\n  A: {b: 1}\n", 'exec file "spec.yaml": envs.A must be text, got a mapping');
  await refused(
    "task: t\ninputs:\n  a: 1\n  a: 2\n",
    'exec file "spec.yaml": key "a" appears twice in inputs (line 4)',
  );
  await refused(
    "task: t\ninputs:\n  m: {[1]: 2}\n",
    'exec file "spec.yaml": inputs.m: a key is a list, not text (line 3)',
  );
  await refused(
    "task: t\ninputs:\n  m:\n    <<: 5\n",
    'exec file "spec.yaml": inputs.m: a merge key (<<) takes mappings (line 4)',
  );
  await refused(
    "task: [\n",
    'exec file "spec.yaml" is not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 1',
  );
  await refused(
    `task: t\ninputs:\n  x: ${"[".repeat(70)}${"]".repeat(70)}\n`,
    'exec file "spec.yaml": inputs.x[0][0][0][0][0][0][0][0][0][0][… is nested deeper than 64 levels',
  );
});

Deno.test("flytectl's flag keys: ignored as flytectl ignores them, a relaunch or recover id refused", async () => {
  // Any case, as flytectl's reader; dryRun is kept for createExecution to refuse `true` without --dryRun.
  const spec = await parseExecutionSpec(
    "task: t\nexecFile: other.yaml\nDryRun: true\nrelaunch: ''\nrecover:\n",
    "spec.yaml",
  );
  deepEqual([spec.task, spec.dryRun], ["t", true]);
  equal((await parseExecutionSpec("task: t\ndryRun: no\n", "spec.yaml")).dryRun, false);
  for (const flag of ["relaunch", "recover"]) {
    await refused(
      `task: t\n${flag}: f8a1b2c3d4\n`,
      `exec file "spec.yaml": ${flag} "f8a1b2c3d4" is not applied from an exec file (flytectl ignores it and runs ` +
        `the file's task or launch plan): pass --${flag} "f8a1b2c3d4" instead, or remove the key`,
    );
  }
  await refused(
    "task: t\ndryRun: maybe\n",
    'exec file "spec.yaml": dryRun must be true or false, got a string ("maybe")',
  );
  await refused("task: t\nexecFile: [a]\n", 'exec file "spec.yaml": execFile must be text, got a list');
  await refused(
    "task: t\ndryRun: true\nDRYRUN: true\n",
    'exec file "spec.yaml": keys "dryRun" and "DRYRUN" are the same key dryRun',
  );
  // A typo of a real key stays an error naming it and the key meant.
  await refused(
    "task: t\ninput:\n  x: 1\n",
    `exec file "spec.yaml": unknown key "input"; did you mean "inputs"?; valid keys: ${EXEC_SPEC_KEYS.join(", ")}`,
  );
});

Deno.test("keys and values in messages are quoted, escaped and cut", async () => {
  await refused(
    `task: t\n${"k".repeat(500)}: 1\n`,
    `exec file "spec.yaml": unknown key "${"k".repeat(78)}…; valid keys: ${EXEC_SPEC_KEYS.join(", ")}`,
  );
  await refused(
    'task: t\n"a\\u202eb": 1\n',
    `exec file "spec.yaml": unknown key "a\\u202eb"; valid keys: ${EXEC_SPEC_KEYS.join(", ")}`,
  );
  await refused(
    "|\n  task\n",
    'exec file "spec.yaml": must be a mapping of keys such as "task:" and "inputs:", got a string ("task\\n")',
  );
});

Deno.test("a billion laughs is refused, not expanded", async () => {
  const lines = ["task: t", "inputs:", "  a0: &a0 [x, x, x, x, x, x, x, x, x, x]"];
  for (let i = 1; i < 9; i++) lines.push(`  a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(", ")}]`);
  await refused(lines.join("\n"), 'exec file "spec.yaml": holds more than 1000000 values (with aliases expanded)');
});

Deno.test("the file is read bounded: missing, too large, a directory", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "spec.yaml");
    await rejects(readExecutionSpecFile(path), { message: `cannot read exec file "${path}": no such file` });
    await Deno.writeTextFile(path, `task: t\ninputs:\n  s: "${"x".repeat(2000)}"\n`);
    await rejects(readExecutionSpecFile(path, 1024), {
      message: `cannot read exec file "${path}": larger than the 1 KiB limit`,
    });
    equal((await readExecutionSpecFile(path)).task, "t");
    await rejects(readExecutionSpecFile(dir), {
      message: `cannot read exec file "${dir}": a directory, not a regular file`,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
