/**
 * The task the benchmarks seed and create: `bench.module_<i % 50>.task_<i>` in `flytesnacks`/`development`,
 * with two inputs and one output, so that a table row has every column filled. Its own module, so that a
 * benchmark client can build it without loading the sandbox.
 *
 * @module
 */
import { ResourceType } from "../proto/gen/flyteidl/core/identifier_pb.ts";
import { SimpleType } from "../proto/gen/flyteidl/core/types_pb.ts";

/** What a seeded task's variables look like: a simple type and a description. */
function variable(type: SimpleType, description: string) {
  return { type: { type: { case: "simple" as const, value: type } }, description };
}

/** The `i`-th seeded task's create request: 50 modules, one version each. */
export function seededTask(i: number) {
  const id = {
    resourceType: ResourceType.TASK,
    project: "flytesnacks",
    domain: "development",
    name: `bench.module_${i % 50}.task_${i}`,
    version: `v${i}`,
  };
  return {
    id,
    spec: {
      template: {
        id,
        type: "python-task",
        metadata: { runtime: { version: "1.10.0", flavor: "python" } },
        interface: {
          inputs: {
            variables: {
              a: variable(SimpleType.INTEGER, "the first number to add together"),
              b: variable(SimpleType.INTEGER, "b"),
            },
          },
          outputs: { variables: { o0: variable(SimpleType.STRING, "o0") } },
        },
        target: {
          case: "container" as const,
          value: { image: "cr.flyte.org/flytekit:py3.11", args: ["pyflyte-execute"] },
        },
      },
    },
  };
}
