/**
 * `fctl get task|tasks [name]` (also the root shorthand `task|tasks`): flytectl's flags (`--version`,
 * `--latest`, `--execFile`, `--filter.*`) → `GetTaskOptions` → `runTaskQuery` → the task table or
 * document, and the execution spec file.
 *
 * @module
 */
import { UsageError } from "../../errors.ts";
import { checkFormat } from "../../output/check_format.ts";
import type { GetTaskOptions } from "../../tasks/get_task.ts";
import { type CommandSpec, type FlagSpec, leafCommand, WIDE_FLAG } from "../command.ts";
import type { CliContext } from "../context.ts";
import { flagError, type FlagOfOption } from "../flag_values.ts";
import {
  checkNameAndVersion,
  filterFlags,
  hintNextPage,
  listOptions,
  oneVersionFlag,
  pagingFlags,
} from "../get_flags.ts";
import { projectDomain } from "../project_domain.ts";

/** The local flags of `get task`; `get` accepts them too, before `task`, as cobra does. */
export const TASK_FLAGS = [
  {
    long: "version",
    value: "<version>",
    help: "one version of the named task (without a name: filter the listing)",
  },
  { long: "latest", help: "only the newest version of the named task (wins over --version)" },
  {
    long: "execFile",
    value: "<file>",
    help: "write an execution spec file for the named task (for create execution)",
  },
  ...filterFlags("task.name=t1,created_at>=2021-05-24T21:43:12Z"),
  WIDE_FLAG,
] as const satisfies readonly FlagSpec[];

/**
 * What a run imports before its call: the library. The renderer and the task's columns (over rows) or its
 * document (the whole task's descriptors) load while the call is on the network; the exec file writer is
 * `--execFile`'s.
 */
function loadTaskQuery() {
  return import("../../tasks/get_task.ts");
}

/** The renderer and the task's columns, loaded beside the call. */
function loadTaskView() {
  return Promise.all([import("../../output/render.ts"), import("../../tasks/task_columns.ts")]);
}

/** `--execFile`'s writer (`exec_file.ts`), loaded only when the flag is given, with the task's spec. */
async function execFileWriter(ctx: CliContext, file: string) {
  const [{ execFileWriter }, { execSpec }] = await Promise.all([
    import("../exec_file.ts"),
    import("../../tasks/exec_spec.ts"),
  ]);
  return execFileWriter(ctx.io, file, () => ctx.clock.now(), execSpec);
}

/** What `get task` does: the library's query (checked by it), the spec file to write, and how to show the result. */
export interface GetTaskCommandOptions {
  /** The library's options, paging as typed (`taskQuery` refuses a bad one). */
  query: GetTaskOptions;
  /** The flag each library option came from, to name it in the library's refusal (see `flagError`). */
  flagOf: Readonly<Record<string, FlagOfOption>>;
  /** `--execFile`: where to write the named task's execution spec. */
  execFile?: string;
  format: string;
  wide: boolean;
}

/** The task command, under `get` or at the root, with the description of that place. */
export function taskCommand(description: string): CommandSpec {
  return leafCommand({
    name: "task",
    aliases: ["tasks"],
    description,
    arguments: [{
      name: "name",
      help: "task name; without it, every task of the project and domain",
      required: false,
      variadic: false,
    }],
    flags: TASK_FLAGS,
    globals: ["config", "project", "domain", "output", "admin.endpoint"],
    examples: [
      "fctl get task -p flytesnacks -d development",
      "fctl get task core.basic.hello -p flytesnacks -d development --latest -o yaml",
      "fctl get task core.basic.hello -p flytesnacks -d development --version v1 --execFile exec.yaml",
      'fctl get task -p flytesnacks -d development --filter.fieldSelector "task.name=core.basic.hello" --wide',
    ],
    options({ args: [name], flags, globals: { config } }): GetTaskCommandOptions {
      const { project, domain } = projectDomain(config);
      checkNameAndVersion("task", name, flags.version);
      checkFormat(config.output, false);
      if (flags.execFile === "") throw new UsageError('invalid value "" for --execFile: expected a file path');
      return {
        query: {
          project,
          domain,
          name,
          version: flags.version,
          latest: flags.latest === true,
          newest: flags.execFile !== undefined,
          ...listOptions(flags),
        },
        flagOf: { ...pagingFlags(flags), latest: oneVersionFlag("latest", "task"), newest: { flag: "execFile" } },
        execFile: flags.execFile,
        format: config.output,
        wide: flags.wide === true,
      };
    },
    async run(ctx, options) {
      const { format } = options;
      // A run that passes its checks makes a call: the connection is opened first, so that its network round
      // trips (TCP, TLS) overlap loading the client's modules and then the task's descriptors. A bad admin
      // setting is reported where the client is used, after the flags are checked; whatever was opened is
      // closed with the run's context.
      const admin = ctx.admin({ connectNow: true });
      await admin.catch(() => {});
      const { taskQuery, runTaskQuery, runTaskRowQuery } = await loadTaskQuery();
      let query;
      try {
        query = taskQuery(options.query);
      } catch (err) {
        throw flagError(err, options.flagOf);
      }
      // Ctrl-C cancels the calls: an admin that does not answer is not waited out (attempts × admin.perRetryTimeout).
      if (format === "TABLE" && options.execFile === undefined) {
        // A table shows a few fields: they are all that is decoded, and all whose descriptors are built.
        const [result, [{ renderRows }, { TASK_COLUMNS }]] = await Promise.all([
          runTaskRowQuery(await admin, query, ctx.signal),
          loadTaskView(),
        ]);
        const rows = result.kind === "one" ? [result.task] : result.tasks;
        renderRows(ctx.io, TASK_COLUMNS, rows, { wide: options.wide });
        if (result.kind === "list") hintNextPage(ctx, result.hasMore, "tasks", query.page);
        return;
      }
      // Asked before any RPC: the user decides about an existing file before waiting on the network.
      const writeExecFile = options.execFile === undefined ? undefined : await execFileWriter(ctx, options.execFile);
      const [result, [{ render }, { TASK_COLUMNS }], { taskJson }] = await Promise.all([
        runTaskQuery(await admin, query, ctx.signal),
        loadTaskView(),
        import("../../tasks/task_view.ts"),
      ]);
      if (writeExecFile && result.newest) await writeExecFile(result.newest);
      const value = result.kind === "one" ? { one: result.task } : { list: result.tasks };
      await render(ctx.io, format, { columns: TASK_COLUMNS, toJson: taskJson, value }, { wide: options.wide });
      if (result.kind === "list") hintNextPage(ctx, result.hasMore, "tasks", query.page);
    },
  });
}
