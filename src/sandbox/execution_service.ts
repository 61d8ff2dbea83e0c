/**
 * The execution methods of AdminService, served from the store's {@link SandboxExecutions}.
 *
 * @module
 */
import type { ServiceImpl } from "@connectrpc/connect";
import type { AdminService } from "../../proto/gen/flyteidl/service/admin_pb.ts";
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
    createExecution: (request) => ({ id: registry.create(request) }),
    relaunchExecution: (request) => ({ id: registry.relaunch(request) }),
    recoverExecution: (request) => ({ id: registry.recover(request) }),
    getExecution: (request) => registry.get(request.id),
    updateExecution: (request) => (registry.update(request.id, request.state), {}),
    getExecutionData: (request) => registry.data(request.id),
    listExecutions: (request) => registry.listPage(request),
    terminateExecution: (request) => (registry.terminate(request.id, request.cause), {}),
    getNodeExecution: (request) => registry.getNodeExecution(request.id),
    listNodeExecutions: (request) => registry.listNodeExecutions(request),
    getNodeExecutionData: (request) => registry.getNodeExecutionData(request.id),
    getTaskExecution: (request) => registry.getTaskExecution(request.id),
    listTaskExecutions: (request) => registry.listTaskExecutions(request),
  };
}
