import { deepEqual, equal, ok as assert, rejects } from "node:assert/strict";
import fc from "fast-check";
import { UsageError } from "../errors.ts";
import { COMMAND_TREE, type CommandSpec, findSubcommand, loadCommand } from "./command_tree.ts";
import { quickRequest } from "./help_request.ts";

/** The names along the help path a command line asks for, "version", or "commander" when it is not a quick request. */
async function outcome(args: string[]): Promise<string> {
  const request = await quickRequest(args);
  if (!request) return "commander";
  if (request.kind === "version" || request.kind === "options") return request.kind;
  return request.path.map((c) => c.name).join(" ");
}

Deno.test("help is asked for with -h/--help anywhere before --, for the deepest command named", async () => {
  const cases: [string[], string][] = [
    [["--help"], "fctl"],
    [["help", "options"], "options"],
    [["-p", "x", "help", "options"], "options"],
    [["-h"], "fctl"],
    [["get", "task", "--help"], "fctl get task"],
    [["get", "tasks", "-h"], "fctl get task"],
    [["get", "--help", "task"], "fctl get task"],
    [["--help", "get"], "fctl get"],
    [["-p", "flytesnacks", "get", "task", "-h"], "fctl get task"],
    [["-pflytesnacks", "get", "task", "-h"], "fctl get task"],
    [["--project=flytesnacks", "get", "task", "-h"], "fctl get task"],
    [["get", "task", "my_task", "--filter.limit", "3", "-h"], "fctl get task"],
    [["get", "--filter.limit", "3", "task", "-h"], "fctl get task"],
    [["--admin.insecure", "register", "files", "-h"], "fctl register files"],
    [["register", "file", "a.pb", "b.pb", "--help"], "fctl register files"],
    [["register", "flytesnacks", "-h"], "fctl register examples"],
    [["task", "-h"], "fctl task"],
    [["config", "view", "-h"], "fctl config view"],
    // After an unknown option the next word may be its value, so the path stops there.
    [["get", "--nope", "task", "-h"], "fctl get"],
    [["nope", "-h"], "fctl"],
  ];
  for (const [args, expected] of cases) equal(await outcome(args), expected, args.join(" "));
});

Deno.test("`help [command...]` and bare command groups print help; leaves and -- go to commander", async () => {
  const cases: [string[], string][] = [
    [[], "fctl"],
    [["help"], "fctl"],
    [["help", "get", "task"], "fctl get task"],
    [["-p", "x", "help", "register", "files"], "fctl register files"],
    [["get", "help", "task"], "fctl get task"],
    [["get"], "fctl get"],
    [["register", "-p", "x"], "fctl register"],
    [["get", "task"], "commander"],
    [["get", "task", "help"], "commander"], // a task called "help"
    [["get", "task", "--", "-h"], "commander"], // a task called "-h"
    [["nope"], "commander"], // commander's error suggests the nearest command
    [["get", "-o"], "commander"], // commander says the value is missing
    [["--nope"], "commander"],
  ];
  for (const [args, expected] of cases) equal(await outcome(args), expected, args.join(" "));
});

Deno.test("--version is the program's only before a subcommand; a subcommand's --version takes a value", async () => {
  equal(await outcome(["--version"]), "version");
  equal(await outcome(["-p", "x", "--version"]), "version");
  equal(await outcome(["get", "task", "t", "--version", "v1"]), "commander");
  equal(await outcome(["--version", "--help"]), "fctl"); // help wins
});

Deno.test("`help` naming a command that does not exist is a usage error listing the valid ones", async () => {
  await rejects(quickRequest(["help", "nope"]), (err: Error) => {
    assert(err instanceof UsageError);
    equal(
      err.message,
      'unknown command "nope" for "fctl"; expected one of: get, task, register, config, auth, version, completion',
    );
    return true;
  });
  await rejects(quickRequest(["help", "get", "task", "extra"]), /"fctl get task" has no subcommands, got "extra"/);
});

const VOCABULARY = [
  "get",
  "task",
  "tasks",
  "register",
  "files",
  "examples",
  "config",
  "view",
  "help",
  "nope",
  "my_task",
  "-h",
  "--help",
  "--version",
  "-p",
  "-pproj",
  "--project=x",
  "--filter.limit",
  "3",
  "--latest",
  "--nope",
  "--archive",
  "--",
  "-",
  "-o",
  "json",
  "--admin.insecure=true",
  "-x",
];

/** Whether each command of `path` is its parent's subcommand of that name (a group, once loaded, is itself). */
async function isPathFromRoot(path: readonly CommandSpec[]): Promise<boolean> {
  if (path[0] !== COMMAND_TREE) return false;
  for (const [i, command] of path.slice(1).entries()) {
    const node = findSubcommand(path[i], command.name);
    if (!node || await loadCommand(node) !== command) return false;
  }
  return true;
}

Deno.test("property: any command line gives a valid path, version, commander, or a usage error; never anything else", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.oneof(fc.constantFrom(...VOCABULARY), fc.string()), { maxLength: 8 }),
      async (args) => {
        try {
          const request = await quickRequest(args);
          if (request?.kind === "help") assert(await isPathFromRoot(request.path));
        } catch (err) {
          assert(err instanceof UsageError, String(err));
        }
      },
    ),
    { numRuns: 2000 },
  );
});

Deno.test("property: -h or --help before -- (and not a flag's value) always prints help", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.constantFrom(...VOCABULARY.filter((w) => w !== "--" && w !== "help")), { maxLength: 6 }),
      fc.constantFrom("-h", "--help"),
      fc.nat(6),
      async (args, flag, at) => {
        const line = [...args];
        const position = Math.min(at, line.length);
        // Right after a flag that takes a value, `-h` is that value (as commander reads it too).
        fc.pre(!line[position - 1]?.startsWith("-"));
        line.splice(position, 0, flag);
        deepEqual((await quickRequest(line))?.kind, "help");
      },
    ),
    { numRuns: 1000 },
  );
});
