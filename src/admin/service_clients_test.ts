/**
 * The library's service-client interfaces against the generated service descriptors: the same methods, each
 * accepting what Connect's client accepts and resolving to what it resolves to. Checked by the type checker
 * (`deno test` type-checks this file): a method added to `proto/client/fctl/admin_calls.proto` and not to
 * {@link AdminServiceClient}, or a changed request or response type, fails to compile.
 */
import { deepEqual } from "node:assert/strict";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { Client } from "@connectrpc/connect";
import type { AdminService } from "../../proto/gen/fctl/admin_calls_pb.ts";
import type { DataProxyService } from "../../proto/gen/flyteidl/service/dataproxy_pb.ts";
import type { AdminService as TaskRowCalls } from "../../proto/gen/fctl/task_row_calls_pb.ts";
import type { AdminService as LaunchPlanRowCalls } from "../../proto/gen/fctl/launch_plan_row_calls_pb.ts";
import type { AdminService as WorkflowRowCalls } from "../../proto/gen/fctl/workflow_row_calls_pb.ts";
import type { AdminService as ExecutionRowCalls } from "../../proto/gen/fctl/execution_row_calls_pb.ts";
import type { AdminService as RegistrationCalls } from "../../proto/gen/fctl/registration_calls_pb.ts";
import type {
  AdminRegistrationClient,
  AdminRowsClient,
  AdminServiceClient,
  DataProxyServiceClient,
} from "./service_clients.ts";
import type { MessageInit } from "./message_init.ts";
import type { TaskCreateRequest, TaskCreateRequestSchema } from "../../proto/gen/flyteidl/admin/task_pb.ts";

/** `true` when A and B are assignable to each other, else `false`. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** For each method: whether its request and its response match Connect's client of the same service. */
type Matches<Own, Connect> = {
  [K in keyof Own & keyof Connect]: Own[K] extends (request: infer Req, ...rest: infer _) => infer Res
    ? Connect[K] extends (request: infer CReq, ...rest: infer _) => infer CRes
      ? [Same<Req, CReq>, Same<Awaited<Res>, Awaited<CRes>>]
    : false
    : false;
};

const adminMethods: Same<keyof AdminServiceClient, keyof Client<typeof AdminService>> = true;
const dataProxyMethods: Same<keyof DataProxyServiceClient, keyof Client<typeof DataProxyService>> = true;
/** Every row calls file's client: AdminService again, one kind's calls each. */
type RowCalls =
  & Client<typeof TaskRowCalls>
  & Client<typeof LaunchPlanRowCalls>
  & Client<typeof WorkflowRowCalls>
  & Client<typeof ExecutionRowCalls>;
const rowsMethods: Same<keyof AdminRowsClient, keyof RowCalls> = true;
const adminTypes: Matches<AdminServiceClient, Client<typeof AdminService>> = {
  createTask: [true, true],
  getTask: [true, true],
  listTaskIds: [true, true],
  listTasks: [true, true],
  createWorkflow: [true, true],
  getWorkflow: [true, true],
  listWorkflows: [true, true],
  createLaunchPlan: [true, true],
  getLaunchPlan: [true, true],
  getActiveLaunchPlan: [true, true],
  listLaunchPlans: [true, true],
  updateLaunchPlan: [true, true],
  createExecution: [true, true],
  relaunchExecution: [true, true],
  recoverExecution: [true, true],
  getExecution: [true, true],
  listExecutions: [true, true],
  updateExecution: [true, true],
  terminateExecution: [true, true],
  listNodeExecutions: [true, true],
  getNodeExecutionData: [true, true],
  listTaskExecutions: [true, true],
  listNamedEntities: [true, true],
  getNamedEntity: [true, true],
  updateNamedEntity: [true, true],
  registerProject: [true, true],
  updateProject: [true, true],
  getProject: [true, true],
  listProjects: [true, true],
  getVersion: [true, true],
};
const dataProxyTypes: Matches<DataProxyServiceClient, Client<typeof DataProxyService>> = {
  createUploadLocation: [true, true],
  createDownloadLocation: [true, true],
  createDownloadLink: [true, true],
  getData: [true, true],
};
const rowsTypes: Matches<AdminRowsClient, RowCalls> = {
  getTask: [true, true],
  listTasks: [true, true],
  getLaunchPlan: [true, true],
  listLaunchPlans: [true, true],
  getWorkflow: [true, true],
  listWorkflows: [true, true],
  getExecution: [true, true],
  listExecutions: [true, true],
};
const registrationMethods: Same<keyof AdminRegistrationClient, keyof Client<typeof RegistrationCalls>> = true;
const registrationTypes: Matches<AdminRegistrationClient, Client<typeof RegistrationCalls>> = {
  createTask: [true, true],
  createWorkflow: [true, true],
  createLaunchPlan: [true, true],
};
const sameInit: Same<MessageInit<TaskCreateRequest>, MessageInitShape<typeof TaskCreateRequestSchema>> = true;

Deno.test("AdminServiceClient, DataProxyServiceClient, AdminRowsClient and AdminRegistrationClient have Connect's methods, requests and responses", () => {
  deepEqual([adminMethods, dataProxyMethods, rowsMethods, registrationMethods, sameInit], [
    true,
    true,
    true,
    true,
    true,
  ]);
  const typed = [adminTypes, dataProxyTypes, rowsTypes, registrationTypes].map((types) => Object.keys(types).length);
  deepEqual(typed, [30, 4, 8, 3]);
});
