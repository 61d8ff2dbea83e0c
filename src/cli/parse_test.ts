import { deepEqual, equal, ok as assert, rejects } from "node:assert/strict";
import fc from "fast-check";
import { checkProperty, runs } from "../_test_property.ts";
import { UsageError } from "../errors.ts";
import { groupCommand, lazyGroup, leafCommand } from "./command.ts";
import {
  acceptedFlags,
  COMMAND_TREE,
  type CommandSpec,
  findSubcommand,
  type FlagSpec,
  GLOBAL_FLAGS,
  loadCommand,
  loadCommandTree,
  type LoadedCommand,
} from "./command_tree.ts";
import { parseCommandLine, type RunRequest } from "./parse.ts";

/** The whole tree, every group loaded. */
const TREE = await loadCommandTree(COMMAND_TREE);

/** Every command of the tree with its path from the root, the root included. */
function allPaths(path: LoadedCommand[] = [TREE]): LoadedCommand[][] {
  return [path, ...path[path.length - 1].subcommands.flatMap((c) => allPaths([...path, c]))];
}

/** The names along the help path a command line asks for, its kind, or the command it runs. */
async function outcome(args: string[]): Promise<string> {
  const parsed = await parseCommandLine(args);
  if (parsed.kind === "version" || parsed.kind === "options") return parsed.kind;
  const names = parsed.path.map((c) => c.name).join(" ");
  return parsed.kind === "run" ? `run ${names}` : names;
}

/** What `args` run: the leaf's names, arguments, local flags and global flags. */
async function run(
  args: string[],
): Promise<{ path: string; args: unknown[]; flags: Record<string, unknown>; globals: Record<string, unknown> }> {
  const parsed = await parseCommandLine(args);
  if (parsed.kind !== "run") throw new Error(`${args.join(" ")} asks for ${parsed.kind}`);
  return {
    path: parsed.path.slice(1).map((c) => c.name).join(" "),
    args: [...parsed.args],
    flags: { ...parsed.flags },
    globals: { ...parsed.globals },
  };
}

/** The message of the usage error `args` give. */
async function usageError(args: string[]): Promise<string> {
  try {
    await parseCommandLine(args);
  } catch (err) {
    assert(err instanceof UsageError, String(err));
    return err.message;
  }
  throw new Error(`${args.join(" ")} parsed`);
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
    // Help wins over every usage error of the line.
    [["get", "task", "a", "b", "--nope", "--latest=maybe", "-h"], "fctl get task"],
    [["-h", "get", "-o"], "fctl get"],
    // A group of switches.
    [["get", "-hp", "x"], "fctl get"],
    [["get", "task", "--help=true"], "fctl get task"],
  ];
  for (const [args, expected] of cases) equal(await outcome(args), expected, args.join(" "));
});

Deno.test("`help [command...]` and bare command groups print help; leaves and -- run", async () => {
  const cases: [string[], string][] = [
    [[], "fctl"],
    [["help"], "fctl"],
    [["help", "get", "task"], "fctl get task"],
    [["-p", "x", "help", "register", "files"], "fctl register files"],
    [["get", "help", "task"], "fctl get task"],
    [["help", "get", "-o", "json", "task"], "fctl get task"],
    [["get"], "fctl get"],
    [["register", "-p", "x"], "fctl register"],
    // Nothing after -- names a command.
    [["--", "get", "task"], "fctl"],
    [["get", "task"], "run fctl get task"],
    [["get", "task", "help"], "run fctl get task"], // a task called "help"
    [["get", "task", "--", "-h"], "run fctl get task"], // a task called "-h"
  ];
  for (const [args, expected] of cases) equal(await outcome(args), expected, args.join(" "));
});

Deno.test("--version is the program's only before a subcommand; a subcommand's --version takes a value", async () => {
  equal(await outcome(["--version"]), "version");
  equal(await outcome(["-p", "x", "--version"]), "version");
  equal(await outcome(["--version", "nope", "--nope"]), "version");
  equal(await outcome(["--version", "--help"]), "fctl"); // help wins
  deepEqual((await run(["get", "task", "t", "--version", "v1"])).flags, { version: "v1" });
  deepEqual((await run(["get", "task", "t", "--version=v1"])).flags, { version: "v1" });
  deepEqual((await run(["get", "--version", "v1", "task", "t"])).flags, { version: "v1" });
});

Deno.test("`help` naming a command that does not exist is a usage error listing the valid ones", async () => {
  equal(
    await usageError(["help", "nope"]),
    'unknown command "nope" for "fctl"; expected one of: get, task, register, create, delete, update, config, auth, version, completion',
  );
  equal(await usageError(["help", "get", "task", "extra"]), '"fctl get task" has no subcommands, got "extra"');
  equal(
    await usageError(["help", "register", "filez"]),
    'unknown command "filez" for "fctl register"; expected one of: files, examples',
  );
});

Deno.test("global flags go before and after subcommand names, in every spelling", async () => {
  const expected = { project: "p", domain: "d", output: "json", "admin.endpoint": "dns:///h:1" };
  for (
    const args of [
      ["-p", "p", "-d", "d", "-o", "json", "--admin.endpoint", "dns:///h:1", "get", "task"],
      ["get", "-pp", "task", "-dd", "--output=json", "--admin.endpoint=dns:///h:1"],
      ["--project=p", "get", "--domain", "d", "task", "-o=json", "--admin.endpoint", "dns:///h:1"],
      ["tasks", "-p=p", "-d", "d", "-ojson", "--admin.endpoint", "dns:///h:1"],
    ]
  ) {
    const parsed = await run(args);
    equal(parsed.path, args.includes("tasks") ? "task" : "get task", args.join(" "));
    deepEqual(parsed.globals, expected, args.join(" "));
  }
});

Deno.test("a flag that takes a value takes the next word, whatever it is", async () => {
  deepEqual((await run(["get", "task", "-p", "-h"])).globals, { project: "-h" });
  deepEqual((await run(["get", "task", "-p", "--"])).globals, { project: "--" });
  deepEqual((await run(["-o", "get", "task"])).globals, { output: "get" }); // then `task`, the shorthand
  deepEqual((await run(["-o", "get", "task"])).path, "task");
  deepEqual((await run(["get", "task", "--filter.fieldSelector", "task.name=a=b"])).flags, {
    "filter.fieldSelector": "task.name=a=b",
  });
  deepEqual((await run(["get", "task", "--filter.fieldSelector=task.name=a=b"])).flags, {
    "filter.fieldSelector": "task.name=a=b",
  });
});

Deno.test("switches: --x, --x=true|false|t|f|1|0 in any case, and --no-x where the tree has it", async () => {
  const cases: [string[], object][] = [
    [["--admin.insecure"], { "admin.insecure": true }],
    [["--admin.insecure=true"], { "admin.insecure": true }],
    [["--admin.insecure=TRUE"], { "admin.insecure": true }],
    [["--admin.insecure=1"], { "admin.insecure": true }],
    [["--admin.insecure=t"], { "admin.insecure": true }],
    [["--admin.insecure=T"], { "admin.insecure": true }],
    [["--admin.insecure=f"], { "admin.insecure": false }],
    [["--admin.insecure=F"], { "admin.insecure": false }],
    [["--admin.insecure=false"], { "admin.insecure": false }],
    [["--admin.insecure=False"], { "admin.insecure": false }],
    [["--admin.insecure=0"], { "admin.insecure": false }],
    [["--no-admin.insecure"], { "admin.insecure": false }],
    [["--admin.insecure", "--no-admin.insecure"], { "admin.insecure": false }],
    [["--no-admin.insecure", "--admin.insecure"], { "admin.insecure": true }],
  ];
  for (const [flags, expected] of cases) {
    deepEqual((await run(["get", "task", ...flags])).globals, expected, flags.join(" "));
    deepEqual((await run([...flags, "get", "task"])).globals, expected, flags.join(" "));
  }
  deepEqual((await run(["get", "task", "--latest=false", "--filter.asc=1"])).flags, {
    latest: false,
    "filter.asc": true,
  });
  deepEqual((await run(["get", "task", "--no-filter.asc"])).flags, { "filter.asc": false });
  // A local switch set false on the command line wins over its `files.*` option, as any flag wins over the file.
  deepEqual((await run(["register", "files", "a.pb", "--dryRun=false"])).flags, { dryRun: false });
  equal(
    await usageError(["register", "files", "a.pb", "--dryRun=maybe"]),
    'invalid value "maybe" for --dryRun: expected true or false',
  );
  equal(
    await usageError(["get", "task", "--admin.insecure="]),
    'invalid value "" for --admin.insecure: expected true or false',
  );
  for (const text of ["constructor", "__proto__", "yes"]) {
    equal(
      await usageError(["get", "task", `--latest=${text}`]),
      `invalid value "${text}" for --latest: expected true or false`,
    );
  }
  // Only the forms the tree declares: a local switch has no --no- form unless it says so, and --no-x takes no value.
  equal(
    await usageError(["register", "files", "a.pb", "--no-dryRun"]),
    "unknown option '--no-dryRun' (did you mean --dryRun?)",
  );
  equal(await usageError(["get", "task", "--no-admin.insecure=true"]), "unknown option '--no-admin.insecure=true'");
});

Deno.test("list and map flags accumulate wherever they are given; any other flag keeps its last value", async () => {
  deepEqual(
    (await run(["--admin.scopes", "a", "get", "--admin.scopes=b", "task", "--admin.scopes", "c"])).globals,
    { "admin.scopes": ["a", "b", "c"] },
  );
  deepEqual(
    (await run(["get", "task", "--storage.stow.config", "region=x", "--storage.stow.config", "endpoint=y"])).globals,
    { "storage.stow.config": ["region=x", "endpoint=y"] },
  );
  deepEqual((await run(["-p", "a", "get", "task", "-p", "b"])).globals, { project: "b" });
  deepEqual((await run(["get", "task", "--filter.limit", "3", "--filter.limit", "4"])).flags, {
    "filter.limit": "4",
  });
});

Deno.test("a parent's hidden local flags are its leaf's: get --filter.limit 3 task", async () => {
  deepEqual(await run(["get", "--filter.limit", "3", "--latest", "task", "t"]), {
    path: "get task",
    args: ["t"],
    flags: { "filter.limit": "3", latest: true },
    globals: {},
  });
  // Only where the tree puts them: the shorthand's parent is the program, which has none.
  equal(await usageError(["--filter.limit", "3", "task"]), "unknown option '--filter.limit'");
});

Deno.test("aliases name the same command; arguments in declaration order, a variadic one collects the rest", async () => {
  deepEqual(await run(["get", "tasks", "t"]), { path: "get task", args: ["t"], flags: {}, globals: {} });
  deepEqual(await run(["tasks"]), { path: "task", args: [undefined], flags: {}, globals: {} });
  deepEqual((await run(["register", "file", "a.pb", "--archive", "b.pb", "-", "c.pb"])).args, [
    ["a.pb", "b.pb", "-", "c.pb"],
  ]);
  deepEqual((await run(["register", "flytesnacks", "--version", "v1"])).path, "register examples");
  deepEqual((await run(["completion", "bash"])).args, ["bash"]);
  // Negative numbers are a leaf's arguments; after --, anything is.
  deepEqual((await run(["get", "task", "-5"])).args, ["-5"]);
  deepEqual((await run(["register", "files", "--", "-a.pb", "--help", "--"])).args, [["-a.pb", "--help", "--"]]);
});

Deno.test("usage errors: unknown commands and flags with the nearest names, missing values, arguments", async () => {
  const cases: [string[], string][] = [
    [["regster", "files"], "unknown command 'regster' (did you mean register?)"],
    [["get", "tsk"], "unknown command 'tsk' (did you mean task?)"],
    [["get", "tasky"], "unknown command 'tasky' (did you mean one of task, tasks?)"],
    [["register", "flytesnaks"], "unknown command 'flytesnaks' (did you mean flytesnacks?)"], // every alias counts
    [["nope"], "unknown command 'nope'"],
    [["get", "nope", "--nope"], "unknown command 'nope'"],
    [["get", "task", "--nope"], "unknown option '--nope'"],
    [["get", "task", "--projct", "p"], "unknown option '--projct' (did you mean --project?)"],
    [["get", "task", "--lates"], "unknown option '--lates' (did you mean --latest?)"],
    // Hidden flags are accepted, never suggested.
    [["get", "--lates", "task"], "unknown option '--lates'"],
    [["--verison"], "unknown option '--verison' (did you mean --version?)"],
    [["--nope", "get", "task"], "unknown option '--nope'"],
    [["-x"], "unknown option '-x'"],
    [["get", "-5"], "unknown option '-5'"],
    [["get", "task", "-o"], "option '-o, --output <value>' argument missing"],
    [["get", "-o"], "option '-o, --output <value>' argument missing"],
    [["get", "task", "--version"], "option '--version <version>' argument missing"],
    // A missing or bad value is found first, as the line is read.
    [["nope", "-o"], "option '-o, --output <value>' argument missing"],
    [["get", "task", "--nope", "--latest=maybe"], 'invalid value "maybe" for --latest: expected true or false'],
    [["register", "files"], "missing required argument 'paths'"],
    [["completion"], "missing required argument 'shell'"],
    [["get", "task", "a", "b"], "too many arguments for 'task'. Expected 1 argument but got 2: a, b."],
    [["version", "x"], "too many arguments for 'version'. Expected 0 arguments but got 1: x."],
    [["tasks", "a", "b", "-5"], "too many arguments for 'task'. Expected 1 argument but got 3: a, b, -5."],
  ];
  for (const [args, expected] of cases) equal(await usageError(args), expected, args.join(" "));
});

Deno.test("the parser accepts exactly the tree's commands, aliases and flags at each command", async () => {
  for (const path of allPaths()) {
    const names = path.slice(1).map((c) => c.name);
    const leaf = path[path.length - 1];
    if (leaf.subcommands.length > 0) {
      for (const sub of leaf.subcommands) {
        for (const word of [sub.name, ...sub.aliases]) {
          const parsed = await parseCommandLine([...names, word, "-h"]);
          equal(parsed.kind === "help" && parsed.path[parsed.path.length - 1].name, sub.name, word);
        }
      }
      continue;
    }
    const args = leaf.arguments.filter((a) => a.required).map((a) => a.choices?.[0] ?? "x");
    for (const flag of acceptedFlags(path).filter((f) => f.long !== "help" && f.long !== "version" || f.value)) {
      const given = flag.value ? [`--${flag.long}`, "v"] : [`--${flag.long}`];
      const parsed = await run([...names, ...args, ...given]);
      const key = flag.long.replace(/^no-/, "");
      const values: Record<string, unknown> = GLOBAL_FLAGS.includes(flag) ? parsed.globals : parsed.flags;
      const expected = flag.value ? (flag.repeated ? ["v"] : "v") : !flag.long.startsWith("no-");
      deepEqual(values[key], expected, `${names.join(" ")} --${flag.long}`);
    }
  }
  // And no flag of another command.
  equal(await usageError(["config", "view", "--latest"]), "unknown option '--latest'");
  equal(await usageError(["get", "task", "--dryRun"]), "unknown option '--dryRun'");
});

/** A tree whose groups count their loads: which ones a command line loads. */
function countingTree() {
  const loads: string[] = [];
  const leaf = (name: string) =>
    leafCommand({
      name,
      description: name,
      arguments: [],
      flags: [],
      options: () => ({}),
      run: () => Promise.resolve(),
    });
  const group = (name: string, aliases: string[] = []) => ({
    ...lazyGroup(name, name, () => {
      loads.push(name);
      return Promise.resolve([leaf(`${name}-leaf`)]);
    }),
    aliases,
  });
  const root = groupCommand("prog", "a program", [group("alpha"), group("beta", ["bet"]), leaf("plain")]);
  return { root, loads };
}

Deno.test("only the groups a command line names are loaded, even for errors and suggestions", async () => {
  const { root, loads } = countingTree();
  equal((await parseCommandLine(["--help"], root)).kind, "help");
  equal((await parseCommandLine([], root)).kind, "help");
  equal((await parseCommandLine(["plain", "-p", "x"], root)).kind, "run");
  await rejects(parseCommandLine(["alpa"], root), /^UsageError: unknown command 'alpa' \(did you mean alpha\?\)$/);
  await rejects(parseCommandLine(["--nope", "alpha"], root), /unknown option '--nope'/);
  deepEqual(loads, []);
  equal((await parseCommandLine(["bet", "beta-leaf"], root)).kind, "run");
  deepEqual(loads, ["beta"]);
  equal((await parseCommandLine(["help", "alpha"], root)).kind, "help");
  deepEqual(loads, ["beta", "alpha"]);
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
  "-p=x",
  "--project=x",
  "--filter.limit",
  "3",
  "-5",
  "--latest",
  "--latest=false",
  "--nope",
  "--archive",
  "--",
  "-",
  "-o",
  "json",
  "--admin.insecure=true",
  "--no-admin.insecure",
  "--admin.scopes",
  "-x",
  "-hx",
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

Deno.test("property: any command line gives a valid path, the version, or one usage error line; never anything else", async () => {
  await checkProperty(
    "parse: any command line gives a valid path, the version, or one usage error line",
    fc.asyncProperty(
      fc.array(fc.oneof(fc.constantFrom(...VOCABULARY), fc.string()), { maxLength: 8 }),
      async (args) => {
        try {
          const parsed = await parseCommandLine(args);
          if (parsed.kind === "help" || parsed.kind === "run") assert(await isPathFromRoot(parsed.path));
          if (parsed.kind === "run") {
            const leaf = parsed.path[parsed.path.length - 1];
            equal(leaf.subcommands.length, 0);
            equal(parsed.args.length, leaf.arguments.length);
          }
        } catch (err) {
          assert(err instanceof UsageError, String(err));
          assert(!err.message.includes("\n") || args.some((a) => a.includes("\n")), err.message);
        }
      },
    ),
    { numRuns: runs(2000) },
  );
});

Deno.test("property: -h or --help before -- (and not a flag's value) always prints help", async () => {
  await checkProperty(
    "parse: -h or --help before -- (and not a flag's value) always prints help",
    fc.asyncProperty(
      fc.array(fc.constantFrom(...VOCABULARY.filter((w) => w !== "--" && w !== "help")), { maxLength: 6 }),
      fc.constantFrom("-h", "--help"),
      fc.nat(6),
      async (args, flag, at) => {
        const line = [...args];
        const position = Math.min(at, line.length);
        // Right after a flag that takes a value, `-h` is that value.
        fc.pre(!line[position - 1]?.startsWith("-"));
        line.splice(position, 0, flag);
        equal((await parseCommandLine(line)).kind, "help");
      },
    ),
    { numRuns: runs(1000) },
  );
});

/** A word that is an argument wherever it stands in a leaf: not a flag, not `--`. */
const ARGUMENT = fc.oneof(
  fc.string().filter((s) => !s.startsWith("-") || /^-\d+$/.test(s)),
  fc.constantFrom("-", "-1", "help", "task"),
);

/** One flag as written on a command line, with the value the parse must give it. */
interface Written {
  flag: FlagSpec;
  words: readonly string[];
  /** The value the flag stands for: a string, or a switch's boolean. */
  value: string | boolean;
}

/** `flag` with `value` in one of its spellings. */
function spellings(flag: FlagSpec): fc.Arbitrary<Written> {
  if (!flag.value) {
    if (flag.long.startsWith("no-")) return fc.constant({ flag, words: [`--${flag.long}`], value: false });
    return fc.oneof(
      fc.constant<Written>({ flag, words: [`--${flag.long}`], value: true }),
      fc.constantFrom("true", "false", "1", "0", "TRUE", "False").map((text) => ({
        flag,
        words: [`--${flag.long}=${text}`],
        value: text === "1" || text.toLowerCase() === "true",
      })),
    );
  }
  return fc.tuple(fc.string(), fc.nat(3)).map(([value, form]): Written => {
    if (form === 1) return { flag, words: [`--${flag.long}=${value}`], value };
    if (form === 2 && flag.short && !value.startsWith("=") && value !== "") {
      return { flag, words: [`-${flag.short}${value}`], value };
    }
    if (form === 3 && flag.short) return { flag, words: [`-${flag.short}`, value], value };
    return { flag, words: [`--${flag.long}`, value], value };
  });
}

/**
 * A command line that runs a leaf, written from the tree: its path, its arguments, and flags each given where a
 * command of the path accepts it (global flags anywhere, a parent's hidden local flags before the leaf's name).
 */
const INVOCATION = fc.constantFrom(...allPaths().filter((p) => p[p.length - 1].subcommands.length === 0)).chain(
  (path) => {
    const leaf = path[path.length - 1];
    // For each flag, the levels (0: before the first subcommand's name) whose command accepts it, as it is.
    const levels = (flag: FlagSpec) =>
      path.map((_, i) => i).filter((i) =>
        acceptedFlags(path.slice(0, i + 1)).some((f) => f.long === flag.long && !f.value === !flag.value)
      );
    const flags = acceptedFlags(path).filter((f) => f.long !== "help" && !(f.long === "version" && !f.value));
    const count = leaf.arguments.some((a) => a.variadic) ? 4 : leaf.arguments.length;
    const required = leaf.arguments.filter((a) => a.required).length;
    return fc.record({
      path: fc.constant(path),
      args: fc.array(ARGUMENT, { minLength: required, maxLength: count }),
      flags: fc.array(
        fc.constantFrom(...flags).chain((flag) =>
          fc.tuple(spellings(flag), fc.constantFrom(...levels(flag)), fc.double({ min: 0, max: 1, noNaN: true }))
        ),
        { maxLength: 6 },
      ),
    });
  },
);

Deno.test("property: a command line written from the tree parses back to what was written", async () => {
  await checkProperty(
    "parse: a command line written from the tree parses back to what was written",
    fc.asyncProperty(INVOCATION, async ({ path, args, flags }) => {
      // Words after each command's name: that level's flags, in random order among the leaf's arguments.
      const levels: { order: number; words: readonly string[] }[][] = path.map(() => []);
      flags.forEach(([written, level, order]) => levels[level].push({ order, words: written.words }));
      // The arguments keep their order among themselves.
      args.forEach((arg, i) => levels[path.length - 1].push({ order: (i + 0.5) / args.length, words: [arg] }));
      const line: string[] = [];
      path.forEach((command, i) => {
        if (i > 0) line.push(command.name);
        for (const w of levels[i].sort((a, b) => a.order - b.order)) line.push(...w.words);
      });
      const parsed = await parseCommandLine(line) as RunRequest;
      equal(parsed.kind, "run", line.join(" "));
      deepEqual(parsed.path.map((c) => c.name), path.map((c) => c.name));
      // Expected values: the last of each flag, every value of a repeated one, in command-line order.
      const expected = { flags: {} as Record<string, unknown>, globals: {} as Record<string, unknown> };
      const inOrder = flags.map(([written, level, order]) => ({ written, level, order }))
        .sort((a, b) => a.level - b.level || a.order - b.order);
      for (const { written: { flag, value } } of inOrder) {
        const key = flag.long.replace(/^no-/, "");
        const target = GLOBAL_FLAGS.includes(flag) ? expected.globals : expected.flags;
        if (!GLOBAL_FLAGS.includes(flag) && !path[path.length - 1].flags.some((f) => f.long === flag.long)) continue;
        target[key] = flag.repeated ? [...(target[key] as string[] ?? []), value] : value;
      }
      deepEqual(parsed.globals, expected.globals, line.join(" "));
      deepEqual(parsed.flags, expected.flags, line.join(" "));
      const leaf = path[path.length - 1];
      deepEqual(
        parsed.args,
        leaf.arguments.map((a, i) => a.variadic ? args.slice(i) : args[i]),
        line.join(" "),
      );
    }),
    { numRuns: runs(2000) },
  );
});
