/**
 * The checks FlyteAdmin's validators share between entities: a literal map (a launch plan's fixed inputs, an
 * execution's inputs, a datetime among them a valid Timestamp) and notifications (a launch plan's, an execution's). INVALID_ARGUMENT with FlyteAdmin's
 * messages; where FlyteAdmin would name whichever entry its map iteration meets first, the sandbox names the first
 * in name order.
 *
 * @module
 */
import { TimestampSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import type { Notification } from "../../proto/gen/flyteidl/admin/common_pb.ts";
import type { Literal } from "../../proto/gen/flyteidl/core/literals_pb.ts";
import { WorkflowExecution_Phase } from "../../proto/gen/flyteidl/core/execution_pb.ts";
import { goText } from "./go_text.ts";

/** INVALID_ARGUMENT with `message`. */
export function invalidArgument(message: string): ConnectError {
  return new ConnectError(message, Code.InvalidArgument);
}

/** What FlyteAdmin answers when its database refuses a query: UNKNOWN with Postgres's message. */
export function databaseError(message: string): ConnectError {
  return new ConnectError(`failed database operation with ${message}`, Code.Unknown);
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

/**
 * Every entry of a literal map has a name and a value (`field`: `fixed_inputs`, `inputs`), and a datetime is a valid
 * Timestamp. As FlyteAdmin's validateLiteralMap, the check ends at the first datetime, valid or not: the entries after
 * it are not looked at.
 */
export function validateLiteralMap(literals: Readonly<Record<string, Literal>>, field: string): void {
  for (const [name, literal] of sortedEntries(literals)) {
    if (name === "") throw invalidArgument(`missing key in ${field}`);
    if (literal.value.case === undefined) throw invalidArgument(`missing valid literal in ${field} ${name}`);
    const scalar = literal.value.case === "scalar" ? literal.value.value.value : undefined;
    if (scalar?.case === "primitive" && scalar.value.value.case === "datetime") return validateDatetime(literal);
  }
}

/** The range of a protobuf Timestamp (0001-01-01 to 9999-12-31), in seconds since the epoch. */
const MIN_TIMESTAMP_SECONDS = -62_135_596_800n;
const MAX_TIMESTAMP_SECONDS = 253_402_300_799n;

/**
 * A datetime (a launch plan's default, an entry of a literal map) is a valid Timestamp, as FlyteAdmin's ValidateDatetime checks it with Go's `CheckValid` (whose
 * words these are). A literal that is not a bare datetime (a union of one, say) has no Timestamp to Go: a nil one.
 */
export function validateDatetime(literal: Literal): void {
  const scalar = literal.value.case === "scalar" ? literal.value.value.value : undefined;
  const primitive = scalar?.case === "primitive" ? scalar.value.value : undefined;
  if (primitive?.case !== "datetime") throw invalidArgument("proto: invalid nil Timestamp");
  const timestamp = primitive.value;
  const text = goText(TimestampSchema, timestamp);
  if (timestamp.seconds < MIN_TIMESTAMP_SECONDS) throw invalidArgument(`proto: timestamp (${text}) before 0001-01-01`);
  if (timestamp.seconds > MAX_TIMESTAMP_SECONDS) throw invalidArgument(`proto: timestamp (${text}) after 9999-12-31`);
  if (timestamp.nanos < 0 || timestamp.nanos >= 1e9) {
    throw invalidArgument(`proto: timestamp (${text}) has out-of-range nanos`);
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
