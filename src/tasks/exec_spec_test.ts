import { deepEqual, equal } from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import { parse } from "yaml";
import { type LiteralType, LiteralTypeSchema, SimpleType } from "../../proto/gen/flyteidl/core/types_pb.ts";
import { type Task, TaskSchema } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import { simple } from "../_test_literals.ts";
import { defaultValue, execSpec, renderExecSpec } from "./exec_spec.ts";

const NOW = new Date("2024-03-04T05:06:07.123Z");

/** One input of every flyteidl literal type, and the default flytectl writes for it. */
const CASES: [string, Parameters<typeof create<typeof LiteralTypeSchema>>[1], unknown][] = [
  ["a_integer", simple(SimpleType.INTEGER), 0],
  ["b_float", simple(SimpleType.FLOAT), 0],
  ["c_string", simple(SimpleType.STRING), ""],
  ["d_boolean", simple(SimpleType.BOOLEAN), false],
  ["e_datetime", simple(SimpleType.DATETIME), "2024-03-04T05:06:07.123Z"],
  ["f_duration", simple(SimpleType.DURATION), "1s"],
  ["g_none", simple(SimpleType.NONE), null],
  ["h_struct", simple(SimpleType.STRUCT), {}],
  ["i_binary", simple(SimpleType.BINARY), { value: [], tag: "msgpack" }],
  ["j_error", simple(SimpleType.ERROR), { failedNodeId: "", message: "" }],
  ["k_blob", { type: { case: "blob", value: { format: "csv" } } }, "/tmp/somepath"],
  ["l_schema", { type: { case: "schema", value: {} } }, "/tmp/somepath"],
  ["m_structured_dataset", { type: { case: "structuredDatasetType", value: { format: "parquet" } } }, "/tmp/somepath"],
  ["n_collection", { type: { case: "collectionType", value: simple(SimpleType.INTEGER) } }, [0]],
  [
    "o_nested",
    {
      type: {
        case: "collectionType",
        value: {
          type: { case: "mapValueType", value: { type: { case: "collectionType", value: simple(SimpleType.STRING) } } },
        },
      },
    },
    [{ itemKey: [""] }],
  ],
  ["p_map", { type: { case: "mapValueType", value: simple(SimpleType.FLOAT) } }, { itemKey: 0 }],
  ["q_enum", { type: { case: "enumType", value: { values: ["red", "green"] } } }, "red"],
  [
    "r_union",
    { type: { case: "unionType", value: { variants: [simple(SimpleType.INTEGER), simple(SimpleType.STRING)] } } },
    0,
  ],
  ["s_empty_union", { type: { case: "unionType", value: { variants: [] } } }, null],
  ["t_untyped", {}, null],
];

Deno.test("every literal type has flytectl's default", () => {
  for (const [name, init, expected] of CASES) {
    deepEqual(defaultValue(create(LiteralTypeSchema, init) as LiteralType, NOW), expected, name);
  }
});

/** A task with one input of each type; some descriptions differ from the name. */
function allTypesTask(): Task {
  const variables = Object.fromEntries(CASES.map(([name, init]) => [name, { type: init, description: name }]));
  variables["c_string"].description = "what to say";
  variables["q_enum"].description = "colour of the thing\nsecond line: yes";
  return create(TaskSchema, {
    id: { project: "flytesnacks", domain: "development", name: "core.types.all", version: "v3" },
    closure: { compiledTask: { template: { type: "python-task", interface: { inputs: { variables } } } } },
  });
}

Deno.test("the exec spec of a task with every input type matches the golden file", async () => {
  const text = await renderExecSpec(allTypesTask(), NOW);
  const path = new URL("../../tests/testdata/exec_spec_all_types.yaml", import.meta.url);
  if (Deno.env.get("FCTL_UPDATE_GOLDEN")) await Deno.writeTextFile(path, text);
  equal(text, await Deno.readTextFile(path));
});

Deno.test("the exec spec parses back (YAML 1.1) to exactly the document written", async () => {
  const text = await renderExecSpec(allTypesTask(), NOW);
  const spec = execSpec(allTypesTask(), NOW);
  deepEqual(parse(text, { version: "1.1" }), spec.document);
  deepEqual(Object.keys(spec.document), [
    "iamRoleARN",
    "inputs",
    "envs",
    "kubeServiceAcct",
    "targetDomain",
    "targetProject",
    "task",
    "version",
  ]);
  deepEqual(Object.keys(spec.document.inputs as object), CASES.map(([name]) => name).sort());
  deepEqual(spec.comments, new Map([["c_string", "what to say"], ["q_enum", "colour of the thing\nsecond line: yes"]]));
});

Deno.test("a task without inputs gets an empty inputs map", async () => {
  const task = create(TaskSchema, { id: { name: "t", version: "v" } });
  equal(
    await renderExecSpec(task, NOW),
    'iamRoleARN: ""\ninputs: {}\nenvs: {}\nkubeServiceAcct: ""\ntargetDomain: ""\ntargetProject: ""\ntask: t\nversion: v\n',
  );
});
