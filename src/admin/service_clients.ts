/**
 * The methods of the admin services fctl calls, as the library exposes them: each takes a request (a
 * {@link MessageInit}) and options, and resolves to the response message or rejects with an {@link AdminError}.
 * fctl's own interfaces, not Connect's `Client`, so the library's signatures name only fctl's and flyteidl's
 * types; a type-level test checks they match the generated service descriptors method for method.
 *
 * @module
 */
import type { MessageInit } from "./message_init.ts";
import type { ObjectGetRequestRow, ResourceListRequestRow } from "../../proto/gen/fctl/rows/common_rows_pb.ts";
import type { TaskRow, TaskRowList } from "../../proto/gen/fctl/rows/task_rows_pb.ts";
import type {
  RegistrationLaunchPlanCreateRequest,
  RegistrationLaunchPlanCreateResponse,
  RegistrationTaskCreateRequest,
  RegistrationTaskCreateResponse,
  RegistrationWorkflowCreateRequest,
  RegistrationWorkflowCreateResponse,
} from "../../proto/gen/fctl/registration/entities_pb.ts";
import type { LaunchPlanRow, LaunchPlanRowList } from "../../proto/gen/fctl/rows/launch_plan_rows_pb.ts";
import type { WorkflowRow, WorkflowRowList } from "../../proto/gen/fctl/rows/workflow_rows_pb.ts";
import type {
  ExecutionRow,
  ExecutionRowList,
  WorkflowExecutionGetRequestRow,
} from "../../proto/gen/fctl/rows/execution_rows_pb.ts";
import type {
  NamedEntity,
  NamedEntityGetRequest,
  NamedEntityIdentifierList,
  NamedEntityIdentifierListRequest,
  NamedEntityList,
  NamedEntityListRequest,
  NamedEntityUpdateRequest,
  NamedEntityUpdateResponse,
  ObjectGetRequest,
  ResourceListRequest,
} from "../../proto/gen/flyteidl/admin/common_pb.ts";
import type {
  Execution,
  ExecutionCreateRequest,
  ExecutionCreateResponse,
  ExecutionList,
  ExecutionRecoverRequest,
  ExecutionRelaunchRequest,
  ExecutionTerminateRequest,
  ExecutionTerminateResponse,
  ExecutionUpdateRequest,
  ExecutionUpdateResponse,
  WorkflowExecutionGetRequest,
} from "../../proto/gen/flyteidl/admin/execution_pb.ts";
import type {
  NodeExecutionGetDataRequest,
  NodeExecutionGetDataResponse,
  NodeExecutionList,
  NodeExecutionListRequest,
} from "../../proto/gen/flyteidl/admin/node_execution_pb.ts";
import type { TaskExecutionList, TaskExecutionListRequest } from "../../proto/gen/flyteidl/admin/task_execution_pb.ts";
import type {
  ActiveLaunchPlanRequest,
  LaunchPlan,
  LaunchPlanCreateRequest,
  LaunchPlanCreateResponse,
  LaunchPlanList,
  LaunchPlanUpdateRequest,
  LaunchPlanUpdateResponse,
} from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import type {
  Project,
  ProjectGetRequest,
  ProjectListRequest,
  ProjectRegisterRequest,
  ProjectRegisterResponse,
  Projects,
  ProjectUpdateResponse,
} from "../../proto/gen/flyteidl/admin/project_pb.ts";
import type { Task, TaskCreateRequest, TaskCreateResponse, TaskList } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import type { GetVersionRequest, GetVersionResponse } from "../../proto/gen/flyteidl/admin/version_pb.ts";
import type {
  Workflow,
  WorkflowCreateRequest,
  WorkflowCreateResponse,
  WorkflowList,
} from "../../proto/gen/flyteidl/admin/workflow_pb.ts";
import type {
  CreateDownloadLinkRequest,
  CreateDownloadLinkResponse,
  CreateDownloadLocationRequest,
  CreateDownloadLocationResponse,
  CreateUploadLocationRequest,
  CreateUploadLocationResponse,
  GetDataRequest,
  GetDataResponse,
} from "../../proto/gen/flyteidl/service/dataproxy_pb.ts";

/**
 * Options of one call.
 *
 * ```ts
 * import type { CallOptions } from "@fctl/fctl";
 *
 * const options: CallOptions = { signal: AbortSignal.timeout(30_000), headers: { "x-request-id": "42" } };
 * console.log(options.headers);
 * ```
 */
export interface CallOptions {
  /** Cancels the call (it rejects with the signal's reason as an {@link AdminError} of status `Canceled`). */
  signal?: AbortSignal;
  /** A deadline for the call, sent to the admin as `grpc-timeout`. */
  timeoutMs?: number;
  /** Request metadata sent with the call, besides what the client's auth adds. */
  headers?: HeadersInit;
  /** Receives the response headers when they arrive. */
  onHeader?(headers: Headers): void;
  /** Receives the response trailers when the call ends. */
  onTrailer?(trailers: Headers): void;
}

/**
 * The methods of flyteidl's `AdminService` that fctl calls (tasks, workflows, launch plans, executions and their
 * node and task executions, named entities, projects, version), named
 * as in `flyteidl/service/admin.proto`.
 *
 * ```ts
 * import { connect } from "@fctl/fctl";
 * import { ResourceType } from "@fctl/fctl/types";
 *
 * await using flyte = await connect();
 * const id = { resourceType: ResourceType.TASK, project: "flytesnacks", domain: "development", name: "hello", version: "v1" };
 * const task = await flyte.client.admin.getTask({ id });
 * console.log(task.closure?.createdAt);
 * ```
 */
export interface AdminServiceClient {
  /** Registers a task version; `ALREADY_EXISTS` when that version exists. */
  createTask(request: MessageInit<TaskCreateRequest>, options?: CallOptions): Promise<TaskCreateResponse>;
  /** One task version with its closure. */
  getTask(request: MessageInit<ObjectGetRequest>, options?: CallOptions): Promise<Task>;
  /** Names of the tasks of a project and domain, a page at a time. */
  listTaskIds(
    request: MessageInit<NamedEntityIdentifierListRequest>,
    options?: CallOptions,
  ): Promise<NamedEntityIdentifierList>;
  /** Versions of a task (or of every task in a project and domain), filtered, sorted and paged. */
  listTasks(request: MessageInit<ResourceListRequest>, options?: CallOptions): Promise<TaskList>;
  /** Registers a workflow version; `ALREADY_EXISTS` when that version exists. */
  createWorkflow(request: MessageInit<WorkflowCreateRequest>, options?: CallOptions): Promise<WorkflowCreateResponse>;
  /** One workflow version with its compiled closure. */
  getWorkflow(request: MessageInit<ObjectGetRequest>, options?: CallOptions): Promise<Workflow>;
  /** Versions of a workflow, filtered, sorted and paged. */
  listWorkflows(request: MessageInit<ResourceListRequest>, options?: CallOptions): Promise<WorkflowList>;
  /** Registers a launch plan version; `ALREADY_EXISTS` when that version exists. */
  createLaunchPlan(
    request: MessageInit<LaunchPlanCreateRequest>,
    options?: CallOptions,
  ): Promise<LaunchPlanCreateResponse>;
  /** One launch plan version. */
  getLaunchPlan(request: MessageInit<ObjectGetRequest>, options?: CallOptions): Promise<LaunchPlan>;
  /** The active version of a launch plan. */
  getActiveLaunchPlan(request: MessageInit<ActiveLaunchPlanRequest>, options?: CallOptions): Promise<LaunchPlan>;
  /** Versions of a launch plan, filtered, sorted and paged. */
  listLaunchPlans(request: MessageInit<ResourceListRequest>, options?: CallOptions): Promise<LaunchPlanList>;
  /** Activates or deactivates a launch plan version (its schedule runs only while active). */
  updateLaunchPlan(
    request: MessageInit<LaunchPlanUpdateRequest>,
    options?: CallOptions,
  ): Promise<LaunchPlanUpdateResponse>;
  /** Starts an execution of a launch plan or task; `ALREADY_EXISTS` when that name is taken. */
  createExecution(
    request: MessageInit<ExecutionCreateRequest>,
    options?: CallOptions,
  ): Promise<ExecutionCreateResponse>;
  /** Runs an execution again with the same inputs (a new execution, named or named by the admin). */
  relaunchExecution(
    request: MessageInit<ExecutionRelaunchRequest>,
    options?: CallOptions,
  ): Promise<ExecutionCreateResponse>;
  /** Runs a failed execution again, reusing the outputs of the nodes that succeeded. */
  recoverExecution(
    request: MessageInit<ExecutionRecoverRequest>,
    options?: CallOptions,
  ): Promise<ExecutionCreateResponse>;
  /** One execution (its spec and closure: phase, times, error, abort cause). */
  getExecution(request: MessageInit<WorkflowExecutionGetRequest>, options?: CallOptions): Promise<Execution>;
  /** Executions of a project and domain, filtered, sorted and paged. */
  listExecutions(request: MessageInit<ResourceListRequest>, options?: CallOptions): Promise<ExecutionList>;
  /** Archives or activates an execution (archived ones are hidden from default listings). */
  updateExecution(
    request: MessageInit<ExecutionUpdateRequest>,
    options?: CallOptions,
  ): Promise<ExecutionUpdateResponse>;
  /** Aborts a running execution with a cause; `FAILED_PRECONDITION` when it has already finished. */
  terminateExecution(
    request: MessageInit<ExecutionTerminateRequest>,
    options?: CallOptions,
  ): Promise<ExecutionTerminateResponse>;
  /** Node executions of an execution (below one parent node with `uniqueParentId`), a page at a time. */
  listNodeExecutions(
    request: MessageInit<NodeExecutionListRequest>,
    options?: CallOptions,
  ): Promise<NodeExecutionList>;
  /** A node execution's inputs and outputs (`fullInputs`, `fullOutputs`). */
  getNodeExecutionData(
    request: MessageInit<NodeExecutionGetDataRequest>,
    options?: CallOptions,
  ): Promise<NodeExecutionGetDataResponse>;
  /** The task executions (attempts) of a node execution, a page at a time. */
  listTaskExecutions(
    request: MessageInit<TaskExecutionListRequest>,
    options?: CallOptions,
  ): Promise<TaskExecutionList>;
  /** Names of the workflows, tasks or launch plans of a project and domain, with their description and state. */
  listNamedEntities(request: MessageInit<NamedEntityListRequest>, options?: CallOptions): Promise<NamedEntityList>;
  /** One workflow, task or launch plan name with its description and state. */
  getNamedEntity(request: MessageInit<NamedEntityGetRequest>, options?: CallOptions): Promise<NamedEntity>;
  /** Sets a name's metadata (description and state) as a whole. */
  updateNamedEntity(
    request: MessageInit<NamedEntityUpdateRequest>,
    options?: CallOptions,
  ): Promise<NamedEntityUpdateResponse>;
  /** Registers a project; `ALREADY_EXISTS` when that id is taken. */
  registerProject(
    request: MessageInit<ProjectRegisterRequest>,
    options?: CallOptions,
  ): Promise<ProjectRegisterResponse>;
  /** Replaces a project's name, description, labels and state. */
  updateProject(request: MessageInit<Project>, options?: CallOptions): Promise<ProjectUpdateResponse>;
  /** One project by id (archived ones too). */
  getProject(request: MessageInit<ProjectGetRequest>, options?: CallOptions): Promise<Project>;
  /** Projects, a page at a time; archived ones only when asked for by a filter. */
  listProjects(request: MessageInit<ProjectListRequest>, options?: CallOptions): Promise<Projects>;
  /** The admin's build version. */
  getVersion(request: MessageInit<GetVersionRequest>, options?: CallOptions): Promise<GetVersionResponse>;
}

/**
 * flyteidl's `DataProxyService`: signed URLs to upload fast-registration archives to and download data from.
 *
 * ```ts
 * import { createHash } from "node:crypto";
 * import { connect } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const bytes = await Deno.readFile("fast.tar.gz");
 * // The admin names the object by the content's MD5 (it refuses a request without it or a filenameRoot).
 * const location = await flyte.client.dataProxy.createUploadLocation({
 *   project: "flytesnacks",
 *   domain: "development",
 *   filename: "fast.tar.gz",
 *   contentMd5: createHash("md5").update(bytes).digest(),
 * });
 * console.log(location.signedUrl, location.nativeUrl);
 * ```
 */
export interface DataProxyServiceClient {
  /** A signed URL to PUT a file to, and the storage location it will have. */
  createUploadLocation(
    request: MessageInit<CreateUploadLocationRequest>,
    options?: CallOptions,
  ): Promise<CreateUploadLocationResponse>;
  /** A signed URL to download a storage location from (deprecated in flyteidl for `createDownloadLink`). */
  createDownloadLocation(
    request: MessageInit<CreateDownloadLocationRequest>,
    options?: CallOptions,
  ): Promise<CreateDownloadLocationResponse>;
  /** Signed URLs to download an execution's artifacts. */
  createDownloadLink(
    request: MessageInit<CreateDownloadLinkRequest>,
    options?: CallOptions,
  ): Promise<CreateDownloadLinkResponse>;
  /** The data behind a `flyte://` URI, as literals. */
  getData(request: MessageInit<GetDataRequest>, options?: CallOptions): Promise<GetDataResponse>;
}

/**
 * AdminService calls whose answers are decoded into rows: the fields fctl's tables show, declared again with
 * flyteidl's numbers (proto/client/fctl/rows/), the rest skipped. The same RPCs as {@link AdminServiceClient}'s
 * methods of the same names; requests are whole, so they are the same bytes.
 *
 * ```ts
 * import { connect } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const { tasks } = await flyte.client.rows.listTasks({ id: { project: "flytesnacks", domain: "development" }, limit: 10 });
 * console.log(tasks.map((task) => `${task.id?.name} ${task.closure?.compiledTask?.template?.type}`));
 * ```
 */
export interface AdminRowsClient {
  /** One task version, as `fctl get task`'s table shows it. */
  getTask(request: MessageInit<ObjectGetRequestRow>, options?: CallOptions): Promise<TaskRow>;
  /** Versions of a task (or of every task in a project and domain), as `fctl get task`'s table shows them. */
  listTasks(request: MessageInit<ResourceListRequestRow>, options?: CallOptions): Promise<TaskRowList>;
  /** One launch plan version, as `fctl get launchplan`'s table shows it. */
  getLaunchPlan(request: MessageInit<ObjectGetRequestRow>, options?: CallOptions): Promise<LaunchPlanRow>;
  /** Launch plans (versions of one, or every one of a project and domain), as `fctl get launchplan`'s tables show them. */
  listLaunchPlans(request: MessageInit<ResourceListRequestRow>, options?: CallOptions): Promise<LaunchPlanRowList>;
  /** One workflow version, as `fctl get workflow NAME --version V`'s table shows it: its interface, not its graph. */
  getWorkflow(request: MessageInit<ObjectGetRequestRow>, options?: CallOptions): Promise<WorkflowRow>;
  /** Versions of a workflow, as `fctl get workflow NAME`'s table shows them. */
  listWorkflows(request: MessageInit<ResourceListRequestRow>, options?: CallOptions): Promise<WorkflowRowList>;
  /** One execution, as `fctl get execution NAME`'s table shows it. */
  getExecution(request: MessageInit<WorkflowExecutionGetRequestRow>, options?: CallOptions): Promise<ExecutionRow>;
  /** Executions of a project and domain, as `fctl get execution`'s table shows them. */
  listExecutions(request: MessageInit<ResourceListRequestRow>, options?: CallOptions): Promise<ExecutionRowList>;
}

/**
 * The creates `register` sends: the same RPCs as {@link AdminServiceClient}'s methods of the same names, with
 * the entities of proto/client/fctl/registration/, which declare only the fields registration reads or fills in
 * and carry every other field of an entity as unknown fields, so what is sent is the whole entity.
 *
 * ```ts
 * import { connect } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const id = { resourceType: 1, project: "flytesnacks", domain: "development", name: "noop", version: "v1" };
 * // Its entities carry what a package's file was decoded with; only these fields can be set in code, so a task built
 * // in code goes through `flyte.client.admin.createTask` (this one has no type, which the admin refuses).
 * await flyte.client.registration.createTask({ id, spec: { template: { id } } })
 *   .catch((err) => console.log(err.status)); // InvalidArgument
 * ```
 */
export interface AdminRegistrationClient {
  /** CreateTask. */
  createTask(
    request: MessageInit<RegistrationTaskCreateRequest>,
    options?: CallOptions,
  ): Promise<RegistrationTaskCreateResponse>;
  /** CreateWorkflow. */
  createWorkflow(
    request: MessageInit<RegistrationWorkflowCreateRequest>,
    options?: CallOptions,
  ): Promise<RegistrationWorkflowCreateResponse>;
  /** CreateLaunchPlan. */
  createLaunchPlan(
    request: MessageInit<RegistrationLaunchPlanCreateRequest>,
    options?: CallOptions,
  ): Promise<RegistrationLaunchPlanCreateResponse>;
}
