/**
 * The execution methods of AdminService, served from the store's {@link SandboxExecutions}; a create, relaunch,
 * recover, update or terminate records its caller (`caller.ts`) as FlyteAdmin records the principal.
 *
 * @module
 */
import type { ServiceImpl } from "@connectrpc/connect";
import type { AdminService } from "../../proto/gen/flyteidl/service/admin_pb.ts";
import { callerOf } from "./caller.ts";
import { executionRegistry, type SandboxExecutions } from "./executions.ts";

type ExecutionMethods =
  | "createExecution"
  | "relaunchExecution"
  | "recoverExecution"
  | "getExecution"
  | "updateExecution"
  | "getExecutionData"
  | "listExecutions"
  | "terminateExecution"
  | "getNodeExecution"
  | "listNodeExecutions"
  | "getNodeExecutionData"
  | "getTaskExecution"
  | "listTaskExecutions";

/** The execution, node execution and task execution methods. */
export function createExecutionMethods(
  executions: SandboxExecutions,
): Pick<ServiceImpl<typeof AdminService>, ExecutionMethods> {
  const registry = executionRegistry(executions);
  return {
    createExecution: (request, context) => ({ id: registry.create(request, callerOf(context)) }),
    relaunchExecution: (request, context) => ({ id: registry.relaunch(request, callerOf(context)) }),
    recoverExecution: (request, context) => ({ id: registry.recover(request, callerOf(context)) }),
    getExecution: (request) => registry.get(request.id),
    updateExecution: (request, context) => (registry.update(request.id, request.state, callerOf(context)), {}),
    getExecutionData: (request) => registry.data(request.id),
    listExecutions: (request) => registry.listPage(request),
    terminateExecution: (request, context) => (registry.terminate(request.id, request.cause, callerOf(context)), {}),
    getNodeExecution: (request) => registry.nodes.getNodeExecution(request.id),
    listNodeExecutions: (request) => registry.nodes.listNodeExecutions(request),
    getNodeExecutionData: (request) => registry.nodes.getNodeExecutionData(request.id),
    getTaskExecution: (request) => registry.nodes.getTaskExecution(request.id),
    listTaskExecutions: (request) => registry.nodes.listTaskExecutions(request),
  };
}
