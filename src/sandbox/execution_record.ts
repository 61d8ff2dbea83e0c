/**
 * One execution as the sandbox keeps it (its request, what it launched, how it runs, what was done to it), and what
 * the execution RPCs and the node and task execution reads share of it: its key, the checks and NOT_FOUND text of
 * its identifiers, where its data lives and its outputs.
 *
 * @module
 */
import { create } from "@bufbuild/protobuf";
import type { Notification } from "../../proto/gen/flyteidl/admin/common_pb.ts";
import type { ExecutionSpec, ExecutionState } from "../../proto/gen/flyteidl/admin/execution_pb.ts";
import {
  IdentifierSchema,
  type NodeExecutionIdentifier,
  type WorkflowExecutionIdentifier,
} from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { type LiteralMap, LiteralMapSchema } from "../../proto/gen/flyteidl/core/literals_pb.ts";
import { SANDBOX_BUCKET } from "./data_proxy.ts";
import { defaultLiterals } from "./default_literals.ts";
import type { ResolvedLaunch } from "./execution_create.ts";
import type { ResolvedPlan, Span, Termination } from "./execution_lifecycle.ts";
import { goText } from "./go_text.ts";
import type { PlannedNode } from "./node_executions.ts";
import { invalidArgument as invalid } from "./shared_validation.ts";

/** One execution as the sandbox keeps it. */
export interface ExecutionRecord {
  seq: number;
  id: WorkflowExecutionIdentifier;
  createdNs: bigint;
  spec: ExecutionSpec;
  launch: ResolvedLaunch;
  plan: ResolvedPlan;
  span: Span;
  nodes: PlannedNode[];
  termination?: Termination;
  abortCause: string;
  /** Who aborted it (FlyteAdmin's abort metadata principal). */
  abortedBy: string;
  /**
   * The state UpdateExecution last set, as FlyteAdmin stores it: the request's number, unchecked (ACTIVE, ARCHIVED or
   * any other), which listings compare with ACTIVE when no filter names `state`.
   */
  state: ExecutionState;
  stateChangedNs: bigint;
  /** Who last changed its state (FlyteAdmin's state change details principal); its creator until then. */
  stateChangedBy: string;
  /** The notifications its closure records. */
  notifications: Notification[];
  /** FlyteAdmin's `source_execution_id`: the row of the execution it relaunches, recovers or was launched by; 0. */
  sourceSeq: number;
  /** FlyteAdmin's `parent_node_execution_id`: the row id of the node execution that launched it; 0 for none. */
  parentNodeRowId: number;
}

/**
 * FlyteAdmin's text of an execution's identifier in NOT_FOUND messages: Go's rendering of the core Identifier its
 * repository builds of the project, domain and name (empty fields left out).
 */
export function describeExecution(id: { project: string; domain: string; name: string }): string {
  return goText(IdentifierSchema, create(IdentifierSchema, { project: id.project, domain: id.domain, name: id.name }));
}

/** The identifier of an execution RPC, or INVALID_ARGUMENT naming its first missing part. */
export function requireExecutionId(id: WorkflowExecutionIdentifier | undefined): WorkflowExecutionIdentifier {
  if (!id) throw invalid("missing id");
  for (const field of ["project", "domain", "name"] as const) {
    if (id[field] === "") throw invalid(`missing ${field}`);
  }
  return id;
}

/** The identifier of a node execution RPC, or INVALID_ARGUMENT naming its first missing part. */
export function requireNodeExecutionId(id: NodeExecutionIdentifier | undefined): NodeExecutionIdentifier {
  if (!id) throw invalid("missing id");
  if (!id.executionId) throw invalid("missing execution_id");
  if (id.nodeId === "") throw invalid("missing node_id");
  requireExecutionId(id.executionId);
  return id;
}

/** The key an execution is kept under: its project, domain and name. */
export function executionKey(id: { project: string; domain: string; name: string }): string {
  return JSON.stringify([id.project, id.domain, id.name]);
}

/** Where the execution's data lives in the sandbox's bucket (its inputs, and each node's data). */
export function executionDataPrefix(record: ExecutionRecord): string {
  return `s3://${SANDBOX_BUCKET}/metadata/propeller/${record.id.project}-${record.id.domain}-${record.id.name}`;
}

/** The execution's outputs once it succeeds: its plan's, else a default for each output the workflow declares. */
export function executionOutputs(record: ExecutionRecord): LiteralMap {
  const declared = record.launch.workflow.closure?.compiledWorkflow?.primary?.template?.interface?.outputs;
  return create(LiteralMapSchema, record.plan.outputs ?? defaultLiterals(declared));
}
