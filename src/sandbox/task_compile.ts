/**
 * What CreateTask refuses when it compiles a task (after ValidateTask and after the template takes the request's
 * identifier), as Flyte's task compiler does, with its words: a container task with inputs or outputs but neither
 * command nor args, a container without an image, a resource entry of any name whose value is not a Kubernetes
 * quantity, and a pod container whose name is not a DNS-1123 label. FlyteAdmin answers INVALID_ARGUMENT "task failed
 * compilation with " and the compiler's list of errors, each once, sorted.
 *
 * @module
 */
import { Code, ConnectError } from "@connectrpc/connect";
import type { TaskTemplate } from "../../proto/gen/flyteidl/core/tasks_pb.ts";
import type { VariableMap } from "../../proto/gen/flyteidl/core/interface_pb.ts";
import { parseQuantity } from "./k8s_quantity.ts";
import { resourceNameText } from "./task_validation.ts";

/** A Kubernetes DNS-1123 label: at most 63 characters, lower-case alphanumerics and '-', alphanumeric at both ends. */
const DNS_1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * Throws INVALID_ARGUMENT with the compiler's errors when `template` does not compile.
 *
 * ```ts
 * import { create } from "@bufbuild/protobuf";
 * import { TaskTemplateSchema } from "../../proto/gen/flyteidl/core/tasks_pb.ts";
 * import { compileTask } from "./task_compile.ts";
 *
 * const template = create(TaskTemplateSchema, { target: { case: "container", value: {} } });
 * try {
 *   compileTask(template);
 * } catch (err) {
 *   console.log((err as Error).message); // … Value required [image]. …
 * }
 * ```
 */
export function compileTask(template: TaskTemplate): void {
  const errors = new Set<string>();
  const collect = (code: string, nodeId: string, description: string) =>
    errors.add(`Code: ${code}, Node Id: ${nodeId}, Description: ${description}`);
  // The template always has an identifier here: CreateTask gives it the request's before compiling.
  const target = template.target;
  if (target.case === "container") {
    const container = target.value;
    const declares = (map: VariableMap | undefined) => Object.keys(map?.variables ?? {}).length > 0;
    const iface = template.interface;
    if (iface && (declares(iface.inputs) || declares(iface.outputs))) {
      if (container.command.length === 0 && container.args.length === 0) {
        collect("ValueRequired", "container", "Value required [command].");
      }
    }
    if (container.image === "") collect("ValueRequired", "container", "Value required [image].");
    for (const entry of [...container.resources?.requests ?? [], ...container.resources?.limits ?? []]) {
      try {
        parseQuantity(entry.value);
      } catch {
        collect(
          "UnrecognizedValue",
          `resources.${resourceNameText(entry.name)}`,
          `Unrecognized value [${entry.value}].`,
        );
      }
    }
  } else if (target.case === "k8sPod") {
    const containers = target.value.podSpec?.containers;
    for (const container of Array.isArray(containers) ? containers : []) {
      // Simplified: a name that is not a string is taken as no name (Kubernetes' decoder refuses it earlier).
      const name = typeof container === "object" && container !== null && !Array.isArray(container)
        ? container.name
        : undefined;
      const label = typeof name === "string" ? name : "";
      if (label.length > 63 || !DNS_1123_LABEL.test(label)) {
        collect("InvalidValue", "root", "Invalid value [k8s pod spec container name].");
      }
    }
  }
  if (errors.size === 0) return;
  const sorted = [...errors].sort();
  const listed = sorted.map((error, i) => `\tError ${i}: ${error}\n`).join("");
  throw new ConnectError(
    `task failed compilation with Collected Errors: ${sorted.length}\n${listed}`,
    Code.InvalidArgument,
  );
}
