/**
 * The architecture, checked from the source text: one read of each file, a small import scanner and one
 * `deno publish --dry-run`. Each failure names the file, the import (or use) and the rule it breaks.
 *
 * - The process (`Deno.*`) and Node's built-in modules (`node:*`) are touched only by the adapter files listed in
 *   {@link ADAPTERS}, each for what it lists.
 * - Imports go down the layers of {@link LAYERS} (a module may import its own folder and any folder of a lower
 *   layer; across folders of one layer only as {@link SIDEWAYS} lists), never as {@link FORBIDDEN} says.
 * - No import cycle among the published modules.
 * - Test code is named as test code (`*_test.ts`, test helpers `_test_<what>.ts`), so that deno.json's
 *   `publish.exclude` patterns keep it out of the package, and the package's file list holds none of it.
 *
 * Rules broken by today's code are listed in {@link KNOWN}, each to be removed: the test fails when one no longer
 * occurs, so that list only shrinks.
 */
import { deepEqual, equal } from "node:assert/strict";
import { cycles } from "../scripts/module_graph.ts";

/** The modules that may touch the process or Node's built-in modules, each with what it uses and why. */
const ADAPTERS: Record<string, { uses: readonly string[]; why: string }> = {
  "main.ts": { uses: ["Deno"], why: "the executable: arguments, signals, exit status" },
  "src/app/deno_io.ts": { uses: ["Deno"], why: "the process's streams, terminal and environment, as an Io" },
  "src/app/run_command.ts": {
    uses: ["Deno"],
    why: "runs admin.command for ExternalCommand (argument vector, no shell)",
  },
  "src/app/read_ca.ts": {
    uses: ["node:crypto"],
    why: "parses the CA file's certificates (X509Certificate) to check them",
  },
  "src/executions/local_blobs.ts": {
    uses: ["Deno"],
    why: "checks that a local blob input is a file or directory, as its input takes, before anything is uploaded",
  },
  "src/executions/local_directory.ts": {
    uses: ["Deno"],
    why: "lists a local directory given as an input (links checked against leaving it) before it is uploaded",
  },
  "src/fs/read_bounded.ts": {
    uses: ["Deno"],
    why: "reads the small files a user names (config, secret, CA, tokens) with a size cap",
  },
  "src/fs/write_atomic.ts": {
    uses: ["Deno", "node:path"],
    why: "writes the files a user asks for (exec spec, config init): temp file beside it + rename, mode 0600",
  },
  "src/cli/exec_file.ts": {
    uses: ["Deno", "node:path"],
    why: "writes the exec spec file the user asked for (atomic rename, mode 0600)",
  },
  "src/http/http_client.ts": { uses: ["Deno"], why: "fetch through Deno.createHttpClient (proxy, CA)" },
  "src/http/put.ts": { uses: ["Deno"], why: "uploads a file's bytes: opens the file it is given as the request body" },
  "src/auth/token_file.ts": {
    uses: ["Deno"],
    why: "the token cache file (mode 0600 in a 0700 directory, atomic rename)",
  },
  "src/auth/browser.ts": {
    uses: ["Deno"],
    why: "Pkce's browser opener: the operating system and the programs on PATH",
  },
  "src/auth/loopback.ts": { uses: ["Deno"], why: "Pkce's loopback HTTP server on the redirect URI's port" },
  "src/admin/sessions.ts": { uses: ["node:http2"], why: "the transport: HTTP/2 sessions to the admin service" },
  "src/admin/session_guard.ts": { uses: ["node:http2"], why: "the transport: watches an HTTP/2 session's health" },
  "src/admin/proxy_tunnel.ts": {
    uses: ["node:net", "node:tls", "node:stream", "node:buffer"],
    why: "the transport: an HTTP CONNECT tunnel through a proxy, TLS over it",
  },
  "src/register/upload.ts": {
    uses: ["Deno", "node:crypto", "node:buffer"],
    why: "hashes the fast-registration source file (MD5, as FlyteAdmin's data proxy asks)",
  },
  "src/register/package/archive.ts": {
    uses: ["Deno", "node:path", "node:crypto"],
    why: "package reading: archives extracted to a private temp dir, member names checked against escaping it",
  },
  "src/register/package/members.ts": { uses: ["Deno"], why: "package reading: the files and .pb files a user names" },
  "src/register/package/recycled_reads.ts": {
    uses: ["Deno"],
    why: "package reading: reads an archive file into buffers used again once free",
  },
  "src/storage/local.ts": { uses: ["Deno", "node:path"], why: "the local-disk storage backend" },
  "src/storage/mem.ts": { uses: ["Deno"], why: "the in-memory storage backend reads the files it is given" },
  "src/storage/gcs.ts": {
    uses: ["node:stream", "node:stream/promises", "node:buffer"],
    why: "the GCS client library reads and writes Node streams",
  },
  "src/storage/azure.ts": {
    uses: ["node:stream"],
    why: "the Azure client library downloads into Node streams",
  },
  "src/storage/s3.ts": { uses: ["node:buffer"], why: "the S3 client library's bodies are Buffers" },
  "src/storage/s3_env.ts": {
    uses: ["node:path"],
    why: "the AWS shared config and credentials files under a home directory, joined as the AWS SDK joins them",
  },
  "src/storage/node_streams.ts": {
    uses: ["node:stream", "node:fs", "node:buffer"],
    why: "converts between web streams and the libraries' Node streams; an upload's file or bytes as one",
  },
  "src/storage/from_config.ts": {
    uses: ["node:os", "node:path"],
    why: "where the local and mem fallbacks keep objects: a folder under the system's temp dir",
  },
  // The sandbox is the test admin service that testing.ts publishes: a server, so it uses the network and files.
  "src/sandbox/oauth_server.ts": { uses: ["Deno"], why: "the sandbox's OAuth authorization server (HTTP)" },
  "src/sandbox/test_ca.ts": {
    uses: ["Deno"],
    why: "the production profile's CA and server certificate, made by openssl in a temp dir",
  },
  "src/sandbox/grpc_router.ts": { uses: ["node:http2"], why: "the sandbox's gRPC over HTTP/2 streams" },
  "src/sandbox/grpc_unary.ts": {
    uses: ["node:http2"],
    why: "the sandbox's plain unary gRPC calls: the body read from and the answer written to HTTP/2 streams",
  },
  "src/sandbox/grpc_node_request.ts": {
    uses: ["node:http2"],
    why: "a gRPC call's header, URL and reset signal from its HTTP/2 request",
  },
  "src/sandbox/http2_listener.ts": {
    uses: ["node:http2", "node:net"],
    why: "the sandbox's HTTP/2 server, TLS or plain, on a loopback port",
  },
  "src/sandbox/upload_server.ts": {
    uses: ["node:buffer", "node:crypto", "node:http", "node:https", "node:net"],
    why: "the sandbox's signed-URL upload server (HTTP/1.1, as object stores are) and its MD5 checks",
  },
  "src/sandbox/jwt.ts": { uses: ["node:buffer", "node:crypto"], why: "signs and checks the sandbox's access tokens" },
  "src/sandbox/data_proxy.ts": { uses: ["node:buffer"], why: "the sandbox's data proxy: signed upload URLs" },
};

/**
 * The layers, highest first. A module may import modules of its own folder and of any folder of a lower layer.
 * The library's entry points never import src/cli: src/lib shares its layer (and SIDEWAYS lists no import between
 * them), and FORBIDDEN keeps mod.ts and types.ts from it.
 */
const LAYERS: readonly { name: string; folders: readonly string[] }[] = [
  { name: "entry points", folders: ["main.ts", "mod.ts", "testing.ts", "types.ts"] },
  { name: "front ends", folders: ["src/cli/", "src/lib/", "src/sandbox/"] },
  { name: "app", folders: ["src/app/"] },
  {
    name: "domain",
    folders: [
      "src/tasks/",
      "src/register/",
      "src/workflows/",
      "src/executions/",
      "src/projects/",
      "src/launchplans/",
      "src/get/",
      "src/github/",
    ],
  },
  { name: "clients", folders: ["src/admin/", "src/auth/", "src/http/", "src/storage/"] },
  { name: "config", folders: ["src/config/"] },
  { name: "log", folders: ["src/log/"] },
  { name: "output and files", folders: ["src/output/", "src/fs/"] },
  { name: "errors and messages", folders: ["src/", "proto/gen/"] },
];

/** Imports between two folders of one layer, each with its reason. */
const SIDEWAYS: Record<string, string> = {
  "src/tasks/ -> src/get/": "what every get shares: paging, filters, the INPUTS and OUTPUTS cells",
  "src/workflows/ -> src/get/": "what every get shares: paging, filters, the INPUTS and OUTPUTS cells",
  "src/projects/ -> src/get/": "what every get shares: paging, filters",
  "src/launchplans/ -> src/get/": "what every get shares: paging, filters, the INPUTS and OUTPUTS cells",
  "src/executions/ -> src/get/": "what every get shares: paging and filters; MessagePack values decoded for display",
  "src/executions/ -> src/tasks/": "create execution reads the task it runs (its version and input types)",
  "src/executions/ -> src/launchplans/": "create execution reads the launch plan it runs (its version and input types)",
  "src/executions/ -> src/register/": "create execution uploads local blob inputs as fast registration uploads",
  "src/executions/ -> src/projects/": "an execution refused for its project or domain says so as a registration does",
  "src/register/ -> src/projects/":
    "a registration refused for its project or domain says what to do about the project",
  "src/launchplans/ -> src/tasks/": "a launch plan's exec spec file is the task's format, with its defaults",
  "src/get/ -> src/tasks/": "literal values are shown as the exec spec writes them (its SpecValue type)",
  "src/register/ -> src/github/": "register examples downloads flytesnacks' release from GitHub",
  "src/auth/ -> src/admin/": "sign-in rides on the admin's errors and endpoint",
  "src/auth/ -> src/http/": "the token endpoints are HTTP",
  "src/storage/ -> src/http/": "the S3 backend and signed URLs upload over fctl's HTTP client",
  "src/storage/ -> src/admin/": "storage settings' checks read the admin endpoint the same way",
  "src/http/ -> src/storage/": "a PUT's body can be a store's source (the StoreSource type)",
};

/** Imports the layers alone would allow but that must not happen. */
const FORBIDDEN: readonly { from: readonly string[]; to: string; why: string }[] = [
  {
    from: ["main.ts", "mod.ts", "types.ts"],
    to: "src/sandbox/",
    why: "the sandbox is test code, published only through testing.ts",
  },
  { from: ["mod.ts", "types.ts"], to: "src/cli/", why: "the library never loads the command line" },
];

/** What the domain may import from src/admin/: the client's types and the errors, never the transport. */
const ADMIN_SURFACE = ["src/admin/client.ts", "src/admin/errors.ts"];

/** Packages only tests may use. */
const TEST_PACKAGES = ["fast-check", "s3rver", "azurite"];

/**
 * Rules broken today, each to be removed (the test fails once one no longer occurs, until its line goes).
 */
const KNOWN: Record<string, string> = {
  // To be removed: parseEndpoint belongs below both (config), or init_file takes the endpoint parsed.
  "src/config/init_file.ts -> src/admin/endpoint.ts": "config init parses the endpoint it writes",
};

/** A file: repository-relative path and text. */
export interface Source {
  path: string;
  text: string;
}

/** The text with comments removed; string literals are kept, or with `blankStrings` emptied. */
function stripComments(text: string, blankStrings: boolean): string {
  return text.replace(
    /\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`/g,
    (token) => token.startsWith("/") ? "" : blankStrings ? '""' : token,
  );
}

/** Every module specifier a file imports or re-exports, statically or with a literal `import()`. */
function specifiersOf(text: string): string[] {
  const code = stripComments(text, false);
  const pattern =
    /\b(?:import|export)\b[^;"'`]*?\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)|\bimport\s*["']([^"']+)["']/g;
  return [...code.matchAll(pattern)].map((m) => m[1] ?? m[2] ?? m[3]);
}

/** A relative specifier of `from` as a repository-relative path; any other specifier as it is. */
function resolve(from: string, specifier: string): string {
  if (!specifier.startsWith(".")) return specifier;
  return new URL(specifier, `file:///repo/${from}`).pathname.slice("/repo/".length);
}

/** Whether a file is test code: the tests folder, `*_test.ts`, a test helper `_test_<what>.ts` or test data. */
export function isTestCode(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return path.startsWith("tests/") || name.endsWith("_test.ts") || name.startsWith("_test_") ||
    path.includes("/testdata/");
}

/** Whether a file is one of the package's modules (an entry point or under src/, not test code). */
function isModule(path: string): boolean {
  return (LAYERS[0].folders.includes(path) || path.startsWith("src/")) && path.endsWith(".ts") && !isTestCode(path);
}

/** The folder of LAYERS a module belongs to: an entry point, `src/<folder>/`, `src/` or `proto/gen/`. */
function folderOf(path: string): string {
  if (path.startsWith("proto/gen/")) return "proto/gen/";
  const parts = path.split("/");
  if (parts[0] !== "src") return path;
  return parts.length === 2 ? "src/" : `src/${parts[1]}/`;
}

function layerOf(folder: string): number {
  return LAYERS.findIndex((layer) => layer.folders.includes(folder));
}

function testPackage(specifier: string): string | undefined {
  const name = specifier.replace(/^npm:/, "");
  return TEST_PACKAGES.find((p) => name === p || name.startsWith(`${p}@`) || name.startsWith(`${p}/`));
}

/** One broken rule: `key` names it for KNOWN (`file -> import`, `file uses X`, `cycle: …`), `message` explains. */
export interface Violation {
  key: string;
  message: string;
}

function processRule(path: string, text: string, imports: readonly string[]): Violation[] {
  const uses = new Set(imports.filter((target) => target.startsWith("node:")));
  if (/\bDeno\./.test(stripComments(text, true))) uses.add("Deno");
  const allowed = ADAPTERS[path]?.uses ?? [];
  return [...uses].filter((use) => !allowed.includes(use)).map((use) => ({
    key: `${path} uses ${use}`,
    message: `${path} uses ${use === "Deno" ? "Deno.*" : use}: only the adapter files listed in ADAPTERS may ` +
      `touch the process or Node's built-in modules, each what it lists (move the use into one, or list it with why)`,
  }));
}

function directionRule(path: string, target: string): Violation[] {
  const from = folderOf(path), to = folderOf(target);
  const key = `${path} -> ${target}`;
  if (to === "src/sandbox/" && from !== "src/sandbox/" && path !== "testing.ts") {
    return [{
      key,
      message: `${key}: the sandbox is imported only by testing.ts and tests; ` +
        `if ${path} is test code, name it _test_<what>.ts (or *_test.ts)`,
    }];
  }
  const forbidden = FORBIDDEN.find((rule) => rule.from.includes(from) && rule.to === to);
  if (forbidden) return [{ key, message: `${key}: ${from} may not import ${to}: ${forbidden.why}` }];
  if (from === to) return [];
  const [fromLayer, toLayer] = [layerOf(from), layerOf(to)];
  if (fromLayer < 0 || toLayer < 0) {
    const unplaced = fromLayer < 0 ? from : to;
    return [{ key, message: `${key}: ${unplaced} is in no layer of LAYERS: place it` }];
  }
  if (LAYERS[fromLayer].name === "domain" && to === "src/admin/" && !ADMIN_SURFACE.includes(target)) {
    return [{ key, message: `${key}: the domain sees src/admin/ only through ${ADMIN_SURFACE.join(" and ")}` }];
  }
  if (toLayer > fromLayer) return [];
  if (toLayer === fromLayer && `${from} -> ${to}` in SIDEWAYS) return [];
  const where = toLayer === fromLayer
    ? `both are ${LAYERS[toLayer].name} and SIDEWAYS does not list ${from} -> ${to}`
    : `${to} (${LAYERS[toLayer].name}) is above ${from} (${LAYERS[fromLayer].name})`;
  return [{ key, message: `${key}: imports go down the layers, and ${where}` }];
}

/** One path around a cycle, from its first module back to it, to show in the failure. */
function cyclePath(component: readonly string[], graph: ReadonlyMap<string, readonly string[]>): string[] {
  const start = component[0], inside = new Set(component);
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const next of graph.get(node) ?? []) {
      if (!inside.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (let at = node; at !== start; at = previous.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [...component, start];
}

/** Every rule `sources` (the repository's TypeScript files) break, except the publish list's. */
export function violations(sources: readonly Source[]): Violation[] {
  const found: Violation[] = [];
  const graph = new Map<string, string[]>();
  const importers = new Map<string, string[]>();
  for (const { path, text } of sources) {
    const imports = specifiersOf(text).map((specifier) => resolve(path, specifier));
    for (const target of imports) importers.set(target, [...importers.get(target) ?? [], path]);
    if (!isModule(path)) continue;
    graph.set(path, imports.filter(isModule));
    found.push(...processRule(path, text, imports));
    for (const target of imports) {
      const name = testPackage(target);
      if (name) {
        found.push({
          key: `${path} -> ${name}`,
          message: `${path} imports ${name}, a test package: if it is test code, name it _test_<what>.ts`,
        });
      } else if (isTestCode(target)) {
        found.push({
          key: `${path} -> ${target}`,
          message: `${path} -> ${target}: a published module imports test code, which the package leaves out`,
        });
      } else if (isModule(target) || target.startsWith("proto/gen/")) found.push(...directionRule(path, target));
    }
  }
  for (const path of graph.keys()) {
    if (LAYERS[0].folders.includes(path)) continue; // the package's exports: only users outside it import them
    const users = importers.get(path) ?? [];
    if (users.length > 0 && users.every(isTestCode)) {
      found.push({
        key: `${path} is imported only by tests`,
        message: `${path} is imported only by tests (${users.join(", ")}): name it _test_<what>.ts`,
      });
    }
  }
  for (const component of cycles(graph)) {
    found.push({
      key: `cycle: ${component.join(", ")}`,
      message: `import cycle: ${cyclePath(component, graph).join(" -> ")}`,
    });
  }
  return found;
}

const ROOT = new URL("../", import.meta.url);

/** The TypeScript files of the entry points, src/, tests/ and scripts/ (those two only as importers). */
export async function repositorySources(): Promise<Source[]> {
  const sources: Source[] = [];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(new URL(dir, ROOT))) {
      const path = dir + entry.name;
      if (entry.isDirectory && entry.name !== "testdata") await walk(`${path}/`);
      else if (entry.isFile && path.endsWith(".ts")) {
        sources.push({ path, text: await Deno.readTextFile(new URL(path, ROOT)) });
      }
    }
  };
  for (const dir of ["src/", "tests/", "scripts/"]) await walk(dir);
  for (const path of [...LAYERS[0].folders, "testing_test.ts"]) {
    sources.push({ path, text: await Deno.readTextFile(new URL(path, ROOT)) });
  }
  return sources.sort((a, b) => a.path.localeCompare(b.path));
}

/** The files `deno publish --dry-run` would publish, repository-relative. */
async function publishedFiles(): Promise<string[]> {
  const output = await new Deno.Command(Deno.execPath(), {
    // No type check and slow types allowed: only the file list matters here (the checks run those).
    args: ["publish", "--dry-run", "--allow-dirty", "--no-check", "--allow-slow-types"],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
  equal(output.success, true, `deno publish --dry-run failed:\n${text}`);
  const root = ROOT.href;
  return [...text.matchAll(/(file:\/\/\S+) \(/g)].map((m) => m[1]).filter((url) => url.startsWith(root))
    .map((url) => decodeURIComponent(url.slice(root.length)));
}

/** What in the published file list is test code: named as tests, or importing a test package or test code. */
export function testCodeIn(published: readonly Source[]): string[] {
  const found: string[] = [];
  for (const { path, text } of published) {
    if (isTestCode(path)) found.push(`${path} is test code by its name`);
    if (!path.endsWith(".ts")) continue;
    for (const target of specifiersOf(text).map((specifier) => resolve(path, specifier))) {
      const name = testPackage(target);
      if (name) found.push(`${path} imports ${name}`);
      else if (isTestCode(target)) found.push(`${path} imports ${target}`);
    }
  }
  return found;
}

function checkAgainstKnown(found: readonly Violation[]): void {
  const fresh = found.filter((v) => !(v.key in KNOWN)).map((v) => v.message);
  deepEqual(fresh, [], `architecture rules broken:\n${fresh.join("\n")}`);
  const keys = new Set(found.map((v) => v.key));
  const fixed = Object.keys(KNOWN).filter((key) => !keys.has(key));
  deepEqual(fixed, [], `no longer broken, so delete them from KNOWN:\n${fixed.join("\n")}`);
}

Deno.test("architecture: process adapters, layer directions, no cycles, test helpers named as such", async () => {
  checkAgainstKnown(violations(await repositorySources()));
});

Deno.test("architecture: every adapter listed exists and uses what it lists, every sideways pair is within a layer", async () => {
  const sources = new Map((await repositorySources()).map((s) => [s.path, s]));
  const stale: string[] = [];
  for (const [path, { uses }] of Object.entries(ADAPTERS)) {
    const source = sources.get(path);
    if (!source) {
      stale.push(`${path} does not exist`);
      continue;
    }
    const imports = specifiersOf(source.text);
    for (const use of uses) {
      const used = use === "Deno" ? /\bDeno\./.test(stripComments(source.text, true)) : imports.includes(use);
      if (!used) stale.push(`${path} no longer uses ${use}`);
    }
  }
  deepEqual(stale, [], `ADAPTERS says more than the code does:\n${stale.join("\n")}`);
  const across = Object.keys(SIDEWAYS).filter((pair) => {
    const [from, to] = pair.split(" -> ").map(layerOf);
    return from < 0 || from !== to;
  });
  deepEqual(across, [], `SIDEWAYS lists pairs that are not two folders of one layer:\n${across.join("\n")}`);
});

Deno.test("architecture: the published files hold no test code", async () => {
  const files = await publishedFiles();
  equal(files.includes("mod.ts") && files.includes("testing.ts"), true, `unexpected file list: ${files.join(", ")}`);
  const published = await Promise.all(
    files.map(async (path) => ({
      path,
      text: path.endsWith(".ts") ? await Deno.readTextFile(new URL(path, ROOT)) : "",
    })),
  );
  const found = testCodeIn(published);
  deepEqual(found, [], `the package would publish test code:\n${found.join("\n")}`);
});

Deno.test("architecture: no file cites notes kept outside the repository", async () => {
  // The repository stands on its own: a comment says what it means rather than pointing at outside notes.
  const outside = /\bREFERENCE\.md\b/;
  const readme = { path: "README.md", text: await Deno.readTextFile(new URL("README.md", ROOT)) };
  const citing = [...await repositorySources(), readme].filter((s) => outside.test(s.text)).map((s) => s.path);
  deepEqual(
    citing,
    [],
    `these files cite notes outside the repository; say what is meant instead:\n${citing.join("\n")}`,
  );
});

Deno.test("architecture: the scan sees each rule broken and ignores comments and strings", () => {
  const found = violations([
    { path: "src/tasks/a.ts", text: 'const env = Deno.env.get("X");\nimport { c } from "../cli/context.ts";' },
    {
      path: "src/tasks/b.ts",
      text: '// Deno.exit() in a comment\nconst s = "Deno.exit()";\nimport type { A } from "../admin/client.ts";\n' +
        'import { s } from "../admin/sessions.ts";',
    },
    { path: "src/output/c.ts", text: 'import { join } from "node:path";\nexport { x } from "../storage/d.ts";' },
    { path: "src/storage/d.ts", text: 'const fc = await import("fast-check");\nimport "./e.ts";' },
    { path: "src/storage/e.ts", text: 'import { f } from "./d.ts";\nimport { s } from "../sandbox/mod.ts";' },
    { path: "src/lib/f.ts", text: '/* import "../cli/run.ts"; */ import { c } from "../cli/context.ts";' },
    { path: "src/log/only_tested.ts", text: "" },
    { path: "src/log/only_tested_test.ts", text: 'import "./only_tested.ts";\nimport "../sandbox/mod.ts";' },
    { path: "mod.ts", text: 'export * from "./src/cli/run.ts";\nexport * from "./src/get/_test_x.ts";' },
  ]);
  deepEqual(found.map((v) => v.key), [
    "src/tasks/a.ts uses Deno",
    "src/tasks/a.ts -> src/cli/context.ts",
    "src/tasks/b.ts -> src/admin/sessions.ts",
    "src/output/c.ts uses node:path",
    "src/output/c.ts -> src/storage/d.ts",
    "src/storage/d.ts -> fast-check",
    "src/storage/e.ts -> src/sandbox/mod.ts",
    "src/lib/f.ts -> src/cli/context.ts",
    "mod.ts -> src/cli/run.ts",
    "mod.ts -> src/get/_test_x.ts",
    "src/log/only_tested.ts is imported only by tests",
    "cycle: src/storage/d.ts, src/storage/e.ts",
  ]);
  deepEqual(found.map((v) => v.message).filter((m) => m.startsWith("import cycle")), [
    "import cycle: src/storage/d.ts -> src/storage/e.ts -> src/storage/d.ts",
  ]);
});

Deno.test("architecture: a cycle is reported as a path around it", () => {
  const graph = new Map([["a.ts", ["b.ts"]], ["b.ts", ["c.ts"]], ["c.ts", ["a.ts"]], ["d.ts", ["a.ts"]]]);
  deepEqual(cycles(graph), [["a.ts", "b.ts", "c.ts"]]);
  deepEqual(cyclePath(["a.ts", "b.ts", "c.ts"], graph), ["a.ts", "b.ts", "c.ts", "a.ts"]);
});

Deno.test("architecture: the published list's check sees test names and test imports", () => {
  deepEqual(
    testCodeIn([
      { path: "src/_test_property.ts", text: 'import fc from "fast-check";' },
      { path: "src/storage/s3.ts", text: 'import S3rver from "npm:s3rver@3";\nimport { x } from "./_test_s3.ts";' },
      { path: "README.md", text: "" },
    ]),
    [
      "src/_test_property.ts is test code by its name",
      "src/_test_property.ts imports fast-check",
      "src/storage/s3.ts imports s3rver",
      "src/storage/s3.ts imports src/storage/_test_s3.ts",
    ],
  );
});
