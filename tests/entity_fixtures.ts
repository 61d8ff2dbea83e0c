/**
 * Seeds what fctl's client cannot create (projects, archived ones, named-entity metadata) into a sandbox with
 * Connect's own client of the whole AdminService, over TLS with a token when the sandbox is production-shaped.
 *
 * @module
 */
import { type Client, createClient } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { AdminService } from "../proto/gen/flyteidl/service/admin_pb.ts";
import { type Sandbox, SANDBOX_CLIENT, type SandboxOptions, startSandbox } from "../src/sandbox/mod.ts";
import { fixture, runFctl, runFctlProcess, type RunResult, SUBPROCESS_HOME } from "./helpers.ts";
import { taskSpec } from "./task_fixtures.ts";
import { int, type LiteralInit, str } from "../src/_test_literals.ts";
import { type IdentifierSchema, ResourceType } from "../proto/gen/flyteidl/core/identifier_pb.ts";
import { clone, create, type MessageInitShape } from "@bufbuild/protobuf";
import { LaunchPlanMetadataSchema, LaunchPlanSpecSchema } from "../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import { FixedRateUnit, type ScheduleSchema } from "../proto/gen/flyteidl/admin/schedule_pb.ts";
import { SimpleType } from "../proto/gen/flyteidl/core/types_pb.ts";

/** Runs `fn` with a client of the sandbox's whole AdminService, on one HTTP/2 connection. */
export async function withFullAdmin(
  sandbox: Sandbox,
  fn: (admin: Client<typeof AdminService>) => Promise<void>,
): Promise<void> {
  const baseUrl = sandbox.endpoint.replace(/^dns:\/\/\//, "http://");
  const sessionManager = new Http2SessionManager(
    baseUrl,
    undefined,
    sandbox.caCertificate ? { ca: sandbox.caCertificate } : undefined,
  );
  const token = sandbox.auth?.issueToken();
  const transport = createGrpcTransport({
    baseUrl,
    sessionManager,
    interceptors: token
      ? [(next) => (req) => (req.header.set("flyte-authorization", `Bearer ${token}`), next(req))]
      : [],
  });
  try {
    await fn(createClient(AdminService, transport));
  } finally {
    sessionManager.abort();
  }
}

/**
 * Two copies of launch plan `id` with a schedule each, `cron_lp` (hourly) and `rate_lp` (every 5 minutes), each input
 * given a default (FlyteAdmin refuses a schedule while an input of the workflow is required: a scheduled run gives
 * none); `activate` makes each active. The names of the copies are returned.
 */
export async function createScheduledCopies(
  admin: Client<typeof AdminService>,
  id: MessageInitShape<typeof IdentifierSchema>,
  activate: boolean,
): Promise<string[]> {
  const spec = (await admin.getLaunchPlan({ id })).spec!;
  const schedules: Record<string, MessageInitShape<typeof ScheduleSchema>> = {
    cron_lp: { ScheduleExpression: { case: "cronSchedule", value: { schedule: "0 * * * *" } } },
    rate_lp: { ScheduleExpression: { case: "rate", value: { value: 5, unit: FixedRateUnit.MINUTE } } },
  };
  for (const [name, schedule] of Object.entries(schedules)) {
    const copy = clone(LaunchPlanSpecSchema, spec);
    copy.entityMetadata = create(LaunchPlanMetadataSchema, { schedule });
    for (const parameter of Object.values(copy.defaultInputs!.parameters)) {
      const value = parameter.var?.type?.type.value === SimpleType.STRING ? str("s") : int(3);
      parameter.behavior = { case: "default", value };
    }
    await admin.createLaunchPlan({ id: { ...id, name }, spec: copy });
    if (activate) await admin.updateLaunchPlan({ id: { ...id, name }, state: 1 });
  }
  return Object.keys(schedules);
}

/** The core package's basic workflow (inputs `a: int`, `b: str`), whose launch plan `registerCore` registers. */
export const CORE_WORKFLOW = "core.flyte_basics.basic_workflow.my_wf";

/** How {@link startCoreExecutions} starts its executions. */
export interface CoreExecutionOptions {
  /** The launch plan (version v1) to run; the basic workflow's by default. */
  launchPlan?: string;
  /** Its inputs; `a: 3, b: "hi"` by default. */
  inputs?: Record<string, LiteralInit>;
  /** The principal the request names (FlyteAdmin records the caller's instead). */
  principal?: string;
}

/** Creates executions named `names` in flytesnacks/development of a launch plan `registerCore` registered. */
export async function startCoreExecutions(
  sandbox: Sandbox,
  names: readonly string[],
  options: CoreExecutionOptions = {},
): Promise<void> {
  const launchPlan = {
    resourceType: ResourceType.LAUNCH_PLAN,
    project: "flytesnacks",
    domain: "development",
    name: options.launchPlan ?? CORE_WORKFLOW,
    version: "v1",
  };
  await withFullAdmin(sandbox, async (admin) => {
    for (const name of names) {
      await admin.createExecution({
        project: "flytesnacks",
        domain: "development",
        name,
        spec: { launchPlan, ...options.principal === undefined ? {} : { metadata: { principal: options.principal } } },
        inputs: { literals: options.inputs ?? { a: int(3), b: str("hi") } },
      });
    }
  });
}

/** A project to register: id, name and description; archived ones are archived after registering. */
export interface TestProject {
  id: string;
  name?: string;
  description?: string;
  archived?: boolean;
}

/** Registers each project (archiving those marked so), then forgets the requests it made. */
export async function seedProjects(sandbox: Sandbox, projects: TestProject[]): Promise<void> {
  await withFullAdmin(sandbox, async (admin) => {
    for (const p of projects) {
      const project = { id: p.id, name: p.name ?? p.id, description: p.description ?? "" };
      await admin.registerProject({ project });
      if (p.archived) await admin.updateProject({ ...project, state: 1 });
    }
  });
  sandbox.clearRequests();
}

/** Registers the flytesnacks core package (tasks, workflows, launch plans) at each version, in order. */
export async function registerCore(sandbox: Sandbox, versions: string[]): Promise<void> {
  for (const version of versions) {
    const args = ["register", "files", "--archive", fixture("flytesnacks-core.tgz"), "--version", version];
    const result = await runFctl([
      ...args,
      "-p",
      "flytesnacks",
      "-d",
      "development",
      "--admin.endpoint",
      sandbox.endpoint,
    ]);
    if (result.code !== 0) throw new Error(`registering ${version}: ${result.stderr}`);
  }
  sandbox.clearRequests();
}

/**
 * The environment of a fresh fctl process signing in to a production-shaped sandbox: `home` as its HOME (one that does
 * not exist: no token cache), Deno's code cache where every test process keeps it, and the sandbox client's secret
 * in `FLYTE_SECRET` (for `--admin.clientSecretEnvVar FLYTE_SECRET`).
 */
export function productionProcessEnv(home: string): Record<string, string> {
  return { HOME: home, DENO_DIR: `${SUBPROCESS_HOME}/.cache/deno`, FLYTE_SECRET: SANDBOX_CLIENT.secret };
}

/**
 * Runs `fctl <args>` as a fresh process under the declared permissions against a production-shaped sandbox (TLS
 * from its CA, OAuth client credentials with the sandbox client's secret from a variable), in the test project
 * and domain.
 */
export async function runProductionProcess(
  sandbox: Sandbox,
  args: string[],
  project = "flytesnacks",
  domain = "development",
): Promise<RunResult> {
  const dir = await Deno.makeTempDir({ prefix: "fctl-get-production-" });
  try {
    await Deno.writeTextFile(`${dir}/ca.pem`, sandbox.caCertificate!);
    const env = productionProcessEnv(`${dir}/no-home`);
    const flags = ["-p", project, "-d", domain, "--admin.endpoint", sandbox.endpoint];
    const auth = ["--admin.caCertFilePath", `${dir}/ca.pem`, "--admin.clientSecretEnvVar", "FLYTE_SECRET"];
    return await runFctlProcess([...args, ...flags, ...auth], env);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** A production-shaped sandbox with a task to read, for sign-in tests: closed, and its directory removed, on disposal. */
export interface ProductionAdmin extends AsyncDisposable {
  sandbox: Sandbox;
  /** A directory of the test's own, holding `ca.pem`; removed with the admin. */
  dir: string;
  /** `get task` of the seeded task `core.sub.process`, newest version, as JSON, with the endpoint and the test CA. */
  get: string[];
}

/**
 * Starts a production-shaped sandbox (`options.production`: TLS from its own CA, OAuth as profiled), writes its CA
 * certificate to a directory named after `prefix`, and seeds the task `core.sub.process` version v7.
 */
export async function productionAdmin(options: SandboxOptions, prefix: string): Promise<ProductionAdmin> {
  const sandbox = await startSandbox(options);
  const dir = await Deno.makeTempDir({ prefix });
  const close = async () => {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  };
  try {
    await Deno.writeTextFile(`${dir}/ca.pem`, sandbox.caCertificate!);
    const spec = taskSpec({ name: "core.sub.process", version: "v7" });
    sandbox.store.addTask({ id: spec.template!.id!, spec });
  } catch (err) {
    await close();
    throw err;
  }
  const get = [
    ...["get", "task", "core.sub.process", "--latest", "-o", "json", "-p", "flytesnacks", "-d", "development"],
    ...["--admin.endpoint", sandbox.endpoint, "--admin.caCertFilePath", `${dir}/ca.pem`],
  ];
  return { sandbox, dir, get, [Symbol.asyncDispose]: close };
}
