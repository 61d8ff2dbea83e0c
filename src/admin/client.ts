/**
 * Typed admin-service clients over Connect's gRPC transport for Node (HTTP/2).
 *
 * This module loads Connect, so only commands that talk to the admin service import it (lazily), keeping
 * `fctl --help` light. The service descriptors load with a service's first call, each from the smallest
 * generated file that declares the method: `fctl get task` loads the descriptors of tasks, not those of
 * workflows, launch plans or the data proxy.
 *
 * @module
 */
import type { DescService } from "@bufbuild/protobuf";
import {
  type CallOptions as ConnectCallOptions,
  type Client,
  createClient,
  createContextValues,
  type Interceptor,
  type Transport,
} from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import type { AdminService } from "../../proto/gen/fctl/admin_calls_pb.ts";
import type { DataProxyService } from "../../proto/gen/flyteidl/service/dataproxy_pb.ts";
import { CALL_SIGNAL, callSignalInterceptor } from "./call_signal.ts";
import { transportStatusInterceptor } from "./transport_status.ts";
import { type ConnectionDescription, mapAdminError } from "./errors.ts";
import { retryInterceptor } from "./retry.ts";
import { userAgentInterceptor } from "./user_agent.ts";
import { type AdminSessions, adminSessions } from "./sessions.ts";
import type { AdminClientOptions } from "./client_options.ts";
import { DEFAULT_MAX_MESSAGE_SIZE } from "../config/schema.ts";
import type {
  AdminRegistrationClient,
  AdminRowsClient,
  AdminServiceClient,
  CallOptions,
  DataProxyServiceClient,
} from "./service_clients.ts";

export type {
  AdminRegistrationClient,
  AdminRowsClient,
  AdminServiceClient,
  CallOptions,
  DataProxyServiceClient,
} from "./service_clients.ts";
export type { AdminClientOptions } from "./client_options.ts";

/**
 * {@link AdminClientOptions} with Connect interceptors, for fctl's own callers (auth, logging); the library
 * adds auth through `connect`, so interceptors are not part of its API.
 */
export interface AdminTransportOptions extends AdminClientOptions {
  /** Extra interceptors (auth, logging), outermost first; they run outside the retries. */
  interceptors?: Interceptor[];
}

/**
 * Clients of the services fctl uses, sharing one HTTP/2 connection.
 *
 * ```ts
 * import { createAdminClient } from "@fctl/fctl";
 *
 * const client = createAdminClient({ endpoint: "dns:///localhost:8089", insecure: true });
 * try {
 *   await client.connect();
 *   console.log((await client.admin.getVersion({})).controlPlaneVersion?.Version);
 * } finally {
 *   client.close();
 * }
 * ```
 */
export interface AdminClient {
  /** flyteidl's `AdminService`, the methods fctl calls (see `proto/client/fctl/admin_calls.proto`): tasks, workflows, launch plans, executions, projects. */
  admin: AdminServiceClient;
  /** The flyteidl `DataProxyService`: upload locations for fast registration. */
  dataProxy: DataProxyServiceClient;
  /**
   * AdminService calls whose answers fill a table, decoded into rows: only the fields fctl's tables show (the
   * same calls as {@link admin}'s, on the same connection).
   */
  rows: AdminRowsClient;
  /**
   * The creates of `register`, with the entities it reads: only the fields registration reads or fills in are
   * declared, the rest travel as unknown fields (the same calls as {@link admin}'s, on the same connection).
   */
  registration: AdminRegistrationClient;
  /** Where the connection goes, for messages. */
  connection: ConnectionDescription;
  /**
   * Opens the HTTP/2 connection ahead of the first call (TCP, TLS and HTTP/2 handshakes), so that
   * work done meanwhile overlaps it. Never rejects: a failure is left for the first call to report.
   */
  connect(): Promise<void>;
  /** Closes the underlying HTTP/2 session; a later call opens a new one. */
  close(): void;
}

/** An {@link AdminClient} with the Connect transport under it, for fctl's own callers of services it calls rarely (auth discovery). */
export interface TransportAdminClient extends AdminClient {
  /** The transport under both clients (with every interceptor). */
  transport: Transport;
}

/** The generated files a client's methods come from, each loading its service descriptor. */
type ServiceFiles<F extends string> = Readonly<Record<F, () => Promise<DescService>>>;

/**
 * Where the AdminService methods fctl calls are declared, one kind each (proto/client/fctl/*_calls.proto): a
 * command loads the descriptors of its kind only, not those of every admin message (admin_calls.proto, which
 * declares them all, is the type of the whole client and no call's file).
 */
const ADMIN_FILES: ServiceFiles<
  "tasks" | "workflows" | "namedEntities" | "launchPlans" | "executions" | "nodeExecutions" | "projects" | "version"
> = {
  tasks: async () => (await import("../../proto/gen/fctl/task_calls_pb.ts")).AdminService,
  workflows: async () => (await import("../../proto/gen/fctl/workflow_calls_pb.ts")).AdminService,
  namedEntities: async () => (await import("../../proto/gen/fctl/named_entity_calls_pb.ts")).AdminService,
  launchPlans: async () => (await import("../../proto/gen/fctl/launch_plan_calls_pb.ts")).AdminService,
  executions: async () => (await import("../../proto/gen/fctl/execution_calls_pb.ts")).AdminService,
  nodeExecutions: async () => (await import("../../proto/gen/fctl/node_execution_calls_pb.ts")).AdminService,
  projects: async () => (await import("../../proto/gen/fctl/project_calls_pb.ts")).AdminService,
  version: async () => (await import("../../proto/gen/fctl/version_calls_pb.ts")).AdminService,
};

/**
 * The file each AdminService method is loaded from (typed: every method of admin_calls.proto, no other);
 * a test checks that each file declares its methods as admin_calls.proto does.
 */
export const ADMIN_METHOD_FILES: Readonly<Record<keyof Client<typeof AdminService>, keyof typeof ADMIN_FILES>> = {
  createTask: "tasks",
  getTask: "tasks",
  listTaskIds: "tasks",
  listTasks: "tasks",
  createWorkflow: "workflows",
  getWorkflow: "workflows",
  listWorkflows: "workflows",
  createLaunchPlan: "launchPlans",
  getLaunchPlan: "launchPlans",
  getActiveLaunchPlan: "launchPlans",
  listLaunchPlans: "launchPlans",
  updateLaunchPlan: "launchPlans",
  createExecution: "executions",
  relaunchExecution: "executions",
  recoverExecution: "executions",
  getExecution: "executions",
  listExecutions: "executions",
  updateExecution: "executions",
  terminateExecution: "executions",
  listNodeExecutions: "nodeExecutions",
  getNodeExecutionData: "nodeExecutions",
  listTaskExecutions: "nodeExecutions",
  listNamedEntities: "namedEntities",
  getNamedEntity: "namedEntities",
  updateNamedEntity: "namedEntities",
  registerProject: "projects",
  updateProject: "projects",
  getProject: "projects",
  listProjects: "projects",
  getVersion: "version",
};

/**
 * DataProxyService's files: the upload call alone (proto/client/fctl/upload_location_calls.proto, its messages
 * declared again whole), as registration and `create execution` upload, and flyteidl's file for the rest, whose
 * messages import flyteidl's literals.
 */
const DATA_PROXY_FILES: ServiceFiles<"uploadLocation" | "dataProxy"> = {
  uploadLocation: async () => (await import("../../proto/gen/fctl/upload_location_calls_pb.ts")).DataProxyService,
  dataProxy: async () => (await import("../../proto/gen/flyteidl/service/dataproxy_pb.ts")).DataProxyService,
};

/** The file each DataProxyService method is loaded from. */
export const DATA_PROXY_METHOD_FILES: Readonly<
  Record<keyof Client<typeof DataProxyService>, keyof typeof DATA_PROXY_FILES>
> = {
  createUploadLocation: "uploadLocation",
  createDownloadLocation: "dataProxy",
  createDownloadLink: "dataProxy",
  getData: "dataProxy",
};

/**
 * Where the row calls are declared (proto/client/fctl/*_row_calls.proto): each answers into the rows of one kind's
 * table (proto/client/fctl/rows/), whose descriptors are a few small messages instead of the kind's whole tree.
 */
const ROW_FILES: ServiceFiles<"tasks" | "launchPlans" | "workflows" | "executions"> = {
  tasks: async () => (await import("../../proto/gen/fctl/task_row_calls_pb.ts")).AdminService,
  launchPlans: async () => (await import("../../proto/gen/fctl/launch_plan_row_calls_pb.ts")).AdminService,
  workflows: async () => (await import("../../proto/gen/fctl/workflow_row_calls_pb.ts")).AdminService,
  executions: async () => (await import("../../proto/gen/fctl/execution_row_calls_pb.ts")).AdminService,
};

/** The file each row call is loaded from; a test checks that each file declares its methods as flyteidl does. */
export const ROW_METHOD_FILES: Readonly<Record<keyof AdminRowsClient, keyof typeof ROW_FILES>> = {
  getTask: "tasks",
  listTasks: "tasks",
  getLaunchPlan: "launchPlans",
  listLaunchPlans: "launchPlans",
  getWorkflow: "workflows",
  listWorkflows: "workflows",
  getExecution: "executions",
  listExecutions: "executions",
};

/**
 * The creates of `register` (proto/client/fctl/registration_calls.proto): AdminService declared again with the
 * entities of registration/entities.proto, so that registering builds no descriptor of flyteidl's specs.
 */
const REGISTRATION_FILES: ServiceFiles<"registration"> = {
  registration: async () => (await import("../../proto/gen/fctl/registration_calls_pb.ts")).AdminService,
};

/** The file each registration call is loaded from; a test checks that it declares its methods as flyteidl does. */
export const REGISTRATION_METHOD_FILES: Readonly<Record<keyof AdminRegistrationClient, "registration">> = {
  createTask: "registration",
  createWorkflow: "registration",
  createLaunchPlan: "registration",
};

/**
 * Loads now the service descriptors of the registration calls (see {@link loadAdminMethods}). Never rejects.
 *
 * ```ts ignore
 * await loadRegistrationMethods();
 * ```
 */
export async function loadRegistrationMethods(): Promise<void> {
  await REGISTRATION_FILES.registration().catch(() => {});
}

/**
 * Loads now the service descriptors that the first call of each of `methods` would load (a few ms each, on that
 * call's way out otherwise): for a caller waiting on the network anyway that knows which calls come next, as a
 * registration waiting for its upload location knows its creates. Never rejects: a file that cannot load fails the
 * call that needs it, as it would without this.
 */
export async function loadAdminMethods(methods: readonly (keyof typeof ADMIN_METHOD_FILES)[]): Promise<void> {
  const files = new Set(methods.map((method) => ADMIN_METHOD_FILES[method]));
  await Promise.all([...files].map((file) => ADMIN_FILES[file]().catch(() => {})));
}

/**
 * A client with the methods of `methodFiles`: a method's first call loads its file's service descriptor (once
 * per file), and every failure of a call becomes an fctl error naming the RPC and the connection. (Not an
 * interceptor: Connect re-wraps whatever an interceptor throws into a ConnectError.)
 */
function lazyClient<C, F extends string>(
  methodFiles: Readonly<Record<string, F>>,
  files: ServiceFiles<F>,
  transport: Transport,
  connection: ConnectionDescription,
): C {
  type Methods = Record<string, (request: unknown, options?: ConnectCallOptions) => Promise<unknown>>;
  const loading = new Map<F, Promise<Methods>>();
  // Once loaded, a file's client is used directly: no await per call on a promise that has long settled.
  const loaded = new Map<F, Methods>();
  const serviceClient = (file: F) => {
    let client = loading.get(file);
    if (!client) {
      client = files[file]().then((service) => {
        const methods = createClient(service, transport) as never as Methods;
        loaded.set(file, methods);
        return methods;
      });
      loading.set(file, client);
    }
    return client;
  };
  const methods: Methods = {};
  for (const [method, file] of Object.entries(methodFiles)) {
    const rpc = method.replace(/^./, (c) => c.toUpperCase());
    methods[method] = async (request, options) => {
      const client = loaded.get(file) ?? await serviceClient(file);
      try {
        return await client[method](request, withCallSignal(options));
      } catch (err) {
        throw mapAdminError(err, rpc, connection);
      }
    };
  }
  return methods as C;
}

/** The options of a call, its signal moved to where {@link callSignalInterceptor} applies it. */
function withCallSignal(options: CallOptions | undefined): ConnectCallOptions | undefined {
  if (!options?.signal) return options;
  const { signal, ...rest } = options;
  return { ...rest, contextValues: createContextValues().set(CALL_SIGNAL, signal) };
}

/**
 * Creates admin clients; no connection is made until the first call. `sessions` are the ones made from the
 * same `options` by {@link adminSessions}, when the caller opened the connection while this module loaded.
 */
export function createAdminClient(
  options: AdminTransportOptions,
  sessions: AdminSessions = adminSessions(options),
): TransportAdminClient {
  const { baseUrl, connection, manager } = sessions;
  const interceptors = [callSignalInterceptor, ...(options.interceptors ?? [])];
  if (options.retry) interceptors.push(retryInterceptor(options.retry));
  interceptors.push(transportStatusInterceptor, userAgentInterceptor);
  // No compression is offered (no `grpc-accept-encoding`), as fctl never did: FlyteAdmin answers uncompressed.
  const readMaxBytes = options.maxMessageSizeBytes || DEFAULT_MAX_MESSAGE_SIZE;
  const transport = createGrpcTransport({
    baseUrl,
    sessionManager: manager,
    interceptors,
    acceptCompression: [],
    readMaxBytes,
  });
  return {
    admin: lazyClient<Client<typeof AdminService>, keyof typeof ADMIN_FILES>(
      ADMIN_METHOD_FILES,
      ADMIN_FILES,
      transport,
      connection,
    ),
    dataProxy: lazyClient<Client<typeof DataProxyService>, keyof typeof DATA_PROXY_FILES>(
      DATA_PROXY_METHOD_FILES,
      DATA_PROXY_FILES,
      transport,
      connection,
    ),
    // The row calls files declare AdminService again, one kind each: service_clients_test.ts checks that
    // AdminRowsClient has each file's methods as Connect types them.
    rows: lazyClient<AdminRowsClient, keyof typeof ROW_FILES>(ROW_METHOD_FILES, ROW_FILES, transport, connection),
    registration: lazyClient<AdminRegistrationClient, "registration">(
      REGISTRATION_METHOD_FILES,
      REGISTRATION_FILES,
      transport,
      connection,
    ),
    connection,
    transport,
    connect: () => manager.connect(),
    close: () => manager.close(),
  };
}
