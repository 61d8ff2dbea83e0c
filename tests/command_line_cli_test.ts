/**
 * The command line as fresh fctl processes read it (fctl's own parser, `src/cli/parse.ts`): where flags may
 * stand, how a repeated flag and a switch's `=false` count, and the usage errors, each one line with exit 2.
 */
import { deepEqual, equal } from "node:assert/strict";
import { createAdminClient } from "../src/admin/client.ts";
import { startSandbox } from "../src/sandbox/mod.ts";
import { fixture, runFctlProcess } from "./helpers.ts";
import { seedTasks } from "./task_fixtures.ts";

/** The effective value of each of `keys`, as `config view -o json` shows it after `args`. */
async function viewed(args: string[], keys: string[]): Promise<Record<string, unknown>> {
  const { code, stdout, stderr } = await runFctlProcess([...args, "-o", "json"]);
  equal(stderr, "");
  equal(code, 0);
  const rows = JSON.parse(stdout) as { key: string; value: unknown }[];
  return Object.fromEntries(keys.map((key) => [key, rows.find((row) => row.key === key)?.value]));
}

Deno.test("a flag given twice keeps the later value wherever each stands; list flags accumulate across positions", async () => {
  deepEqual(
    await viewed(["-p", "a", "--admin.scopes", "x", "config", "view", "-p=b", "--admin.scopes=y"], [
      "project",
      "admin.scopes",
    ]),
    { project: "b", "admin.scopes": ["x", "y"] },
  );
  deepEqual(await viewed(["config", "-d", "d1", "view", "--domain", "d2"], ["domain"]), { domain: "d2" });
});

Deno.test("flytectl's --otel.* flags are accepted with its defaults, and change nothing else", async () => {
  const keys = ["otel.type", "otel.file.filename", "otel.sampler.parentSampler"];
  deepEqual(
    await viewed(["--otel.type", "jaeger", "config", "view", "--otel.sampler.parentSampler=traceid"], keys),
    { "otel.type": "jaeger", "otel.file.filename": undefined, "otel.sampler.parentSampler": "traceid" },
  );
  // flytectl's defaults, shown as every option's are.
  const help = await runFctlProcess(["help", "options"]);
  equal(help.code, 0, help.stderr);
  for (
    const [flag, value] of [["type", "noop"], ["file.filename", "/tmp/trace.txt"], ["sampler.parentSampler", "always"]]
  ) {
    const line = help.stdout.split("\n").find((text) => text.trimStart().startsWith(`--otel.${flag} `)) ?? "";
    equal(line.includes(`(default ${value})`), true, line);
  }
  // A command that calls the admin runs as without them.
  const sandbox = await startSandbox();
  const client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
  try {
    await seedTasks(client, [{ name: "t", version: "v1" }]);
    const args = ["get", "task", "-p", "flytesnacks", "-d", "development", "--admin.endpoint", sandbox.endpoint];
    const plain = await runFctlProcess(args);
    const traced = await runFctlProcess([
      ...args,
      "--otel.type",
      "otlpgrpc",
      "--otel.otlpgrpc.endpoint",
      "http://127.0.0.1:1",
    ]);
    deepEqual([traced.code, traced.stdout, traced.stderr], [plain.code, plain.stdout, plain.stderr]);
    equal(plain.code, 0, plain.stderr);
  } finally {
    client.close();
    await sandbox.close();
  }
});

Deno.test("a local switch's =false wins over its files.* option in the config file, as every flag wins over the file", async () => {
  const sandbox = await startSandbox();
  const dir = await Deno.makeTempDir({ prefix: "fctl-command-line-" });
  try {
    const config = `${dir}/config.yaml`;
    await Deno.writeTextFile(
      config,
      `admin:\n  endpoint: ${sandbox.endpoint}\n  insecure: true\nfiles:\n  dryRun: true\n`,
    );
    const args = ["register", "files", fixture("69_core.flyte_basics.lp.greet_1.pb"), "--version", "v1", "-c", config];
    const scope = ["-p", "flytesnacks", "-d", "development"];
    const dry = await runFctlProcess([...args, ...scope]);
    equal(dry.code, 0, dry.stderr);
    equal(sandbox.requests.length, 0, "the file's dryRun: nothing sent");
    const real = await runFctlProcess([...args, "--dryRun=false", ...scope]);
    equal(real.code, 0, real.stderr);
    equal(sandbox.requests.filter((r) => r.method === "CreateTask").length, 1);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a subcommand's own --version takes its value in either spelling; the program's prints fctl's", async () => {
  const sandbox = await startSandbox();
  const client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
  try {
    await seedTasks(client, [{ name: "core.basic.hello", version: "v1" }, { name: "core.basic.hello", version: "v2" }]);
    const scope = ["-p", "flytesnacks", "-d", "development", "--admin.endpoint", sandbox.endpoint, "-o", "json"];
    for (const version of [["--version=v1"], ["--version", "v1"]]) {
      const { code, stdout, stderr } = await runFctlProcess(["get", "task", "core.basic.hello", ...version, ...scope]);
      equal(stderr, "", version.join(" "));
      equal(code, 0);
      equal(JSON.parse(stdout).id.version, "v1");
    }
    const program = await runFctlProcess(["--version", "get", "task"]);
    deepEqual([program.code, program.stderr], [0, ""]);
    equal(program.stdout.trim().split(".").length, 3);
  } finally {
    client.close();
    await sandbox.close();
  }
});

Deno.test("usage errors are one line naming the word and what would do, exit 2, nothing on stdout", async () => {
  const cases: [string[], string][] = [
    [["regster", "files"], "unknown command 'regster' (did you mean register?)"],
    // Every alias is a candidate.
    [["register", "flytesnaks"], "unknown command 'flytesnaks' (did you mean flytesnacks?)"],
    [["get", "task", "--projct", "p"], "unknown option '--projct' (did you mean --project?)"],
    [["get", "task", "--nope"], "unknown option '--nope'"],
    [["get", "task", "-o"], "option '-o, --output <value>' argument missing"],
    [["register", "files"], "missing required argument 'paths'"],
    [["get", "task", "a", "b"], "too many arguments for 'task'. Expected 1 argument but got 2: a, b."],
    [["get", "task", "--latest=maybe"], 'invalid value "maybe" for --latest: expected true or false'],
  ];
  for (const [args, message] of cases) {
    const { code, stdout, stderr } = await runFctlProcess(args);
    deepEqual([code, stdout, stderr], [2, "", `Error: ${message}\n`], args.join(" "));
  }
});
