import { deepEqual, equal, ok as assert } from "node:assert/strict";
import type { Command } from "commander";
import { captureIo } from "../../tests/helpers.ts";
import { acceptedFlags, COMMAND_TREE, type CommandSpec, flagTerm, GLOBAL_FLAGS } from "./command_tree.ts";
import { renderHelp } from "./help.ts";
import { buildProgram, type TreeCommand } from "./program.ts";
import { CliContext } from "./context.ts";

/** Every command of the tree with its path from the root, the root included. */
function allPaths(path: CommandSpec[] = [COMMAND_TREE]): CommandSpec[][] {
  return [path, ...path[path.length - 1].subcommands.flatMap((c) => allPaths([...path, c]))];
}

/** The commander command of `path`, completed as commander completes the commands it dispatches to. */
function commanderCommand(program: Command, path: readonly CommandSpec[]): Command {
  let command = program;
  for (const spec of path.slice(1)) command = command.commands.find((c) => c.name() === spec.name)!;
  return (command as TreeCommand | undefined)?.complete() ?? command;
}

Deno.test("commander accepts exactly the tree's commands, aliases, arguments and flags", () => {
  const program = buildProgram(new CliContext(captureIo(), new AbortController().signal));
  for (const path of allPaths()) {
    const spec = path[path.length - 1];
    const command = commanderCommand(program, path);
    const where = path.map((c) => c.name).join(" ");
    assert(command, where);
    deepEqual(command.aliases(), [...spec.aliases], where);
    deepEqual(command.commands.map((c) => c.name()), spec.subcommands.map((c) => c.name), where);
    deepEqual(command.registeredArguments.map((a) => a.name()), spec.arguments.map((a) => a.name), where);
    const commanderFlags = command.options.map((o) => o.flags).sort();
    const treeFlags = acceptedFlags(path).filter((f) => f.long !== "help").map(flagTerm).sort();
    deepEqual(commanderFlags, treeFlags, where);
  }
});

Deno.test("commander completes the commands it dispatches to, and only those", async () => {
  const io = captureIo();
  const program = buildProgram(new CliContext(io, new AbortController().signal));
  const find = (parent: Command, name: string) => parent.commands.find((c) => c.name() === name)!;
  const task = find(find(program, "get"), "task");
  equal(task.options.length, 0, "not completed before parsing");
  // A value flag without its value: commander reports it once it parses `get task`'s own options.
  await program.parseAsync(["get", "task", "--filter.limit"], { from: "user" }).then(
    () => assert(false, "parsing succeeded"),
    (err) => equal((err as { code?: string }).code, "commander.optionMissingArgument"),
  );
  assert(io.err().includes("--filter.limit <n>"), io.err());
  assert(find(program, "get").options.length > 0, "the group on the way was completed");
  assert(task.options.length > 0, "the dispatched command was completed");
  equal(find(find(program, "config"), "view").options.length, 0, "a command not named is not");
});

Deno.test("commander's own help text is the tree's rendering (one help, however it is reached)", () => {
  const program = buildProgram(
    new CliContext(captureIo({ stdoutIsTerminal: true, columns: 90 }), new AbortController().signal),
  );
  for (const path of allPaths()) {
    equal(commanderCommand(program, path).helpInformation(), renderHelp(path, 90));
  }
});

Deno.test("help lists every visible flag, command and argument, and no hidden flag", () => {
  for (const path of allPaths()) {
    const text = renderHelp(path);
    const spec = path[path.length - 1];
    for (const flag of acceptedFlags(path)) {
      const listed = text.split("\n").some((line) => line.startsWith(`  ${flagTerm(flag)} `));
      equal(listed, !flag.hidden, `${flagTerm(flag)} in help of ${spec.name}`);
    }
    for (const sub of spec.subcommands) assert(text.includes(`\n  ${[sub.name, ...sub.aliases].join("|")}`));
    for (const argument of spec.arguments) assert(text.includes(`\n  ${argument.name}  `));
  }
  assert(GLOBAL_FLAGS.some((f) => f.hidden), "some flags are hidden, so the check above can fail");
});

Deno.test("on a terminal help fits its width; piped, every description stays on its term's line", () => {
  const longest = (text: string) => Math.max(...text.split("\n").map((l) => l.length));
  for (const path of allPaths()) {
    for (const columns of [60, 80, 120]) {
      const text = renderHelp(path, columns);
      // Only an unbreakable word (a long example) may stick out.
      for (const line of text.split("\n")) assert(line.length <= columns || !/ \S+ /.test(line.trim()), line);
    }
    const piped = renderHelp(path).split("\n");
    for (const line of piped.filter((l) => l.startsWith("  -"))) assert(/\S {2,}\S/.test(line), line);
  }
  assert(longest(renderHelp([COMMAND_TREE])) > 120, "piped help is not wrapped");
});
