/**
 * The ids flytepropeller gives the node executions it reports, which FlyteAdmin stores as they come: a node's unique
 * id is its parent's unique id, the parent's attempt and its own spec node id joined with `-` (a top-level node has
 * no parent: its spec node id), and an id longer than 20 characters is replaced by `f` and its 32-bit FNV-1a hash
 * in flytepropeller's base32 alphabet (`GenerateUniqueID`, `FixedLengthUniqueIDForParts`). A task attempt's name
 * (`taskExecutionName`), which names its pod and so the pod's log link, is the execution's name, the node's unique id
 * and the attempt joined the same way, hashed past 50 characters, then made a valid Kubernetes object name.
 *
 * @module
 */
import { base32 } from "./base32.ts";

/** The longest unique id flytepropeller keeps as it is. */
const MAX_UNIQUE_ID_LENGTH = 20;

/** The longest task execution name flytepropeller keeps as it is (`IDMaxLength`; the pod plugin sets no other). */
const MAX_TASK_EXECUTION_NAME_LENGTH = 50;

/** flytepropeller's base32 alphabet, written without padding. */
const PROPELLER_ALPHABET = "abcdefghijklmnopqrstuvwxyz123456";

/** The 32-bit FNV-1a hash of `text`'s UTF-8 bytes, big-endian, as Go's `hash/fnv` sums it. */
function fnv32a(text: string): Uint8Array {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, hash);
  return bytes;
}

/**
 * `parts` joined with `-` (an empty part adds nothing while nothing is written), or, when longer than `maxLength`,
 * `f` and the joined text's hash.
 */
export function fixedLengthUniqueId(parts: readonly string[], maxLength = MAX_UNIQUE_ID_LENGTH): string {
  let joined = "";
  for (const [i, part] of parts.entries()) {
    if (i > 0 && joined.length > 0) joined += "-";
    joined += part;
  }
  return joined.length <= maxLength ? joined : `f${base32(fnv32a(joined), PROPELLER_ALPHABET, false)}`;
}

/**
 * The unique id of node `nodeId` run below the node of unique id `parentId` in its attempt `attempt` (no parent: a
 * top-level node), as flytepropeller reports it.
 *
 * ```ts
 * import { uniqueNodeId } from "./node_execution_ids.ts";
 *
 * console.log(uniqueNodeId("b0", 0, "b0-n0")); // "b0-0-b0-n0"
 * console.log(uniqueNodeId(undefined, 0, "n1")); // "n1"
 * console.log(uniqueNodeId("n1-0-n1-n0", 0, "n1-n0-n0")); // "fb4uqydi": n1-0-n1-n0-0-n1-n0-n0 is 21 long
 * ```
 */
export function uniqueNodeId(parentId: string | undefined, attempt: number, nodeId: string): string {
  return parentId === undefined
    ? fixedLengthUniqueId(["", "", nodeId])
    : fixedLengthUniqueId([parentId, String(attempt), nodeId]);
}

/** A name Kubernetes takes as an object's name: lowercase DNS labels joined with dots, at most 253 long. */
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * `name` made a valid Kubernetes object name as flytepropeller makes a pod's (`ConvertToDNS1123SubdomainCompatibleString`):
 * a valid one kept, else camel case split with `-`, lowercased, characters other than `a-z0-9.-` dropped and leading
 * and trailing `.`/`-` trimmed. Names here are at most 50 long, so its shortening of names past 253 never applies.
 */
export function dns1123Name(name: string): string {
  if (name.length <= 253 && DNS1123_SUBDOMAIN.test(name)) return name;
  return name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase().replace(/[^-.a-z0-9]/g, "").replace(
    /^[.-]+|[.-]+$/g,
    "",
  );
}

/**
 * The name flytepropeller gives attempt `retryAttempt` of the task node of unique id `nodeId` in execution
 * `executionName`: the name of the pod it runs in, which its log links show.
 *
 * ```ts
 * import { taskExecutionName } from "./node_execution_ids.ts";
 *
 * console.log(taskExecutionName("abc", "n1", 1)); // "abc-n1-1"
 * console.log(taskExecutionName("a".repeat(46), "n1", 1)); // hashed: the joined name is 51 long
 * ```
 */
export function taskExecutionName(executionName: string, nodeId: string, retryAttempt: number): string {
  return dns1123Name(
    fixedLengthUniqueId([executionName, nodeId, String(retryAttempt)], MAX_TASK_EXECUTION_NAME_LENGTH),
  );
}
