/**
 * `fctl get task|tasks [name]` (also the root shorthand `task|tasks`): flytectl's flags (`--version`,
 * `--latest`, `--execFile`, `--filter.*`) → `GetTaskOptions` → `runTaskQuery` → the task table or
 * document, and the execution spec file.
 *
 * @module
 */
import { UsageError } from "../../errors.ts";
import { type CommandSpec, type FlagSpec, leafCommand, WIDE_FLAG } from "../command.ts";
import type { CliContext } from "../context.ts";
import { flagError } from "../flag_values.ts";
import { filterFlags, hintNextPage, listOptions, pagingFlags } from "../get_flags.ts";

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

/** What `run` imports: the library call, the task's columns and the renderer (protos); the exec file writer is `--execFile`'s. */
function loadTaskModules() {
  return Promise.all([
    import("../../tasks/get_task.ts"),
    import("../../tasks/task_view.ts"),
    import("../../output/render.ts"),
  ]);
}

/**
 * `--execFile`'s writer, loaded only when the flag is given: checks the file (asking the user about one that
 * exists) now, and returns the function that writes the task's spec there, resolving to the absolute path written.
 */
async function execFileWriter(ctx: CliContext, file: string) {
  const { prepareExecFile, writeExecFile, absolutePath } = await import("../exec_file.ts");
  const path = await prepareExecFile(ctx.io, file);
  return async (task: Parameters<typeof writeExecFile>[1]): Promise<string> => {
    await writeExecFile(path, task, ctx.clock.now());
    return absolutePath(path);
  };
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
    async run(ctx, [name], flags) {
      const { project, domain } = ctx.projectDomain();
      const format = ctx.config.output;
      // A run that passes its checks makes a call: the connection is opened first, so that its network round
      // trips (TCP, TLS) overlap loading the client's modules and then the task's descriptors. A bad admin
      // setting is reported where the client is used, after the flags are checked; whatever was opened is
      // closed with the run's context.
      const admin = ctx.admin({ connectNow: true });
      await admin.catch(() => {});
      const [
        { taskQuery, runTaskQuery },
        { TASK_COLUMNS, taskJson },
        { checkFormat, render },
      ] = await loadTaskModules();
      checkFormat(format, false);
      let query;
      try {
        query = taskQuery({
          project,
          domain,
          name,
          version: flags.version,
          latest: flags.latest === true,
          newest: flags.execFile !== undefined,
          ...listOptions(flags),
        });
      } catch (err) {
        throw flagError(err, {
          ...pagingFlags(flags),
          latest: { flag: "latest" },
          newest: { flag: "execFile" },
        });
      }
      if (flags.execFile === "") throw new UsageError('invalid value "" for --execFile: expected a file path');
      // Asked before any RPC: the user decides about an existing file before waiting on the network.
      const writeExecFile = flags.execFile === undefined ? undefined : await execFileWriter(ctx, flags.execFile);
      // Ctrl-C cancels the calls: an admin that does not answer is not waited out (attempts × admin.perRetryTimeout).
      const result = await runTaskQuery(await admin, query, ctx.signal);
      if (writeExecFile && result.newest) {
        const written = await writeExecFile(result.newest);
        // Always said, on stderr (stdout keeps the listing): the file is what the user asked for.
        const id = `${result.newest.id?.name} version ${result.newest.id?.version}`;
        ctx.io.stderr.write(`wrote the execution spec of ${id} to ${written}\n`);
      }
      const value = result.kind === "one" ? { one: result.task } : { list: result.tasks };
      await render(ctx.io, format, { columns: TASK_COLUMNS, toJson: taskJson, value }, { wide: flags.wide });
      if (result.kind === "list") hintNextPage(ctx, result.hasMore, "tasks", query.page);
    },
  });
}
