/**
 * `createExecution`: starts an execution of a task or launch plan named by a spec file (inputs converted by their
 * declared types), or relaunches or recovers an existing one, as flytectl's `create execution` does, with fctl's
 * fixes: every setting is taken from the caller, then the file, then the source project/domain; an empty version
 * means the newest (and the caller is told which); a bad input is refused before anything is created.
 *
 * @module
 */
import { create, type JsonValue, toJson } from "@bufbuild/protobuf";
import type { AdminClient } from "../admin/client.ts";
import { quote, UsageError } from "../errors.ts";
import { AdminError, NotFoundError } from "../admin/errors.ts";
import { domainsToName, projectRefusalOf, ProjectRefusedError } from "../projects/project_refusal.ts";
import type { HttpClient } from "../http/http_client.ts";
import type { ObjectStore } from "../storage/store.ts";
import { launchPlanQuery, runLaunchPlanRowQuery } from "../launchplans/get_launch_plan.ts";
import { defaultInputsOf, fixedInputNames } from "../launchplans/launch_plan_inputs.ts";
import { runTaskRowQuery, taskQuery } from "../tasks/get_task.ts";
import { leftOutField } from "../get/left_out_field.ts";
import type { ExecutionSpec } from "./spec_file.ts";
import { type ExecutionName, missingExecution } from "./get_execution.ts";
import type {
  ExecutionCreateRequest,
  ExecutionCreateRequestSchema,
} from "../../proto/gen/flyteidl/admin/execution_pb.ts";
import { RESOURCE_TYPE } from "../get/resource_type.ts";
import type { LiteralType } from "../../proto/gen/flyteidl/core/types_pb.ts";
import { turnsOfTheEventLoop } from "../event_loop.ts";

/**
 * Where {@link createExecution} uploads a local file or directory given as a blob input: the admin's data proxy when
 * it has one, else the configured storage, as fast registration uploads its source.
 *
 * ```ts
 * import { type ExecutionUploadOptions, openStorage } from "@fctl/fctl";
 *
 * const upload: ExecutionUploadOptions = {
 *   openStorage: () => openStorage({ type: "mem", container: "my-bucket", defaultLocalRoot: "" }),
 *   allowLocalStorage: true,
 * };
 * ```
 */
export interface ExecutionUploadOptions {
  /** The HTTP client the bytes are PUT with; default: one with no proxy and the system roots. */
  http?: HttpClient;
  /** Opens the configured storage, used only when the admin has no upload location. */
  openStorage?: () => ObjectStore | Promise<ObjectStore>;
  /** Accepts `local` and `mem` storage, which no cluster can read: only for an admin on this machine. */
  allowLocalStorage?: boolean;
}

/**
 * What to run and how. Exactly one of `relaunch`, `recover` and `spec` is used, in that order (flytectl's
 * precedence); the settings beside `spec` override the file's (flags beat the file).
 *
 * ```ts
 * import type { CreateExecutionOptions } from "@fctl/fctl";
 *
 * const options: CreateExecutionOptions = { project: "flytesnacks", domain: "development", relaunch: "f8a1b2c3d4" };
 * console.log(options.relaunch);
 * ```
 */
export interface CreateExecutionOptions {
  /** Project of the task or launch plan (and of the execution to relaunch or recover). */
  project: string;
  /** Domain of the task or launch plan (and of the execution to relaunch or recover). */
  domain: string;
  /** The new execution's name; unset, the admin names it. */
  name?: string;
  /** A spec file as read by `readExecutionSpecFile`. */
  spec?: ExecutionSpec;
  /** The execution to run again with its inputs (RelaunchExecution). */
  relaunch?: string;
  /** The failed execution to recover, reusing its succeeded nodes (RecoverExecution). */
  recover?: string;
  /** The task to run, over the file's task or workflow (flytectl's `--task`); not with `workflow`. */
  task?: string;
  /** The launch plan to run, over the file's task or workflow (flytectl's `--workflow`); not with `task`. */
  workflow?: string;
  /** Version of the task or launch plan (over the file's); neither: the newest. */
  version?: string;
  /** Project the execution is created in (over the file's; default `project`). */
  targetProject?: string;
  /** Domain the execution is created in (over the file's; default `domain`). */
  targetDomain?: string;
  /** Kubernetes service account the execution runs as (over the file's). */
  kubeServiceAcct?: string;
  /** IAM role the execution assumes (over the file's). */
  iamRoleARN?: string;
  /** Cluster pool (over the file's). */
  clusterPool?: string;
  /** Execution cluster label (over the file's). */
  targetExecutionCluster?: string;
  /** Run even where cached outputs exist (over the file's). */
  overwriteCache?: boolean;
  /** Environment variables, added to (and over) the file's. */
  envs?: ReadonlyMap<string, string>;
  /** Dataclasses as protobuf Struct (flytectl's `FLYTE_USE_OLD_DC_FORMAT`); the caller reads the environment. */
  oldDataclassFormat?: boolean;
  /**
   * Local blob inputs are uploaded as fast registration uploads its archive: the admin's data proxy
   * (CreateUploadLocation, then a PUT), else this storage; the request carries the remote URI. A file input takes a
   * file; a directory input takes a directory, whose regular files go under one prefix with their relative paths
   * (the blob's URI), a few at a time; links are not followed out of it, and an empty one is refused. Every path is
   * checked before anything is uploaded, and a failed upload creates nothing. Unset, a local path is refused (the
   * cluster cannot read it). With `dryRun` the paths are checked the same way and nothing is uploaded.
   */
  upload?: ExecutionUploadOptions;
  /** Build and return the request without sending it (the task or launch plan is still read). */
  dryRun?: boolean;
  /** Told the version used when none was given (the newest). */
  onVersion?: (version: string) => void;
  /** Cancels the calls. */
  signal?: AbortSignal;
}

/**
 * The execution created (or, with `dryRun`, the request that would have created it).
 *
 * ```ts
 * import type { CreateExecutionResult } from "@fctl/fctl";
 *
 * function show(result: CreateExecutionResult): string {
 *   return result.id ? `${result.id.project}/${result.id.domain}/${result.id.name}` : JSON.stringify(result.request);
 * }
 * console.log(typeof show);
 * ```
 */
export interface CreateExecutionResult {
  /** The RPC that creates the execution. */
  rpc: "CreateExecution" | "RelaunchExecution" | "RecoverExecution";
  /** The request, as protobuf JSON. */
  request: JsonValue;
  /** The new execution's id; unset with `dryRun`. */
  id?: { project: string; domain: string; name: string };
}

/**
 * What {@link createExecution} returns when it is not a dry run: the result with the new execution's id, to wait for.
 *
 * ```ts
 * import { connect, createExecution, type CreatedExecution, readExecutionSpecFile, waitForExecution } from "@fctl/fctl";
 *
 * const spec = await readExecutionSpecFile("exec_spec.yaml");
 * await using flyte = await connect();
 * const scope = { project: "flytesnacks", domain: "development" };
 * const created: CreatedExecution = await createExecution(flyte.client, { ...scope, spec });
 * console.log((await waitForExecution(flyte.client, created.id)).closure?.phase);
 * ```
 */
export interface CreatedExecution extends CreateExecutionResult {
  /** The new execution's id. */
  id: { project: string; domain: string; name: string };
}

/**
 * Creates an execution: reads the task or launch plan of `options.spec` (the newest version when none is given),
 * converts the inputs by their types, and sends CreateExecution; or RelaunchExecution / RecoverExecution.
 *
 * ```ts
 * import { connect, createExecution, readExecutionSpecFile } from "@fctl/fctl";
 *
 * const spec = await readExecutionSpecFile("exec_spec.yaml");
 * await using flyte = await connect();
 * const { id } = await createExecution(flyte.client, {
 *   project: "flytesnacks",
 *   domain: "development",
 *   spec,
 *   onVersion: (version) => console.error(`using version ${version}`),
 * });
 * console.log(id.name); // not a dry run: the id is there
 * ```
 *
 * @throws {UsageError} a name FlyteAdmin refuses (a letter, then letters, digits and `-`, at most 63
 *   characters); no spec, relaunch or recover; a spec whose `dryRun` is true without `dryRun`; an input that is not one of the entity's, or of the wrong
 *   type; a required input left out (a task's every input, a launch plan's inputs without a default); a blob input given as a local path without `upload`, or as a path that is not what the input takes (a
 *   directory for a file input, a file for a directory input), or an empty directory (nothing is created)
 * @throws {NotFoundError} no such task, launch plan or version
 * @throws {ProjectRefusedError} the admin refused the execution's project or domain (missing, archived, unknown): its
 *   `refusal` says which, its `cause` is the admin's {@link AdminError}
 * @throws {AdminError} the admin refused the execution otherwise (a name already taken: status `AlreadyExists`, the
 *   message naming the execution), or a call could not be made
 */
export function createExecution(
  client: AdminClient,
  options: CreateExecutionOptions & { dryRun?: false },
): Promise<CreatedExecution>;
/**
 * {@link createExecution} with options that may ask for a dry run (`dryRun` not known to be false): the result has
 * an id only when it was not one. Throws as the other form does.
 *
 * ```ts
 * import { connect, createExecution } from "@fctl/fctl";
 *
 * const dryRun = Deno.args.includes("--dry-run");
 * await using flyte = await connect();
 * const result = await createExecution(flyte.client, { project: "p", domain: "d", relaunch: "f8a1b2c3d4", dryRun });
 * console.log(result.id?.name ?? JSON.stringify(result.request));
 * ```
 */
export function createExecution(client: AdminClient, options: CreateExecutionOptions): Promise<CreateExecutionResult>;
export async function createExecution(
  client: AdminClient,
  options: CreateExecutionOptions,
): Promise<CreateExecutionResult> {
  const { project, domain, signal } = options;
  const call = { signal };
  if (options.name) checkExecutionName(options.name);
  // A relaunch's or recovery's refusal: its source not found, or the new execution's name taken.
  const rerunRefused = (verb: "relaunch" | "recover", source: string, name: string) => (err: unknown): never => {
    throw nameTaken(missingSource(err, verb, { project, domain, name: source }), { project, domain, name });
  };
  if (options.relaunch) {
    const { ExecutionRelaunchRequestSchema } = await import("../../proto/gen/flyteidl/admin/execution_pb.ts");
    const request = create(ExecutionRelaunchRequestSchema, {
      id: { project, domain, name: options.relaunch },
      name: options.name ?? "",
      overwriteCache: options.overwriteCache ?? false,
    });
    const json = toJson(ExecutionRelaunchRequestSchema, request);
    if (options.dryRun) return { rpc: "RelaunchExecution", request: json };
    const created = await client.admin.relaunchExecution(request, call)
      .catch(rerunRefused("relaunch", options.relaunch, request.name));
    return { rpc: "RelaunchExecution", request: json, id: idOf(created) };
  }
  if (options.recover) {
    const { ExecutionRecoverRequestSchema } = await import("../../proto/gen/flyteidl/admin/execution_pb.ts");
    const request = create(ExecutionRecoverRequestSchema, {
      id: { project, domain, name: options.recover },
      name: options.name ?? "",
    });
    const json = toJson(ExecutionRecoverRequestSchema, request);
    if (options.dryRun) return { rpc: "RecoverExecution", request: json };
    const created = await client.admin.recoverExecution(request, call)
      .catch(rerunRefused("recover", options.recover, request.name));
    return { rpc: "RecoverExecution", request: json, id: idOf(created) };
  }
  if (!options.spec) {
    throw new UsageError(
      "executionConfig, relaunch and recover can't be empty. Run the fctl get task/launchplan to generate the config",
    );
  }
  if (options.spec.dryRun && !options.dryRun) {
    // flytectl ignores the file's dryRun and creates the execution: the file's intent is never run for real.
    throw new UsageError(
      `exec file ${quote(options.spec.file)}: dryRun: true is not applied from an exec file (flytectl ignores it ` +
        "and creates the execution): pass --dryRun for a dry run, or remove the key",
    );
  }
  const { request, schema } = await executionCreateRequest(client, options, withEntity(options.spec, options));
  if (options.dryRun) return { rpc: "CreateExecution", request: toJson(schema, request) };
  // The request's JSON (a few ms for an execution's inputs) is made while the call is out, not before it.
  const created = client.admin.createExecution(request, call);
  created.catch(() => {});
  // One turn lets the call go out before the JSON is made.
  await turnsOfTheEventLoop(1);
  const json = toJson(schema, request);
  const id = await created.catch(async (err) => {
    throw nameTaken(
      await projectRefused(client, err, { project: request.project, domain: request.domain }, signal),
      request,
    );
  });
  return { rpc: "CreateExecution", request: json, id: idOf(id) };
}

/**
 * The admin's refusal of the execution's project or domain (missing, archived, unknown) as one line that says what
 * to do, as a registration says it; any other error as it is.
 */
async function projectRefused(
  client: AdminClient,
  err: unknown,
  target: { project: string; domain: string },
  signal: AbortSignal | undefined,
): Promise<unknown> {
  const refusal = err instanceof AdminError ? projectRefusalOf(err.message, target) : undefined;
  if (!refusal) return err;
  const domains = await domainsToName(client, refusal, signal);
  return new ProjectRefusedError(refusal, "no execution was created", domains, {
    project: "--targetProject",
    domainAdvice: "create it in one of its domains with --targetDomain",
  }, { cause: err });
}

/** The admin's NOT_FOUND for the execution to relaunch or recover as one line naming it; any other error as it is. */
function missingSource(err: unknown, verb: "relaunch" | "recover", id: ExecutionName): unknown {
  if (!(err instanceof AdminError) || err.status !== "NotFound") return err;
  return new NotFoundError(err.rpc, err.serverMessage, `cannot ${verb}: ${missingExecution(id)}`, { cause: err });
}

/**
 * The admin's ALREADY_EXISTS for a name the caller gave as one line naming the execution (FlyteAdmin says only
 * `value with matching already exists (duplicate key value violates unique constraint "executions_pkey")`); any other
 * error as it is.
 */
function nameTaken(err: unknown, id: { project: string; domain: string; name: string }): unknown {
  if (!(err instanceof AdminError) || err.status !== "AlreadyExists" || !id.name) return err;
  const message = `execution ${quote(id.name)} already exists in project ${quote(id.project)}, domain ` +
    `${quote(id.domain)}: give the new one another name, or none for the admin to choose one`;
  return new AdminError(err.status, err.rpc, err.serverMessage, message, { cause: err });
}

/**
 * The spec with the task or launch plan the caller names over the file's (a task given replaces the file's
 * workflow, and the other way round).
 *
 * @throws {UsageError} both a task and a launch plan named
 */
function withEntity(spec: ExecutionSpec, options: CreateExecutionOptions): ExecutionSpec {
  if (options.task && options.workflow) {
    throw new UsageError("--task and --workflow both name what runs: give one");
  }
  if (options.task) return { ...spec, task: options.task, workflow: undefined };
  if (options.workflow) return { ...spec, task: undefined, workflow: options.workflow };
  // A spec file that names neither or both is refused as it is read; a spec built in code is refused the same way.
  const refused = "either task or workflow name should be specified to launch an execution";
  if (!spec.task && !spec.workflow) throw new UsageError(`exec file ${quote(spec.file)}: ${refused}`);
  if (spec.task && spec.workflow) {
    throw new UsageError(
      `exec file ${quote(spec.file)}: ${refused}, not both (task ${quote(spec.task)}, workflow ${
        quote(spec.workflow)
      })`,
    );
  }
  return spec;
}

/** FlyteAdmin's rule for an execution's name, which it checks lowercased (`CheckValidExecutionID`). */
const EXECUTION_NAME = /^[a-z][a-z\-0-9]*$/;
const EXECUTION_NAME_LENGTH = 63;

/**
 * Refuses a name FlyteAdmin would refuse, before anything is read, uploaded or created (a dry run too).
 *
 * @throws {UsageError} naming the name and the rule
 */
function checkExecutionName(name: string): void {
  if (name.length <= EXECUTION_NAME_LENGTH && EXECUTION_NAME.test(name.toLowerCase())) return;
  throw new UsageError(
    `invalid execution name ${quote(name)}: expected a letter, then letters, digits and "-", at most ` +
      `${EXECUTION_NAME_LENGTH} characters (FlyteAdmin's execution names)`,
  );
}

/** The first of the values that is set: empty text counts as not set (generated files hold `""`). */
function firstSet(...values: (string | undefined)[]): string | undefined {
  return values.find((value) => value !== undefined && value !== "");
}

/** The entity's id and input types: GetTask or GetLaunchPlan, the newest version when none is given. */
async function entity(client: AdminClient, options: CreateExecutionOptions, spec: ExecutionSpec) {
  const { project, domain, signal } = options;
  const version = firstSet(options.version, spec.version);
  const versionOptions = version ? { version } : { latest: true };
  if (spec.task) {
    // The task as its table reads it, and each input's type from what the row leaves out (a variable's `type`): the
    // descriptors of a task's whole tree (its template, its closure) are not built before the call goes out.
    const query = taskQuery({ project, domain, name: spec.task, ...versionOptions });
    const result = await runTaskRowQuery(client, query, signal);
    if (result.kind !== "one") throw new Error("a query for one task version returned a list");
    const { LiteralTypeSchema } = await import("../../proto/gen/flyteidl/core/types_pb.ts");
    const rows = result.task.closure?.compiledTask?.template?.interface?.inputs?.variables ?? {};
    const variables = Object.fromEntries(
      Object.entries(rows).map((
        [name, row],
      ) => [name, { type: leftOutField(row, VARIABLE_TYPE_FIELD, LiteralTypeSchema) }]),
    );
    return {
      id: {
        resourceType: RESOURCE_TYPE.TASK,
        project,
        domain,
        name: spec.task,
        version: result.task.id?.version ?? "",
      },
      version: result.task.id?.version ?? "",
      types: typesOf(variables),
      // FlyteAdmin runs a task through a launch plan it makes with every task input required.
      required: Object.keys(variables),
      // That launch plan fixes none.
      fixed: () => Promise.resolve([] as string[]),
      given: version,
    };
  }
  const name = spec.workflow ?? "";
  // The launch plan as its tables read it, and its default inputs from that row: see launch_plan_inputs.ts.
  const query = launchPlanQuery({ project, domain, name, ...versionOptions });
  const result = await runLaunchPlanRowQuery(client, query, signal);
  if (result.kind !== "one") throw new Error("a query for one launch plan version returned a list");
  const { parameters } = await defaultInputsOf(result.launchPlan.spec);
  return {
    id: {
      resourceType: RESOURCE_TYPE.LAUNCH_PLAN,
      project,
      domain,
      name,
      version: result.launchPlan.id?.version ?? "",
    },
    version: result.launchPlan.id?.version ?? "",
    types: typesOf(Object.fromEntries(Object.entries(parameters).map(([k, p]) => [k, p.var ?? {}]))),
    // FlyteAdmin's expected inputs: an input marked required has no default the execution could take.
    required: Object.entries(parameters).filter(([, p]) => p.behavior.case === "required" && p.behavior.value)
      .map(([name]) => name),
    // Read only when an input is not one of the launch plan's (see fixedInputNames).
    fixed: () => fixedInputNames(result.launchPlan.spec),
    given: version,
  };
}

/** The number of `flyteidl.core.Variable.type`, which `VariableRow` leaves out. */
const VARIABLE_TYPE_FIELD = 1;

function typesOf(variables: Record<string, { type?: LiteralType }>): Record<string, LiteralType | undefined> {
  const types: Record<string, LiteralType | undefined> = {};
  for (const [name, variable] of Object.entries(variables)) {
    Object.defineProperty(types, name, { value: variable.type, enumerable: true });
  }
  return types;
}

/**
 * The request and its schema. What comes after the lookup of the task or launch plan loads in its round trip's wait
 * rather than after it: the modules that convert the inputs and build the request, and CreateExecution's descriptors.
 * They start once the lookup's own descriptors have loaded and the call has gone out (three turns of the event loop, as a registration gives its upload location call: `event_loop.ts`), so
 * that loading them does not hold the call back.
 */
async function executionCreateRequest(
  client: AdminClient,
  options: CreateExecutionOptions,
  spec: ExecutionSpec,
): Promise<{ request: ExecutionCreateRequest; schema: typeof ExecutionCreateRequestSchema }> {
  const lookup = entity(client, options, spec);
  // Settled here too, so that a refusal met while the modules below load is not an unhandled rejection meanwhile.
  lookup.catch(() => {});
  // Loaded already: the client was made with it.
  const { loadAdminMethods } = await import("../admin/client.ts");
  // The file of every call of a kind (a version's Get, the newest's List): the task rows' or the launch plan rows'
  // (the files of client.ts's rows client).
  if (spec.task) await import("../../proto/gen/fctl/task_row_calls_pb.ts");
  else await import("../../proto/gen/fctl/launch_plan_row_calls_pb.ts");
  // Measured (a launch plan of 20 inputs): evaluated at once, the modules below held the lookup back about 10 ms.
  await turnsOfTheEventLoop(3);
  const [
    { inputLiterals, unionLocalPaths },
    { ExecutionCreateRequestSchema: schema, ExecutionMetadata_ExecutionMode },
    { checkFixedInputs, checkRequiredInputs },
  ] = await Promise
    .all([
      import("./literals.ts"),
      import("../../proto/gen/flyteidl/admin/execution_pb.ts"),
      import("./required_inputs.ts"),
      options.dryRun ? undefined : loadAdminMethods(["createExecution"]),
      // The launch plan's default inputs are decoded with these (see launch_plan_inputs.ts).
      spec.task ? undefined : import("../../proto/gen/flyteidl/core/interface_pb.ts"),
    ]);
  const found = await lookup;
  // A local path given to a union of a file and a directory blob takes the variant of what it is on disk.
  const unionPaths = unionLocalPaths(spec.inputs, found.types);
  const localPathKinds = unionPaths.length > 0
    ? await (await import("./local_blobs.ts")).localPathKinds(unionPaths)
    : undefined;
  if ([...spec.inputs.keys()].some((name) => !Object.hasOwn(found.types, name))) {
    checkFixedInputs(spec.inputs, found, await found.fixed());
  }
  const { literals, localBlobs } = inputLiterals(spec.inputs, found.types, {
    oldDataclassFormat: options.oldDataclassFormat,
    localPathKinds,
  });
  checkRequiredInputs(spec.inputs, spec.file, found);
  const target = {
    project: firstSet(options.targetProject, spec.targetProject) ?? options.project,
    domain: firstSet(options.targetDomain, spec.targetDomain) ?? options.domain,
  };
  if (localBlobs.length > 0) {
    // Loaded only for local paths: the uploads' code (storage, hashing, directories) is not every execution's.
    const { checkLocalBlobs, uploadLocalBlobs } = await import("./local_blobs.ts");
    // A dry run checks the paths as a run would, and uploads nothing: its request keeps them.
    if (options.dryRun) await checkLocalBlobs(localBlobs, options.upload !== undefined, options.signal);
    else await uploadLocalBlobs(client, localBlobs, target, options.upload, options.signal);
  }
  // Told once the inputs are known good: a refused file stays one line.
  if (!found.given) options.onVersion?.(found.version);
  const serviceAccount = firstSet(options.kubeServiceAcct, spec.kubeServiceAcct) ?? "";
  const iamRole = firstSet(options.iamRoleARN, spec.iamRoleARN) ?? "";
  const clusterPool = firstSet(options.clusterPool, spec.clusterPool);
  const clusterLabel = firstSet(options.targetExecutionCluster, spec.targetExecutionCluster);
  const envs = new Map(spec.envs);
  for (const [key, value] of options.envs ?? []) envs.set(key, value);
  const request = create(schema, {
    ...target,
    name: options.name ?? "",
    spec: {
      launchPlan: found.id,
      metadata: { mode: ExecutionMetadata_ExecutionMode.MANUAL, principal: "sdk" },
      ...(serviceAccount || iamRole
        ? {
          authRole: { kubernetesServiceAccount: serviceAccount, assumableIamRole: iamRole },
          securityContext: { runAs: { k8sServiceAccount: serviceAccount, iamRole } },
        }
        : {}),
      ...(clusterPool ? { clusterAssignment: { clusterPoolName: clusterPool } } : {}),
      overwriteCache: options.overwriteCache ?? spec.overwriteCache ?? false,
      envs: { values: [...envs].map(([key, value]) => ({ key, value })) },
      ...(clusterLabel ? { executionClusterLabel: { value: clusterLabel } } : {}),
    },
    inputs: { literals },
  });
  return { request, schema };
}

function idOf(response: { id?: { project: string; domain: string; name: string } }) {
  return { project: response.id?.project ?? "", domain: response.id?.domain ?? "", name: response.id?.name ?? "" };
}
