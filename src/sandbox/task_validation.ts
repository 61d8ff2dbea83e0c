/**
 * What CreateTask refuses before it compiles a task, as FlyteAdmin's ValidateTask does and with its words: a spec
 * with a template, its type, metadata (a runtime with a version), its typed interface, a container's image and
 * resources, a k8s pod's pod spec and its containers' resources. The task type whitelist is not checked: the demo
 * cluster configures none.
 *
 * @module
 */
import { Code, ConnectError } from "@connectrpc/connect";
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import type { TaskSpec } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import {
  type Resources_ResourceEntry as ResourceEntry,
  Resources_ResourceName as ResourceName,
  type TaskTemplate,
} from "../../proto/gen/flyteidl/core/tasks_pb.ts";
import { identifierText } from "./identifiers.ts";
import {
  parseQuantity,
  type Quantity,
  QuantityError,
  quantityMilliValue,
  quantityString,
  quantityValue,
} from "./k8s_quantity.ts";

/** The platform's task resource limits, as Kubernetes quantities; a zero or absent one is no limit. */
export interface PlatformTaskLimits {
  cpu?: string;
  gpu?: string;
  memory?: string;
  ephemeralStorage?: string;
}

/**
 * The demo cluster's FlyteAdmin configuration (docker/sandbox-bundled/manifests/complete.yaml in Flyte's repository)
 * sets every `task_resources` limit to 0, which FlyteAdmin reads as no limit.
 */
export const DEMO_PLATFORM_TASK_LIMITS: PlatformTaskLimits = { cpu: "0", gpu: "0", memory: "0", ephemeralStorage: "0" };

const invalid = (message: string) => new ConnectError(message, Code.InvalidArgument);

/**
 * Checks a CreateTask request's spec as FlyteAdmin's ValidateTask does (after the identifier and the project, which
 * the store checks first) and returns it with its template; throws INVALID_ARGUMENT with FlyteAdmin's message.
 *
 * ```ts
 * import { validateTaskSpec } from "./task_validation.ts";
 *
 * try {
 *   validateTaskSpec(undefined);
 * } catch (err) {
 *   console.log((err as Error).message); // [invalid_argument] missing spec
 * }
 * ```
 */
export function validateTaskSpec(
  spec: TaskSpec | undefined,
  platformLimits: PlatformTaskLimits = DEMO_PLATFORM_TASK_LIMITS,
): TaskSpec & { template: TaskTemplate } {
  const template = spec?.template;
  if (!spec || !template) throw invalid("missing spec");
  if (template.type === "") throw invalid("missing type");
  if (!template.metadata) throw invalid("missing metadata");
  if (template.metadata.runtime && template.metadata.runtime.version === "") throw invalid("missing runtime version");
  if (!template.interface) throw invalid("missing typed interface");
  const limits = platformLimitMap(platformLimits);
  const taskId = template.id ? identifierText(template.id) : "<nil>";
  if (template.target.case === "container") {
    const container = template.target.value;
    if (container.image === "") throw invalid("missing image");
    if (container.resources) {
      const requests = entryQuantities(taskId, container.resources.requests);
      validateResource(taskId, requests, entryQuantities(taskId, container.resources.limits), limits);
    }
  } else if (template.target.case === "k8sPod") {
    const podSpec = template.target.value.podSpec;
    if (!podSpec) {
      throw invalid(
        "invalid TaskSpecification, pod tasks should specify their target as a K8sPod with a defined pod spec",
      );
    }
    for (const container of podContainers(podSpec)) {
      validateResource(taskId, container.requests, container.limits, limits);
    }
  }
  return spec as TaskSpec & { template: TaskTemplate };
}

/**
 * A resource name as Go's `%v` prints the enum: its name, or its number when it has none.
 *
 * ```ts
 * import { Resources_ResourceName } from "../../proto/gen/flyteidl/core/tasks_pb.ts";
 * import { resourceNameText } from "./task_validation.ts";
 *
 * console.log(resourceNameText(Resources_ResourceName.EPHEMERAL_STORAGE)); // EPHEMERAL_STORAGE
 * ```
 */
export const resourceNameText = (name: ResourceName): string => ResourceName[name] ?? String(name);
const nameOf = resourceNameText;

function platformLimitMap(limits: PlatformTaskLimits): Map<ResourceName, Quantity> {
  const map = new Map<ResourceName, Quantity>();
  const entries: [ResourceName, string | undefined][] = [
    [ResourceName.CPU, limits.cpu],
    [ResourceName.MEMORY, limits.memory],
    [ResourceName.GPU, limits.gpu],
    [ResourceName.EPHEMERAL_STORAGE, limits.ephemeralStorage],
  ];
  for (const [name, text] of entries) {
    if (text === undefined) continue;
    const quantity = parseQuantity(text);
    if (quantity.unscaled !== 0n) map.set(name, quantity);
  }
  return map;
}

/**
 * A container's resource entries as quantities, as FlyteAdmin's requestedResourcesToQuantity reads them: CPU,
 * memory, GPU (a whole number) and ephemeral storage, each once; other names are skipped unread.
 */
function entryQuantities(taskId: string, entries: ResourceEntry[]): Map<ResourceName, Quantity> {
  const quantities = new Map<ResourceName, Quantity>();
  for (const entry of entries) {
    switch (entry.name) {
      case ResourceName.CPU:
      case ResourceName.MEMORY:
      case ResourceName.GPU:
      case ResourceName.EPHEMERAL_STORAGE:
        break;
      default:
        continue;
    }
    if (quantities.has(entry.name)) {
      throw invalid(`can't specify ${nameOf(entry.name)} limit for task [${taskId}] multiple times`);
    }
    let quantity: Quantity;
    try {
      quantity = parseQuantity(entry.value);
    } catch (err) {
      if (!(err instanceof QuantityError)) throw err;
      // FlyteAdmin's words, except the web address of Kubernetes' page on resources they end with.
      throw invalid(
        `Parsing of ${nameOf(entry.name)} request failed for value ${entry.value} - reason  ${err.message}. ` +
          "Please follow K8s conventions for resources",
      );
    }
    quantities.set(entry.name, quantity);
    if (entry.name === ResourceName.GPU && quantityMilliValue(quantity) % 1000n !== 0n) {
      throw invalid(`gpu for [${taskId}] must be a whole number, got: ${entry.value} instead`);
    }
  }
  return quantities;
}

const PLATFORM_ADVICE = "Please contact Flyte Admins to change these limits or consult the configuration";

/**
 * FlyteAdmin's validateResource: each requested default against its limit and the platform's limits, compared on
 * `Value()` (rounded up to an integer). FlyteAdmin walks a Go map, so which of several faults it names varies; the
 * sandbox takes the requests in the order given.
 */
function validateResource(
  taskId: string,
  defaults: Map<ResourceName, Quantity>,
  limits: Map<ResourceName, Quantity>,
  platform: Map<ResourceName, Quantity>,
): void {
  for (const [name, requested] of defaults) {
    const limit = limits.get(name);
    const platformLimit = platform.get(name);
    const value = quantityValue(requested);
    switch (name) {
      case ResourceName.CPU:
      case ResourceName.EPHEMERAL_STORAGE:
      case ResourceName.MEMORY:
        if (limit && quantityValue(limit) < value) {
          throw invalid(
            `Requested ${nameOf(name)} default [${quantityString(requested)}] is greater than the limit ` +
              `[${quantityString(limit)}]. Please fix your configuration`,
          );
        }
        if (limit && platformLimit && quantityValue(limit) > quantityValue(platformLimit)) {
          throw invalid(
            `Requested ${nameOf(name)} limit [${quantityString(limit)}] is greater than current limit set in the ` +
              `platform configuration [${quantityString(platformLimit)}]. ${PLATFORM_ADVICE}`,
          );
        }
        break;
      case ResourceName.GPU:
        if (limit && quantityValue(limit) !== value) {
          throw invalid(
            `For extended resource 'gpu' the default value must equal the limit value for task [${taskId}]`,
          );
        }
        break;
      default:
        continue;
    }
    if (platformLimit && value > quantityValue(platformLimit)) {
      throw invalid(
        `Requested ${nameOf(name)} default [${quantityString(requested)}] is greater than current limit set in the ` +
          `platform configuration [${quantityString(platformLimit)}]. ${PLATFORM_ADVICE}`,
      );
    }
  }
}

interface PodContainerResources {
  requests: Map<ResourceName, Quantity>;
  limits: Map<ResourceName, Quantity>;
}

/**
 * The resources of a pod spec's containers, as FlyteAdmin reads them: the pod spec is decoded as a Kubernetes
 * PodSpec, whose failure (a quantity that does not parse, a field of the wrong JSON type) FlyteAdmin answers
 * INTERNAL with the decoder's words. Simplified: only `containers[].resources.{requests,limits}` are decoded.
 */
function podContainers(podSpec: JsonObject): PodContainerResources[] {
  const containers = podSpec.containers;
  if (containers === undefined || containers === null) return [];
  if (!Array.isArray(containers)) throw decodeError(containers, "PodSpec.containers", "[]v1.Container");
  return containers.map((container) => {
    if (container === null) return { requests: new Map(), limits: new Map() };
    if (!isObject(container)) throw decodeError(container, "PodSpec.containers", "v1.Container");
    const resources = container.resources;
    if (resources === undefined || resources === null) return { requests: new Map(), limits: new Map() };
    if (!isObject(resources)) {
      throw decodeError(resources, "PodSpec.containers.resources", "v1.ResourceRequirements");
    }
    return {
      requests: resourceList(resources.requests, "PodSpec.containers.resources.requests"),
      limits: resourceList(resources.limits, "PodSpec.containers.resources.limits"),
    };
  });
}

const isObject = (value: JsonValue): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Go's encoding/json words for a value of the wrong JSON type. */
function decodeError(value: JsonValue, field: string, goType: string): ConnectError {
  const kind = Array.isArray(value)
    ? "array"
    : typeof value === "object"
    ? "object"
    : typeof value === "boolean"
    ? "bool"
    : typeof value;
  return new ConnectError(
    `json: cannot unmarshal ${kind} into Go struct field ${field} of type ${goType}`,
    Code.Internal,
  );
}

/**
 * A Kubernetes ResourceList as FlyteAdmin maps it onto Flyte's resource names: `ephemeral-storage` is
 * EPHEMERAL_STORAGE, other names match case-insensitively (`cpu` is CPU), any other is UNKNOWN.
 */
function resourceList(list: JsonValue | undefined, field: string): Map<ResourceName, Quantity> {
  const quantities = new Map<ResourceName, Quantity>();
  if (list === undefined || list === null) return quantities;
  if (!isObject(list)) throw decodeError(list, field, "v1.ResourceList");
  for (const [key, value] of Object.entries(list)) {
    const upper = key === "ephemeral-storage" ? "EPHEMERAL_STORAGE" : key.toUpperCase();
    const known = (ResourceName as unknown as Record<string, number>)[upper];
    const name: ResourceName = typeof known === "number" ? known : ResourceName.UNKNOWN;
    quantities.set(name, podQuantity(value));
  }
  return quantities;
}

/** A quantity in a pod spec, decoded as Kubernetes decodes one from JSON: a string trimmed, a number as written. */
function podQuantity(value: JsonValue): Quantity {
  if (value === null) return { unscaled: 0n, exponent: 0, format: "DecimalSI", big: false };
  const text = typeof value === "string" ? value.trim() : JSON.stringify(value);
  try {
    return parseQuantity(text);
  } catch (err) {
    if (err instanceof QuantityError) throw new ConnectError(err.message, Code.Internal);
    throw err;
  }
}
