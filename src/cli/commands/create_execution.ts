/**
 * `fctl create execution|executions [name]`: starts an execution of the task or launch plan a spec file names
 * (`get task|launchplan NAME --execFile FILE` writes one), or relaunches or recovers an execution; prints the new
 * execution's id (`--dryRun`: the request, nothing is created).
 *
 * @module
 */
import { MAX_DURATION_MS, parseDuration } from "../../config/duration.ts";
import { UsageError } from "../../errors.ts";
import type { CreateExecutionOptions } from "../../executions/create_execution.ts";
import { type CommandSpec, type FlagSpec, leafCommand } from "../command.ts";
import type { CliContext } from "../context.ts";
import { printNote, printText } from "../../output/print.ts";
import { projectDomain } from "../project_domain.ts";

/** The local flags of `create execution`. */
export const CREATE_EXECUTION_FLAGS = [
  {
    long: "execFile",
    value: "<file>",
    help: "the execution spec file (get task|launchplan NAME --execFile writes one)",
  },
  { long: "relaunch", value: "<execution>", help: "run this execution again with its inputs (wins over the others)" },
  { long: "recover", value: "<execution>", help: "recover this failed execution, reusing its succeeded nodes" },
  { long: "task", value: "<name>", help: "the task to run (over the file's task or workflow)" },
  { long: "workflow", value: "<name>", help: "the launch plan to run (over the file's task or workflow)" },
  {
    long: "version",
    value: "<version>",
    help: "version of the task or launch plan (over the file's; neither: newest)",
  },
  {
    long: "targetProject",
    value: "<project>",
    help: "project to create the execution in (over the file's; default -p)",
  },
  { long: "targetDomain", value: "<domain>", help: "domain to create the execution in (over the file's; default -d)" },
  { long: "kubeServiceAcct", value: "<account>", help: "Kubernetes service account to run as (over the file's)" },
  { long: "iamRoleARN", value: "<arn>", help: "IAM role to assume (over the file's)" },
  { long: "clusterPool", value: "<pool>", help: "cluster pool to run in (over the file's)" },
  { long: "targetExecutionCluster", value: "<label>", help: "execution cluster label (over the file's)" },
  { long: "overwriteCache", help: "run every task even where cached outputs exist" },
  {
    long: "envs",
    value: "<key=value>",
    help: "an environment variable of the execution (repeatable; over the file's)",
    repeated: true,
  },
  {
    long: "dryRun",
    help: "print the request (JSON; -o yaml: YAML) and create nothing (the task or launch plan is still read)",
  },
  {
    long: "wait",
    help: "wait for the execution to end, its progress on stderr: exit 0 if it succeeds, 1 if it fails or is aborted",
  },
  {
    long: "wait-timeout",
    value: "<duration>",
    help: "stop waiting after this long (e.g. 30m, 1h30m; implies --wait): exit 124, the execution goes on",
  },
] as const satisfies readonly FlagSpec[];

/** `--envs k=v` values (repeatable), each split at its first `=`. */
function envsOf(raw: unknown): Map<string, string> {
  const values = raw === undefined ? [] : Array.isArray(raw) ? raw as string[] : [String(raw)];
  const envs = new Map<string, string>();
  for (const value of values) {
    const at = value.indexOf("=");
    if (at <= 0) throw new UsageError(`invalid value ${JSON.stringify(value)} for --envs: expected key=value`);
    envs.set(value.slice(0, at), value.slice(at + 1));
  }
  return envs;
}

/** Whether to wait and for how long at most (`--wait`, `--wait-timeout`), checked before anything is sent. */
function waitOf(wait: boolean, timeout: string | undefined, dryRun: boolean): { timeoutMs?: number } | undefined {
  if (!wait && timeout === undefined) return undefined;
  if (dryRun) throw new UsageError("--wait and --wait-timeout cannot be used with --dryRun: nothing is created");
  if (timeout === undefined) return {};
  const ms = parseDuration(timeout);
  if (ms === undefined || ms <= 0 || ms > MAX_DURATION_MS) {
    throw new UsageError(
      `invalid value ${JSON.stringify(timeout)} for --wait-timeout: expected a duration above 0 such as 30m or 1h30m`,
    );
  }
  return { timeoutMs: ms };
}

/**
 * What `create execution` does: the library's options but for what the run adds (the spec file's contents, the
 * uploads, the environment's dataclass format, the signal), the spec file to read, whether to wait, and how to
 * print the new execution's id.
 */
export interface CreateExecutionCommandOptions {
  create: Omit<CreateExecutionOptions, "spec" | "upload" | "oldDataclassFormat" | "onVersion" | "signal">;
  /** `--execFile`, unless `--relaunch` or `--recover` wins over it: read before anything connects. */
  execFile?: string;
  /** `--wait` (`--wait-timeout`: at most that long); absent: print the id and return. */
  wait?: { timeoutMs?: number };
  format: "TABLE" | "JSON" | "YAML";
}

/** `create execution`. */
export const CREATE_EXECUTION_COMMAND: CommandSpec = leafCommand({
  name: "execution",
  aliases: ["executions"],
  description: "start an execution from a spec file, or relaunch or recover one",
  arguments: [{
    name: "name",
    help: "the new execution's name; without it, the admin names it",
    required: false,
    variadic: false,
  }],
  flags: CREATE_EXECUTION_FLAGS,
  environment: [{
    name: "FLYTE_USE_OLD_DC_FORMAT",
    help: "1, t or true: dataclass inputs given as mappings are sent as protobuf Struct, not MessagePack",
  }],
  globals: ["config", "project", "domain", "output", "admin.endpoint"],
  examples: [
    "fctl create execution -p flytesnacks -d development --execFile exec.yaml --envs LOG_LEVEL=debug --dryRun",
    "fctl create execution -p flytesnacks -d development --execFile exec.yaml --wait --wait-timeout 2h",
    "fctl create execution -p flytesnacks -d development --relaunch f8a1b2c3d4",
    "fctl create execution -p flytesnacks -d development --recover f8a1b2c3d4",
  ],
  options({ args: [name], flags, globals: { config } }): CreateExecutionCommandOptions {
    const { project, domain } = projectDomain(config);
    const format = config.output;
    if (format !== "TABLE" && format !== "JSON" && format !== "YAML") {
      throw new UsageError(`output format ${format} is not available for create execution; use TABLE, JSON or YAML`);
    }
    const expected = { execFile: "file path", relaunch: "execution name", recover: "execution name" } as const;
    for (const flag of ["execFile", "relaunch", "recover", "task", "workflow"] as const) {
      if (flags[flag] === "") {
        const what = flag === "task" ? "task name" : flag === "workflow" ? "launch plan name" : expected[flag];
        throw new UsageError(`invalid value "" for --${flag}: expected a ${what}`);
      }
    }
    if (flags.task !== undefined && flags.workflow !== undefined) {
      throw new UsageError("--task and --workflow both name what runs: give one");
    }
    if (!flags.execFile && !flags.relaunch && !flags.recover) {
      throw new UsageError(
        "executionConfig, relaunch and recover can't be empty. Run the fctl get task/launchplan to generate the config",
      );
    }
    const envs = envsOf(flags.envs);
    const wait = waitOf(flags.wait === true, flags["wait-timeout"], flags.dryRun === true);
    return {
      create: {
        project,
        domain,
        name,
        relaunch: flags.relaunch,
        recover: flags.recover,
        // flytectl's --task and --workflow, only when given.
        ...(flags.task !== undefined ? { task: flags.task } : {}),
        ...(flags.workflow !== undefined ? { workflow: flags.workflow } : {}),
        version: flags.version,
        targetProject: flags.targetProject,
        targetDomain: flags.targetDomain,
        kubeServiceAcct: flags.kubeServiceAcct,
        iamRoleARN: flags.iamRoleARN,
        clusterPool: flags.clusterPool,
        targetExecutionCluster: flags.targetExecutionCluster,
        overwriteCache: flags.overwriteCache,
        envs,
        dryRun: flags.dryRun === true,
      },
      execFile: flags.relaunch || flags.recover ? undefined : flags.execFile,
      wait,
      format,
    };
  },
  async run(ctx, { create, execFile, wait, format }) {
    // The connection opens while the modules load and the spec file is read, as the get commands open it first; a
    // bad file is still refused before any call (a bad admin setting is reported after it).
    const connecting = ctx.admin({ connectNow: true });
    connecting.catch(() => {});
    const [{ createExecution }, { readExecutionSpecFile }, { registrationStorage }] = await Promise.all([
      import("../../executions/create_execution.ts"),
      import("../../executions/spec_file.ts"),
      import("../../app/registration_storage.ts"),
    ]);
    // Local files given as blob inputs go where fast registration puts its archive (the data proxy, else the
    // configured storage); the HTTP client and the storage are made with the first upload, as most executions
    // upload nothing. A storage setting it refuses is refused here, before any call.
    const uploads = registrationStorage(ctx.config, () => ctx.http(), ctx.io.env);
    const spec = execFile ? await readExecutionSpecFile(execFile) : undefined;
    const admin = await connecting;
    const oldFormat = /^(1|t|true)$/i.test(ctx.io.env["FLYTE_USE_OLD_DC_FORMAT"] ?? "");
    const result = await createExecution(admin, {
      ...create,
      upload: { http: uploads.http, openStorage: uploads.openStorage, allowLocalStorage: uploads.allowLocalStorage },
      spec,
      oldDataclassFormat: oldFormat,
      // The admin's text: shown escaped, so that it cannot drive the terminal.
      onVersion: (version) => printNote(ctx.io, `using version ${version}`),
      signal: ctx.signal,
    }).finally(() => uploads.close());
    // The document writer loads only for what prints a document: the default line needs none. It hides secrets
    // inside the document, so that it stays valid.
    const documents = () => import("../../output/render.ts");
    if (!result.id) {
      // A dry run prints the request: as YAML with -o yaml, else as JSON.
      const dry = { rpc: result.rpc, request: result.request };
      return await (await documents()).writeDocument(ctx.io, format === "YAML" ? "YAML" : "JSON", dry);
    }
    const { project: p, domain: d, name: n } = result.id;
    if (format === "JSON" || format === "YAML") await (await documents()).writeDocument(ctx.io, format, result.id);
    else {
      printText(
        ctx.io,
        `execution identifier project:${JSON.stringify(p)} domain:${JSON.stringify(d)} name:${JSON.stringify(n)}\n`,
      );
    }
    if (wait) await waitForOutcome(ctx, admin, { project: p, domain: d, name: n }, wait.timeoutMs);
  },
});

/** `--wait`: the progress on stderr until the execution ends; a failed or aborted one is an error (exit 1). */
async function waitForOutcome(
  ctx: CliContext,
  admin: Awaited<ReturnType<CliContext["admin"]>>,
  id: { project: string; domain: string; name: string },
  timeoutMs: number | undefined,
): Promise<void> {
  const [{ executionFailure, waitForExecution }, { executionProgressDisplay }] = await Promise.all([
    import("../../executions/wait.ts"),
    import("../execution_progress.ts"),
  ]);
  const display = executionProgressDisplay(ctx.io, id.name);
  try {
    const execution = await waitForExecution(admin, id, { signal: ctx.signal, timeoutMs, onUpdate: display.onUpdate });
    const failure = executionFailure(execution);
    if (failure) throw failure;
  } finally {
    display.clear();
  }
}
