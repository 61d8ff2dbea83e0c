/**
 * An in-process FlyteAdmin for tests and demos: real gRPC over HTTP/2 on loopback, FlyteAdmin's semantics for
 * tasks, workflows and launch plans (filters, sorting, paging, ALREADY_EXISTS, missing references), executions
 * with a simulated lifecycle on the sandbox's clock (`store.executions.plan`), signed
 * upload URLs served over HTTP, request recording and fault injection. Library users import it as the
 * package's `./testing` export (`testing.ts` at the root); fctl's own tests and scripts import it here.
 *
 * ```ts
 * import { startSandbox } from "./mod.ts";
 * const sandbox = await startSandbox();
 * try {
 *   // point a client at sandbox.endpoint (insecure)
 * } finally {
 *   await sandbox.close();
 * }
 * ```
 *
 * @module
 */
export {
  type DeviceFlowBehaviour,
  type InteractiveBehaviour,
  type ProductionProfile,
  type RecordedRequest,
  type Sandbox,
  SANDBOX_CLIENT,
  type SandboxAuth,
  type SandboxOptions,
  startSandbox,
  type TokenRequestRecord,
} from "./server.ts";
export { createTestCertificates, type TestCertificates } from "./test_ca.ts";
export {
  type LaunchPlanEntry,
  type LaunchPlanInit,
  type ProjectInit,
  SandboxStore,
  type TaskEntry,
  type TaskInit,
  type WorkflowEntry,
  type WorkflowInit,
} from "./store.ts";
export type { MethodPattern } from "./faults.ts";
export { ProjectTable } from "./projects.ts";
export { type ExecutionStore, type ExecutionSummary, type PlanSelector, SandboxExecutions } from "./executions.ts";
export type { LaunchableStore } from "./execution_create.ts";
export type { ExecutionOutcome, ExecutionPlan, SimPhase } from "./execution_lifecycle.ts";
export type { Entry } from "./entity_table.ts";
export type { Row } from "./filters.ts";
export { SANDBOX_BUCKET } from "./data_proxy.ts";
