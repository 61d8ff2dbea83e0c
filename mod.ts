/**
 * fctl as a library: the operations of the `fctl` command line, for programs.
 *
 * {@link connect} builds an admin client as the command line does, from the user's config file, option values
 * and environment, with its retries and auth. Every other function takes its dependencies explicitly (an
 * {@link AdminClient}, inputs, a signal, the environment a storage backend reads: {@link StorageConfig}'s `env`)
 * and never prints, reads the process's environment or exits. The flyteidl
 * messages the admin returns, and every message they refer to, are exported by `@fctl/fctl/types`; an in-process admin
 * service for tests by `@fctl/fctl/testing`.
 *
 * ```ts
 * import { connect, getTask } from "@fctl/fctl";
 *
 * await using flyte = await connect({ config: "~/.flyte/config.yaml" });
 * const result = await getTask(flyte.client, { project: "flytesnacks", domain: "development", name: "core.basic.hello", latest: true });
 * if (result.kind === "one") console.log(result.task.id?.version);
 * ```
 *
 * Errors are one family, each with the `exitCode` the command line exits with: every error meant for a user is an
 * {@link FctlError}; a failed admin operation is an {@link AdminError} whose `status` names the gRPC code (with
 * `rpc` and `serverMessage`); a missing entity, whether the admin said NOT_FOUND or a read found nothing (a task
 * name without versions), is its subclass {@link NotFoundError}, whose `status` is always `"NotFound"`.
 *
 * ```ts
 * import { AdminError, connect, getTask, NotFoundError, UsageError } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * try {
 *   await getTask(flyte.client, { project: "flytesnacks", domain: "development", name: "core.basic.hello", latest: true });
 * } catch (err) {
 *   if (err instanceof NotFoundError) console.error("no such task");
 *   else if (err instanceof AdminError && err.status === "Unavailable") console.error("the admin is unavailable");
 *   else if (err instanceof UsageError) console.error(`bad input: ${err.message}`);
 *   else throw err;
 * }
 * ```
 *
 * @module
 */
export { connect, type ConnectionUploads, type ConnectOptions, type FlyteConnection } from "./src/lib/connect.ts";
export { createAdminClient } from "./src/lib/admin_client.ts";
export type { TextSink } from "./src/output/io.ts";
export type { AdminClient, AdminClientOptions } from "./src/admin/client.ts";
export type {
  AdminRegistrationClient,
  AdminRowsClient,
  AdminServiceClient,
  CallOptions,
  DataProxyServiceClient,
} from "./src/admin/service_clients.ts";
export type { RetryInfo, RetryOptions } from "./src/admin/retry.ts";
export type { BackoffOptions } from "./src/backoff.ts";
export type { MethodConfig, RetryPolicy, ServiceConfig } from "./src/config/service_config.ts";
export {
  AdminError,
  AdminNotFoundError,
  type ConnectionDescription,
  type GrpcStatus,
  NotFoundError,
} from "./src/admin/errors.ts";
export { type Endpoint, parseEndpoint } from "./src/admin/endpoint.ts";
export { loadConfig, type LoadConfigInput, type LoadedConfig } from "./src/config/load.ts";
export {
  type AnyOption,
  type Config,
  type ConfigSource,
  OPTION_TABLE,
  type OptionDefault,
  type OptionKey,
  OPTIONS,
  type OptionSpec,
  type OptionType,
  type ValueOfType,
} from "./src/config/schema.ts";
export {
  ExitCode,
  FctlError,
  InterruptedError,
  type InvalidOption,
  InvalidOptionError,
  NotSupportedError,
  OperationError,
  UsageError,
} from "./src/errors.ts";
export {
  getTask,
  type GetTaskOptions,
  type GetTaskResult,
  runTaskQuery,
  runTaskRowQuery,
  type TaskQuery,
  taskQuery,
  type TaskRowsResult,
} from "./src/tasks/get_task.ts";
export {
  type AdminClientSource,
  type RegisterDeps,
  type RegisteredSource,
  type RegisterEntry,
  registerFiles,
  type RegisterFilesOptions,
  type RegisterProgress,
  type RegisterReport,
  type RegisterStatus,
  type RegisterTimings,
} from "./src/register/register_files.ts";
export type { EntityKind } from "./src/register/member_role.ts";
export type { HydrateOptions } from "./src/register/hydrate.ts";
export type { DownloadDeps, DownloadProgress, PackageReadDeps } from "./src/register/register_files.ts";
export {
  type AssetReport,
  registerExamples,
  type RegisterExamplesDeps,
  type RegisterExamplesOptions,
  type RegisterExamplesReport,
} from "./src/register/register_examples.ts";
export type { HttpClient, HttpClientOptions, PutInit } from "./src/http/http_client.ts";
export type { HttpCallLog } from "./src/http/call_log.ts";
export { HttpBodyTooLargeError, type HttpRequestInit } from "./src/http/bounded_body.ts";
export { type HttpRetryInfo, type HttpRetryOptions, REPEATABLE } from "./src/http/retry.ts";
export { HttpTimeoutError, type HttpTimeouts } from "./src/http/timeouts.ts";
export { escapeSelectorValue, fieldSelectorToFilters } from "./src/get/field_selector.ts";
export type { ListOptions, ListPage, Paging, VersionsQuery } from "./src/get/list_query.ts";
export { getProject, listProjects, type ListProjectsOptions, projectListRequest } from "./src/projects/get_project.ts";
export { projectJson } from "./src/projects/project_view.ts";
export {
  getWorkflow,
  type GetWorkflowOptions,
  type GetWorkflowResult,
  runWorkflowQuery,
  runWorkflowRowQuery,
  type WorkflowQuery,
  workflowQuery,
  type WorkflowRowsResult,
} from "./src/workflows/get_workflow.ts";
export { namedEntityJson, workflowJson } from "./src/workflows/workflow_view.ts";
export { type EntityMetadataChange, type EntityName, updateEntityMetadata } from "./src/workflows/entity_metadata.ts";
export {
  getLaunchPlan,
  type GetLaunchPlanOptions,
  type GetLaunchPlanResult,
  type LaunchPlanQuery,
  launchPlanQuery,
  type LaunchPlanRowsResult,
  runLaunchPlanQuery,
  runLaunchPlanRowQuery,
} from "./src/launchplans/get_launch_plan.ts";
export { launchPlanJson } from "./src/launchplans/launch_plan_view.ts";
export { launchPlanExecSpec } from "./src/launchplans/exec_spec.ts";
export {
  type ExecutionName,
  type ExecutionQuery,
  executionQuery,
  getExecution,
  getExecutionRow,
  listExecutions,
  type ListExecutionsOptions,
  runExecutionQuery,
  runExecutionRowQuery,
} from "./src/executions/get_execution.ts";
export {
  executionDetails,
  type ExecutionDetailsOptions,
  type NodeDetails,
} from "./src/executions/execution_details.ts";
export { executionJson } from "./src/executions/execution_view.ts";
export { DEFAULT_TERMINATE_CAUSE, terminateExecution } from "./src/executions/terminate_execution.ts";
export { updateExecutionState } from "./src/executions/update_execution.ts";
export { createProject, type ProjectChange, updateProject } from "./src/projects/change_project.ts";
export { type ProjectRefusal, ProjectRefusedError } from "./src/projects/project_refusal.ts";
export {
  type LaunchPlanVersion,
  readLaunchPlanVersion,
  updateLaunchPlanState,
} from "./src/launchplans/update_launch_plan.ts";
export { nodeDetailsJson, nodeDetailsText } from "./src/executions/details_view.ts";
export {
  executionFailure,
  type ExecutionProgress,
  waitForExecution,
  type WaitOptions,
  WaitTimeoutError,
} from "./src/executions/wait.ts";
export { type ExecSpec, execSpec, renderExecSpec, renderSpec } from "./src/tasks/exec_spec.ts";
export { taskJson } from "./src/tasks/task_view.ts";
export type { SpecValue } from "./src/tasks/exec_spec.ts";
export {
  EXEC_SPEC_FILE_LIMIT,
  EXEC_SPEC_KEYS,
  type ExecutionSpec,
  parseExecutionSpec,
  readExecutionSpecFile,
} from "./src/executions/spec_file.ts";
export { type InputValue, inputValue } from "./src/executions/input_value.ts";
export {
  type InputLiterals,
  inputLiterals,
  literalFor,
  type LiteralOptions,
  literalTypeText,
  LiteralValueError,
  type LocalBlob,
  type LocalPathKind,
  unionLocalPaths,
} from "./src/executions/literals.ts";
export {
  type CreatedExecution,
  createExecution,
  type CreateExecutionOptions,
  type CreateExecutionResult,
  type ExecutionUploadOptions,
} from "./src/executions/create_execution.ts";
export { type ConfigRow, describeConfig } from "./src/app/describe_config.ts";
export { type ObjectStore, openStorage, type StorageConfig } from "./src/storage/mod.ts";
export type { ObjectInfo, StoreSource, StowStoreSettings } from "./src/storage/store.ts";
export { type Release, type ReleaseAsset, resolveRelease, type ResolveReleaseOptions } from "./src/github/release.ts";
