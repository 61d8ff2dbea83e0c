/**
 * The checks FlyteAdmin's validators share between entities: a literal map (a launch plan's fixed inputs, an
 * execution's inputs) and notifications (a launch plan's, an execution's). INVALID_ARGUMENT with FlyteAdmin's
 * messages; where FlyteAdmin would name whichever entry its map iteration meets first, the sandbox names the first
 * in name order.
 *
 * @module
 */
import { Code, ConnectError } from "@connectrpc/connect";
import type { Notification } from "../../proto/gen/flyteidl/admin/common_pb.ts";
import type { Literal } from "../../proto/gen/flyteidl/core/literals_pb.ts";
import { WorkflowExecution_Phase } from "../../proto/gen/flyteidl/core/execution_pb.ts";

/** INVALID_ARGUMENT with `message`. */
export function invalidArgument(message: string): ConnectError {
  return new ConnectError(message, Code.InvalidArgument);
}

/** FlyteAdmin's refusal of an input whose type the compiler infers none of (its ValidateLiteralType on a nil). */
export function invalidLiteralType(name: string): ConnectError {
  return invalidArgument(
    `Failed to validate literal type for [${name}] with err: got unknown literal type: [<nil>].\n` +
      "Suggested solution: Please update all your Flyte deployment images to the latest version and try again",
  );
}

/** Entries in name order: what the sandbox names first when FlyteAdmin's map order would decide. */
export function sortedEntries<T>(record: Readonly<Record<string, T>>): [string, T][] {
  return Object.entries(record).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
}

/** Every entry of a literal map has a name and a value (`field`: `fixed_inputs`, `inputs`). */
export function validateLiteralMap(literals: Readonly<Record<string, Literal>>, field: string): void {
  for (const [name, literal] of sortedEntries(literals)) {
    if (name === "") throw invalidArgument(`missing key in ${field}`);
    if (literal.value.case === undefined) throw invalidArgument(`missing valid literal in ${field} ${name}`);
  }
}

/** The execution phases a notification may name: the terminal ones. */
const TERMINAL_PHASES = new Set([
  WorkflowExecution_Phase.SUCCEEDED,
  WorkflowExecution_Phase.FAILED,
  WorkflowExecution_Phase.TIMED_OUT,
  WorkflowExecution_Phase.ABORTED,
]);

/** Each notification has a kind, recipients, and terminal phases only. */
export function validateNotifications(notifications: readonly Notification[]): void {
  for (const notification of notifications) {
    if (notification.type.case === undefined) throw invalidArgument("invalid value for notification type");
    const recipients = notification.type.value.recipientsEmail;
    if (recipients.length === 0) throw invalidArgument("missing recipients");
    if (recipients.some((recipient) => recipient.length === 0)) throw invalidArgument("missing recipient");
    if (notification.phases.some((phase) => !TERMINAL_PHASES.has(phase))) {
      throw invalidArgument("invalid value for phase");
    }
  }
}
