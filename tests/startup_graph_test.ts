/**
 * `fctl --help` must stay light: the modules main.ts loads statically (before any command
 * runs) must not include the RPC stack, generated protos or any npm package; the command line is parsed by
 * fctl's own parser, with no command-line library at all.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import denoJson from "../deno.json" with { type: "json" };
import { moduleGraph } from "../scripts/module_graph.ts";

/** The modules `entry` loads before it runs; with `followDynamic`, every module it may load. */
async function staticGraph(entry: string, followDynamic = false): Promise<Set<string>> {
  return (await moduleGraph(entry)).reachable({ dynamic: followDynamic });
}

Deno.test("main.ts statically loads only fctl's own light modules: no npm package, no Node built-in", async () => {
  const graph = [...await staticGraph(new URL("../main.ts", import.meta.url).href)];
  // Any npm package or `node:` module starts Deno's Node compatibility layer (~20 ms, most of `fctl --help`);
  // The RPC stack and the generated protos load only when a command runs.
  const foreign = graph.filter((s) =>
    !s.startsWith("file:") || /node_modules|proto\/gen|src\/(sandbox|register)\//.test(s)
  );
  deepEqual(foreign, []);
  const local = graph.map((s) => s.replace(/^.*?\/(src\/|main\.ts)/, "$1"));
  assert(local.includes("src/cli/help.ts"), "the walk follows main.ts's imports, so the check can fail");
  assert(local.includes("src/cli/parse.ts"), "the parser is fctl's own, loaded before anything runs");
  assert(!local.includes("src/cli/context.ts"), "the run's context loads only when a command runs");
  // The program's help lists the register, config and auth groups by name; their commands load when named.
  const lazy = local.filter((s) => /^src\/cli\/(commands\/(register|config|auth)_|register_options)/.test(s));
  deepEqual(lazy, [], "the lazy groups' command modules");
  assert(local.includes("src/cli/commands/get_task.ts"), "the program's own leaves are loaded: the check can fail");
});

Deno.test("what commands load on demand is visible to deno compile and publish, and loaded only when run", async () => {
  // Literal specifiers: the whole program is in main.ts's graph through its dynamic imports.
  const all = [...await staticGraph(new URL("../main.ts", import.meta.url).href, true)];
  for (
    const module of [
      "src/cli/context.ts",
      "src/tasks/get_task.ts",
      "src/register/register_files.ts",
      "src/cli/commands/register_files.ts",
      "src/cli/commands/config_init.ts",
      "src/cli/commands/auth_login.ts",
    ]
  ) {
    assert(all.some((s) => s.endsWith(module)), module);
  }
  assert(all.some((s) => s.includes("proto/gen/")), "the generated protos");
  // No command-line library anywhere in the program: commander cost ~18 ms of every start (Node built-ins).
  deepEqual(all.filter((s) => /commander/.test(s)), [], "no commander, loaded or on demand");
  equal(Object.hasOwn(denoJson.imports, "commander"), false, "nor among deno.json's imports");
  // Without this, `deno run` reads and parses every one of them before `fctl --help` starts.
  assert((denoJson as { unstable?: string[] }).unstable?.includes("lazy-dynamic-imports"));
});

/** The storage SDKs: any of them loaded means tens of modules parsed for nothing. */
const STORAGE_SDK = /@aws-sdk|@smithy|@azure|@google-cloud|src\/storage\/(s3|gcs|azure)\.ts$/;

Deno.test("the storage SDKs load only when a storage backend is opened: not for --help, get task or registering", async () => {
  const href = (path: string) => new URL(`../${path}`, import.meta.url).href;
  // What `fctl --help`, any command's start-up, `get task` and a registration load before they touch storage.
  for (
    const entry of [
      "main.ts",
      "src/cli/parse.ts",
      "src/cli/context.ts",
      "src/cli/commands/get_task.ts",
      "src/tasks/get_task.ts",
      "src/cli/register_report.ts",
      "src/cli/run_registration.ts",
      "src/register/register_files.ts",
      "src/storage/mod.ts",
    ]
  ) {
    const loaded = [...await staticGraph(href(entry))].filter((s) => STORAGE_SDK.test(s));
    deepEqual(loaded, [], entry);
  }
  // Yet they are in the program, behind storage/mod.ts's literal dynamic imports (so deno compile keeps them).
  const all = [...await staticGraph(href("src/storage/mod.ts"), true)];
  assert(all.some((s) => s.endsWith("src/storage/s3.ts")), "s3.ts behind a dynamic import");
  assert(all.some((s) => s.includes("@aws-sdk")), "the AWS SDK behind it");
  for (const backend of ["gcs", "azure"]) {
    assert(all.some((s) => s.endsWith(`src/storage/${backend}.ts`)), `${backend}.ts behind a dynamic import`);
  }
  assert(all.some((s) => s.includes("@google-cloud/storage")), "Google's client behind gcs.ts");
  assert(all.some((s) => s.includes("@azure/storage-blob")), "the Azure client behind azure.ts");
});

Deno.test("a command opens the admin connection before Connect or any descriptor loads", async () => {
  // connect_admin.ts opens the connection (connectNow) once its static imports have loaded: were Connect or
  // protobuf among them (tens of ms), the TCP and TLS handshakes would wait for them instead of overlapping.
  const graph = [...await staticGraph(new URL("../src/app/connect_admin.ts", import.meta.url).href)];
  deepEqual(graph.filter((s) => /node_modules|proto\/gen/.test(s)), []);
  assert(graph.includes("node:http2"), "the walk follows connect_admin.ts's imports to the session manager");
});

Deno.test("a registration opens the admin connection before its own modules load: its command module is light", async () => {
  // register files|examples open the connection first, then import the registration (protobuf, descriptors,
  // tar): were those among the command module's static imports, they would load before the connection opens.
  for (const command of ["register_files", "register_examples", "version"]) {
    const graph = [...await staticGraph(new URL(`../src/cli/commands/${command}.ts`, import.meta.url).href)];
    deepEqual(graph.filter((s) => /node_modules|proto\/gen|src\/register\//.test(s)), [], command);
    assert(graph.some((s) => s.endsWith("src/cli/command.ts")), "the walk follows the command's imports");
  }
});

Deno.test("the completion scripts and the command tree do not import each other", async () => {
  // The tree holds the completion command, which is handed the tree: neither the command nor the script
  // generators reach command_tree.ts, by static or dynamic import.
  for (const module of ["src/cli/commands/completion.ts", "src/cli/completion/mod.ts"]) {
    const all = [...await staticGraph(new URL(`../${module}`, import.meta.url).href, true)];
    assert(all.some((s) => s.endsWith("src/cli/completion/bash.ts")), `the walk follows ${module}'s imports`);
    deepEqual(all.filter((s) => s.endsWith("src/cli/command_tree.ts")), [], module);
  }
});

Deno.test("a command's run loads its context and the configuration loader in one module graph, not two", async () => {
  // Each dynamic import is a module-graph load of its own (about 0.6 ms of a cold start): the loader comes with
  // the context, which only a command that runs loads.
  const graph = [...await staticGraph(new URL("../src/cli/context.ts", import.meta.url).href)];
  assert(graph.some((s) => s.endsWith("src/config/load.ts")), "config/load.ts among context.ts's static imports");
  // What only a config file with unknown keys or a service config needs loads only then.
  deepEqual(
    graph.filter((s) => /src\/config\/(nearest|service_config)\.ts$/.test(s)),
    [],
    "no key suggester, no service config parser",
  );
  deepEqual(graph.filter((s) => /node_modules|proto\/gen/.test(s)), [], "still no package and no descriptor");
});

Deno.test("a registration asks for its source's upload location before any of flyteidl's generated files loads", async () => {
  // Evaluating a generated file builds its descriptors (a package's entities need tens of ms of a cold process): what
  // `register files` and `register examples` load before the call is asked for must build none, so that the call
  // leaves sooner and the building overlaps its round trip. What they load then: the command, the registration, its
  // outcome and runner modules, and the upload's module, which asks for the location (the call's own service loads
  // inside the admin client, on its way out).
  const before = [
    "src/cli/commands/register_files.ts",
    "src/cli/commands/register_examples.ts",
    "src/register/register_files.ts",
    "src/register/register_examples.ts",
    "src/register/upload.ts",
    "src/cli/register_outcome.ts",
    "src/cli/run_registration.ts",
  ];
  for (const module of before) {
    const graph = [...await staticGraph(new URL(`../${module}`, import.meta.url).href)];
    assert(graph.some((s) => s.endsWith(module)), `the walk starts at ${module}`);
    deepEqual(graph.filter((s) => /proto\/gen\//.test(s)), [], module);
  }
  // The steps that decode, check and send load on demand, behind literal specifiers, so the check can fail.
  const all = [...await staticGraph(new URL("../src/register/register_files.ts", import.meta.url).href, true)];
  for (const module of ["src/register/check_and_send.ts", "src/register/classify.ts", "src/register/execute.ts"]) {
    assert(all.some((s) => s.endsWith(module)), `${module} behind a dynamic import`);
  }
  assert(all.some((s) => s.endsWith("proto/gen/flyteidl/admin/task_pb.ts")), "the descriptors behind them");
});
