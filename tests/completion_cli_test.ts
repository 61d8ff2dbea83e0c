/**
 * `fctl completion`: each shell's script, generated from the command tree, loaded into the real shell and
 * driven as the shell drives it (bash: `COMP_WORDS`/`COMP_CWORD` and the registered function; fish:
 * `complete -C`; zsh: its `bashcompinit` with the same words). CI installs zsh and fish (`.ci/run`);
 * where a shell is missing, its script's text is still checked.
 */
import { deepEqual, equal, match, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { COMPLETION_SHELLS } from "../src/cli/commands/completion.ts";
import { COMMAND_TREE, GLOBAL_FLAGS } from "../src/cli/command_tree.ts";
import { OUTPUT_FORMATS } from "../src/config/schema.ts";
import { runFctl } from "./helpers.ts";

async function script(shell: string): Promise<string> {
  const { code, stdout, stderr } = await runFctl(["completion", shell]);
  equal(code, 0, stderr);
  equal(stderr, "");
  return stdout;
}

async function shellAvailable(shell: string): Promise<boolean> {
  try {
    return (await new Deno.Command(shell, { args: ["-c", "exit 0"], stdout: "null", stderr: "null" }).output())
      .success;
  } catch {
    return false;
  }
}

async function runShell(shell: string, args: string[], cwd: string): Promise<string> {
  const out = await new Deno.Command(shell, { args, cwd, stdout: "piped", stderr: "piped", env: { HOME: cwd } })
    .output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  equal(out.code, 0, text(out.stderr));
  equal(text(out.stderr), "");
  return text(out.stdout);
}

/** Completion cases: the words typed (the last one being completed), and what is offered, sorted. */
const CASES: [string[], string[]][] = [
  [["fctl", ""], [
    "auth",
    "completion",
    "config",
    "create",
    "delete",
    "get",
    "help",
    "register",
    "task",
    "tasks",
    "update",
    "version",
  ]],
  [["fctl", "delete", "execution", "--cau"], ["--cause"]],
  [["fctl", "update", ""], [
    "execution",
    "executions",
    "help",
    "launchplan",
    "launchplan-meta",
    "launchplans",
    "project",
    "projects",
    "task-meta",
    "workflow-meta",
  ]],
  [["fctl", "create", ""], ["execution", "executions", "help", "project", "projects"]],
  [["fctl", "update", "launchplan", "--deac"], ["--deactivate"]],
  [["fctl", "get", ""], [
    "execution",
    "executions",
    "help",
    "launchplan",
    "launchplans",
    "project",
    "projects",
    "task",
    "tasks",
    "workflow",
    "workflows",
  ]],
  [["fctl", "get", "task", "--la"], ["--latest"]],
  [["fctl", "get", "execution", "--no"], ["--nodeID"]],
  [["fctl", "-o", ""], [...OUTPUT_FORMATS].sort()],
  [["fctl", "get", "task", "-p", "flytesnacks", "-o", "J"], ["JSON"]],
  [["fctl", "register", "files", "--archive", "--admin.authType", "P"], ["Pkce"]],
  [["fctl", "completion", ""], [...COMPLETION_SHELLS].sort()],
  [["fctl", "config", "i"], ["init"]],
  [["fctl", "tasks", "--filter.li"], ["--filter.limit"]],
  [["fctl", "help", "re"], ["register"]],
  [["fctl", "register", "files", "pk"], ["pkg.tgz"]],
  [["fctl", "-p", "get", "get", ""], [
    "execution",
    "executions",
    "help",
    "launchplan",
    "launchplans",
    "project",
    "projects",
    "task",
    "tasks",
    "workflow",
    "workflows",
  ]],
  [["fctl", "--version", ""], [
    "auth",
    "completion",
    "config",
    "create",
    "delete",
    "get",
    "help",
    "register",
    "task",
    "tasks",
    "update",
    "version",
  ]],
  [["fctl", "get", "task", "--version", "v1", "--wi"], ["--wide"]],
  [["fctl", "get", "task", "--logger.formatter.type", ""], ["gcp", "json", "text"]],
];

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "fctl-completion-" });
  try {
    await Deno.writeTextFile(join(dir, "pkg.tgz"), "");
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** A bash (or zsh) function call completing `words`, printing the offers one per line. */
function driveLines(words: string[], fn: string): string[] {
  const array = words.map((w) => `'${w}'`).join(" ");
  return [
    `COMP_WORDS=(${array}); COMP_CWORD=${words.length - 1}; COMPREPLY=()`,
    `${fn}`,
    `printf '%s\\n' "\${COMPREPLY[@]}" | LC_ALL=C sort | tr '\\n' ' '; echo`,
  ];
}

Deno.test("bash: the script registers _fctl for fctl, and completes commands, flags and their values", async () => {
  const text = await script("bash");
  match(text, /\ncomplete -o default -F _fctl fctl\n$/);
  if (!(await shellAvailable("bash"))) return;
  await withDir(async (dir) => {
    await Deno.writeTextFile(join(dir, "fctl.bash"), text);
    const program = [
      "source ./fctl.bash",
      "complete -p fctl",
      ...CASES.flatMap(([words]) => driveLines(words, "_fctl")),
    ].join("\n");
    const lines = (await runShell("bash", ["--norc", "--noprofile", "-c", program], dir)).split("\n");
    equal(lines[0], "complete -o default -F _fctl fctl");
    CASES.forEach(([words, expected], i) => equal(lines[i + 1].trim(), expected.join(" "), words.join(" ")));
  });
});

Deno.test("bash: --flag=value, split by bash at '=', completes the value", async () => {
  if (!(await shellAvailable("bash"))) return;
  await withDir(async (dir) => {
    await Deno.writeTextFile(join(dir, "fctl.bash"), await script("bash"));
    const program = ["source ./fctl.bash", ...driveLines(["fctl", "--output", "=", "Y"], "_fctl")].join("\n");
    equal((await runShell("bash", ["--norc", "--noprofile", "-c", program], dir)).trim(), "YAML");
  });
});

Deno.test("zsh: the bash functions under bashcompinit, parsed and driven by zsh", async () => {
  const text = await script("zsh");
  assert(text.startsWith("#compdef fctl\n"));
  assert(text.includes("bashcompinit"));
  assert(text.includes("\ncomplete -o default -F _fctl_bash fctl\n"));
  if (!(await shellAvailable("zsh"))) return;
  await withDir(async (dir) => {
    await Deno.writeTextFile(join(dir, "fctl.zsh"), text);
    await runShell("zsh", ["-n", "fctl.zsh"], dir);
    const program = [
      "source ./fctl.zsh",
      "setopt ksharrays",
      ...CASES.slice(0, 8).flatMap(([words]) => driveLines(words, "_fctl_bash")),
    ].join("\n");
    const lines = (await runShell("zsh", ["-f", "-c", program], dir)).split("\n");
    // zsh's compgen emulation offers every word; zsh matches them against what is typed itself (compadd).
    CASES.slice(0, 8).forEach(([words, expected], i) => {
      const typed = words[words.length - 1];
      const offered = lines[i].trim().split(" ").filter((w) => w && w.startsWith(typed));
      deepEqual(offered, expected, words.join(" "));
    });
  });
});

Deno.test("fish: parsed by fish, and `complete -C` offers the same as bash", async () => {
  const text = await script("fish");
  for (const flag of GLOBAL_FLAGS.filter((f) => !f.hidden)) assert(text.includes(` -l ${flag.long}`), flag.long);
  if (!(await shellAvailable("fish"))) return;
  await withDir(async (dir) => {
    await Deno.writeTextFile(join(dir, "fctl.fish"), text);
    await runShell("fish", ["--no-execute", "fctl.fish"], dir);
    for (const [words, expected] of CASES) {
      const line = words.join(" ");
      const out = await runShell("fish", ["--no-config", "-c", `source fctl.fish; complete -C '${line}'`], dir);
      const offered = out.split("\n").filter(Boolean).map((l) => l.split("\t")[0]);
      deepEqual([...new Set(offered)].sort(), expected, line);
    }
  });
});

Deno.test("powershell: one native completer holding every command, flag and value of the tree", async () => {
  const text = await script("powershell");
  assert(text.includes("Register-ArgumentCompleter -Native -CommandName 'fctl' -ScriptBlock {"));
  for (const sub of COMMAND_TREE.subcommands) assert(text.includes(`'|${sub.name}' = '${sub.name}'`), sub.name);
  assert(text.includes(`'--output' = @(${OUTPUT_FORMATS.map((f) => `'${f}'`).join(", ")})`));
  assert(text.includes("'completion' = @('bash', 'zsh', 'fish', 'powershell')"));
  // Balanced braces and parentheses outside strings: the script parses as one block.
  const code = text.replace(/'(?:[^']|'')*'|"[^"]*"|#[^\n]*/g, "");
  for (const [open, close] of [["{", "}"], ["(", ")"], ["[", "]"]]) {
    equal(code.split(open).length, code.split(close).length, `${open}${close}`);
  }
});

Deno.test("completion reads no configuration: a broken config file does not stop a shell's start-up", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fctl-completion-config-" });
  try {
    await Deno.writeTextFile(join(dir, "config.yaml"), "admin: [unclosed\n");
    const { code, stdout } = await runFctl(["completion", "bash"], {
      env: { FLYTECTL_CONFIG: join(dir, "config.yaml") },
    });
    equal(code, 0);
    equal(stdout, await script("bash"));
    equal((await runFctl(["config", "view"], { env: { FLYTECTL_CONFIG: join(dir, "config.yaml") } })).code, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an unknown shell is one usage error naming it and the valid ones", async () => {
  const { code, stdout, stderr } = await runFctl(["completion", "tcsh"]);
  equal(code, 2);
  equal(stdout, "");
  equal(stderr, 'Error: unknown shell "tcsh" for completion: expected one of bash, zsh, fish, powershell\n');
});
