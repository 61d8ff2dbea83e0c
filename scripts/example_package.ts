/**
 * Builds a small example Flyte package, laid out as `pyflyte package` lays one out: a `.tgz` of
 * `NN_<entity name>_<kind>.pb` files (1 = TaskSpec, 2 = WorkflowSpec, 3 = LaunchPlan) whose
 * identifiers carry the `{{ registration.* }}` placeholders that `register files` fills in.
 *
 * The package is a tiny weather report: fetch a reading, convert it (a cached task), summarize it,
 * wired by one workflow with a default launch plan.
 *
 * ```sh
 * deno run --allow-read --allow-write scripts/example_package.ts /tmp/weather.tgz
 * ```
 *
 * @module
 */
import { create, type MessageInitShape, toBinary } from "@bufbuild/protobuf";
import { createTarPacker } from "modern-tar";
import { dirname, join } from "node:path";
import { TaskSpecSchema } from "../proto/gen/flyteidl/admin/task_pb.ts";
import { WorkflowSpecSchema } from "../proto/gen/flyteidl/admin/workflow_pb.ts";
import { LaunchPlanSchema } from "../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import { type IdentifierSchema, ResourceType } from "../proto/gen/flyteidl/core/identifier_pb.ts";
import { SimpleType } from "../proto/gen/flyteidl/core/types_pb.ts";
import type { BindingSchema } from "../proto/gen/flyteidl/core/literals_pb.ts";
import type { VariableMapSchema } from "../proto/gen/flyteidl/core/interface_pb.ts";
import type { NodeSchema } from "../proto/gen/flyteidl/core/workflow_pb.ts";
import { RuntimeMetadata_RuntimeType } from "../proto/gen/flyteidl/core/tasks_pb.ts";

/** The Python module the example's tasks would live in. */
const MODULE = "example.weather";
const IMAGE = "ghcr.io/flyteorg/flytekit:py3.11-1.10.3";
const WORKFLOW = `${MODULE}.daily_report`;

type Init<S extends Parameters<typeof create>[0]> = MessageInitShape<S>;

/** An identifier as pyflyte serializes it: project, domain and version left for registration. */
function placeholderId(resourceType: ResourceType, name: string): Init<typeof IdentifierSchema> {
  return {
    resourceType,
    project: "{{ registration.project }}",
    domain: "{{ registration.domain }}",
    name,
    version: "{{ registration.version }}",
  };
}

/** Typed variables; pyflyte uses the variable name as its description. */
function variables(types: Record<string, SimpleType>): Init<typeof VariableMapSchema> {
  return {
    variables: Object.fromEntries(
      Object.entries(types).map((
        [name, simple],
      ) => [name, { type: { type: { case: "simple", value: simple } }, description: name }]),
    ),
  };
}

interface ExampleTask {
  /** Function name inside {@link MODULE}. */
  fn: string;
  description: string;
  inputs: Record<string, SimpleType>;
  outputs: Record<string, SimpleType>;
  /** Cache results under this version (flytekit's `@task(cache=True, cache_version=…)`). */
  cacheVersion?: string;
}

const TASKS: ExampleTask[] = [
  {
    fn: "fetch_reading",
    description: "Fetches the day's temperature reading for a city.",
    inputs: { city: SimpleType.STRING, day: SimpleType.INTEGER },
    outputs: { celsius: SimpleType.FLOAT, humid: SimpleType.BOOLEAN },
  },
  {
    fn: "to_fahrenheit",
    description: "Converts degrees Celsius to Fahrenheit (cached: same input, same output).",
    inputs: { celsius: SimpleType.FLOAT },
    outputs: { fahrenheit: SimpleType.FLOAT },
    cacheVersion: "1.0",
  },
  {
    fn: "summarize",
    description: "Writes a one-line weather report.",
    inputs: { city: SimpleType.STRING, fahrenheit: SimpleType.FLOAT, humid: SimpleType.BOOLEAN },
    outputs: { report: SimpleType.STRING },
  },
];

function taskSpec(task: ExampleTask): Uint8Array {
  const name = `${MODULE}.${task.fn}`;
  return toBinary(
    TaskSpecSchema,
    create(TaskSpecSchema, {
      template: {
        id: placeholderId(ResourceType.TASK, name),
        type: "python-task",
        metadata: {
          runtime: { type: RuntimeMetadata_RuntimeType.FLYTE_SDK, version: "1.10.3", flavor: "python" },
          retries: { retries: 2 },
          discoverable: task.cacheVersion !== undefined,
          discoveryVersion: task.cacheVersion ?? "",
        },
        interface: { inputs: variables(task.inputs), outputs: variables(task.outputs) },
        target: {
          case: "container",
          value: {
            image: IMAGE,
            // The entrypoint pyflyte writes; `{{.input}}` etc. are filled in by Flyte at run time.
            args: [
              ...["pyflyte-execute", "--inputs", "{{.input}}", "--output-prefix", "{{.outputPrefix}}"],
              ...["--raw-output-data-prefix", "{{.rawOutputDataPrefix}}"],
              ...["--resolver", "flytekit.core.python_auto_container.default_task_resolver"],
              ...["--", "task-module", MODULE, "task-name", task.fn],
            ],
          },
        },
      },
      description: { shortDescription: task.description },
    }),
  );
}

/** A binding of `input` to a workflow input (`start-node`) or another node's output. */
function bind(input: string, from: { node?: string; output: string }): Init<typeof BindingSchema> {
  return {
    var: input,
    binding: { value: { case: "promise", value: { nodeId: from.node ?? "start-node", var: from.output } } },
  };
}

function taskNode(id: string, fn: string, inputs: Init<typeof BindingSchema>[], upstream: string[]) {
  const node: Init<typeof NodeSchema> = {
    id,
    metadata: { name: fn, retries: {} },
    inputs,
    upstreamNodeIds: upstream,
    target: {
      case: "taskNode",
      value: { reference: { case: "referenceId", value: placeholderId(ResourceType.TASK, `${MODULE}.${fn}`) } },
    },
  };
  return node;
}

function workflowSpec(): Uint8Array {
  return toBinary(
    WorkflowSpecSchema,
    create(WorkflowSpecSchema, {
      template: {
        id: placeholderId(ResourceType.WORKFLOW, WORKFLOW),
        metadata: {},
        interface: {
          inputs: variables({ city: SimpleType.STRING, day: SimpleType.INTEGER }),
          outputs: variables({ report: SimpleType.STRING }),
        },
        nodes: [
          taskNode("n0", "fetch_reading", [bind("city", { output: "city" }), bind("day", { output: "day" })], []),
          taskNode("n1", "to_fahrenheit", [bind("celsius", { node: "n0", output: "celsius" })], ["n0"]),
          taskNode("n2", "summarize", [
            bind("city", { output: "city" }),
            bind("fahrenheit", { node: "n1", output: "fahrenheit" }),
            bind("humid", { node: "n0", output: "humid" }),
          ], ["n0", "n1"]),
        ],
        outputs: [bind("report", { node: "n2", output: "report" })],
        metadataDefaults: {},
      },
      description: { shortDescription: "Daily weather report for a city." },
    }),
  );
}

/** The default launch plan pyflyte creates for every workflow: same name, `city` defaults to Lisbon. */
function launchPlan(): Uint8Array {
  const cityVar = { type: { type: { case: "simple" as const, value: SimpleType.STRING } }, description: "city" };
  const dayVar = { type: { type: { case: "simple" as const, value: SimpleType.INTEGER } }, description: "day" };
  return toBinary(
    LaunchPlanSchema,
    create(LaunchPlanSchema, {
      id: placeholderId(ResourceType.LAUNCH_PLAN, WORKFLOW),
      spec: {
        workflowId: placeholderId(ResourceType.WORKFLOW, WORKFLOW),
        entityMetadata: {},
        defaultInputs: {
          parameters: {
            city: {
              var: cityVar,
              behavior: {
                case: "default",
                value: {
                  value: {
                    case: "scalar",
                    value: { value: { case: "primitive", value: { value: { case: "stringValue", value: "Lisbon" } } } },
                  },
                },
              },
            },
            day: { var: dayVar, behavior: { case: "required", value: true } },
          },
        },
        fixedInputs: {},
      },
    }),
  );
}

/** The package's files, in pyflyte's order (which is also a valid registration order). */
export function examplePackageFiles(): { name: string; bytes: Uint8Array }[] {
  const files = [
    ...TASKS.map((task) => ({ entity: `${MODULE}.${task.fn}`, kind: 1, bytes: taskSpec(task) })),
    { entity: WORKFLOW, kind: 2, bytes: workflowSpec() },
    { entity: WORKFLOW, kind: 3, bytes: launchPlan() },
  ];
  return files.map((f, i) => ({ name: `${String(i).padStart(2, "0")}_${f.entity}_${f.kind}.pb`, bytes: f.bytes }));
}

/** Writes the example package to `destPath` as a `.tgz`, atomically (temp file, then rename). */
export async function buildExamplePackage(destPath: string): Promise<void> {
  // Same directory as the destination, so the rename cannot cross file systems.
  const tempPath = join(dirname(destPath), `.${crypto.randomUUID()}.tgz.partial`);
  const { readable, controller } = createTarPacker();
  let written: Promise<void> | undefined;
  try {
    const out = await Deno.open(tempPath, { write: true, createNew: true });
    written = readable.pipeThrough(new CompressionStream("gzip")).pipeTo(out.writable);
    const mtime = new Date("2024-01-01T00:00:00Z"); // fixed, so the package is byte-for-byte reproducible
    for (const file of examplePackageFiles()) {
      const body = controller.add({ name: file.name, size: file.bytes.length, mode: 0o644, mtime });
      const writer = body.getWriter();
      await writer.write(file.bytes);
      await writer.close();
    }
    controller.finalize();
    await written;
    await Deno.rename(tempPath, destPath);
  } catch (err) {
    controller.error(err);
    await written?.catch(() => {});
    await Deno.remove(tempPath).catch(() => {});
    throw err;
  }
}

if (import.meta.main) {
  const [dest] = Deno.args;
  if (!dest) {
    console.error("usage: deno run --allow-read --allow-write scripts/example_package.ts DEST.tgz");
    Deno.exit(2);
  }
  await buildExamplePackage(dest);
  console.log(`wrote ${dest}`);
}
