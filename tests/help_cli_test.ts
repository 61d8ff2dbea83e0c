/**
 * Help through the CLI: every way of asking gives the same screen, on stdout with exit 0, and a
 * wrong command name in `help` is one usage error.
 */
import { equal, match, ok as assert } from "node:assert/strict";
import { runFctl, runFctlProcess } from "./helpers.ts";
import { DEFAULT_CONCURRENCY } from "../src/register/register_files.ts";

Deno.test("fctl, fctl help and fctl --help print the same program help", async () => {
  const screens = await Promise.all([[], ["help"], ["--help"], ["-h"]].map((args) => runFctl(args)));
  for (const screen of screens) {
    equal(screen.code, 0);
    equal(screen.stderr, "");
    equal(screen.stdout, screens[0].stdout);
  }
  match(
    screens[0].stdout,
    /^Usage: fctl \[options\] \[command\]\n\nA command-line client for the Flyte admin service\n/,
  );
  for (const command of ["get", "task|tasks [name]", "register", "config", "help [command...]"]) {
    assert(screens[0].stdout.includes(`\n  ${command} `), command);
  }
});

Deno.test("help of a subcommand is the same whether asked with help, -h, or --help among other flags", async () => {
  const screens = await Promise.all([
    ["help", "get", "task"],
    ["get", "task", "-h"],
    ["get", "tasks", "my_task", "--latest", "--help"],
    ["-p", "flytesnacks", "get", "--help", "task"],
    ["get", "help", "task"],
  ].map((args) => runFctl(args)));
  for (const screen of screens) equal(screen.stdout, screens[0].stdout);
  match(screens[0].stdout, /^Usage: fctl get task\|tasks \[options\] \[name\]\n/);
  assert(screens[0].stdout.includes("\n  --filter.fieldSelector <selector>  "));
});

Deno.test("a command group without a subcommand prints its help", async () => {
  const { code, stdout } = await runFctl(["register"]);
  equal(code, 0);
  match(stdout, /^Usage: fctl register \[options\] \[command\]\n/);
  assert(stdout.includes("\n  files|file <paths...>"));
  assert(stdout.includes("\n  examples|example|flytesnack|flytesnacks "));
});

Deno.test("help for a command that does not exist: one line naming it and the valid ones, exit 2", async () => {
  const { code, stdout, stderr } = await runFctl(["help", "register", "filez"]);
  equal(code, 2);
  equal(stdout, "");
  equal(stderr, 'Error: unknown command "filez" for "fctl register"; expected one of: files, examples\n');
});

Deno.test("an unknown command is one usage error line with the nearest command", async () => {
  const { code, stdout, stderr } = await runFctl(["regster", "files"]);
  equal(code, 2);
  equal(stdout, "");
  equal(stderr, "Error: unknown command 'regster' (did you mean register?)\n");
});

Deno.test("on a terminal help is wrapped to its width; piped it is not", async () => {
  const tty = await runFctl(["register", "files", "--help"], { stdoutIsTerminal: true, columns: 72 });
  for (const line of tty.stdout.split("\n")) assert(line.length <= 72, line);
  const piped = await runFctl(["register", "files", "--help"], { columns: 72 });
  assert(piped.stdout.split("\n").some((line) => line.length > 72));
});

Deno.test("register help states the library's default concurrency (help stays light, so it is written there too)", async () => {
  for (const command of ["files", "examples"]) {
    const { stdout } = await runFctl(["register", command, "--help"]);
    assert(stdout.replace(/\s+/g, " ").includes(`(default ${DEFAULT_CONCURRENCY}; 1 is one at a time)`), command);
  }
});

Deno.test("register examples --help (a fresh process) lists GITHUB_API_URL and GITHUB_TOKEN under Environment", async () => {
  const help = await runFctlProcess(["register", "examples", "--help"]);
  equal(help.code, 0, help.stderr);
  equal(help.stderr, "");
  const environment = /\nEnvironment:\n((?: {2}\S.*\n)+)\n/.exec(help.stdout)?.[1] ?? "";
  match(environment, /^ {2}GITHUB_API_URL +the GitHub REST API root .*\(default https:\/\/api\.github\.com;/m);
  match(environment, /^ {2}GITHUB_TOKEN +a GitHub token, sent as a bearer token to that API's host only/m);
  // Commands that read neither have no such section.
  const files = await runFctl(["register", "files", "--help"]);
  assert(!files.stdout.includes("Environment:"), files.stdout);
});
