/**
 * Regenerates `proto/gen/` from the flyteidl `.proto` files inside the pinned
 * `@flyteorg/flyteidl` npm package, offline, with buf + protoc-gen-es (both from npm), and
 * `proto/gen/fctl/` from fctl's own client protos in `proto/client/` (see `proto/buf.client.yaml`).
 *
 *   deno task proto           rewrite proto/gen
 *   deno task proto --check   regenerate into a temp dir and fail if proto/gen differs
 *
 * @module
 */
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describeUndocumented } from "./proto_docs.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const protoDir = join(root, "proto");
const committedOut = join(protoDir, "gen");

/** The flyteidl files fctl needs; buf adds everything they import (include_imports). */
const GENERATE_PATHS = [
  "flyteidl_protos/flyteidl/admin",
  "flyteidl_protos/flyteidl/core",
  "flyteidl_protos/flyteidl/service/admin.proto",
  "flyteidl_protos/flyteidl/service/auth.proto",
  "flyteidl_protos/flyteidl/service/dataproxy.proto",
  "flyteidl_protos/flyteidl/service/identity.proto",
];

async function run(cmd: string, args: string[], cwd: string): Promise<void> {
  const denoDir = dirname(Deno.execPath());
  const env = { PATH: `${denoDir}:${Deno.env.get("PATH") ?? ""}` };
  const out = await new Deno.Command(cmd, { args, cwd, env, stdout: "piped", stderr: "piped" }).output();
  if (!out.success) {
    const text = new TextDecoder().decode(out.stderr) + new TextDecoder().decode(out.stdout);
    throw new Error(`${cmd} ${args.join(" ")} failed:\n${text}`);
  }
}

async function flyteidlProtos(): Promise<string> {
  const dir = join(root, "node_modules", "@flyteorg", "flyteidl", "protos");
  try {
    await Deno.stat(dir);
  } catch {
    await run(Deno.execPath(), ["install", "--quiet"], root);
  }
  return await Deno.realPath(dir);
}

/**
 * fctl's client protos: they import flyteidl's messages, and generate only themselves. Each declares
 * flyteidl's AdminService again (a part of it), so each is generated in a workspace of its own.
 */
const CLIENT_FILES = [
  "fctl/admin_calls.proto",
  "fctl/task_calls.proto",
  "fctl/workflow_calls.proto",
  "fctl/named_entity_calls.proto",
  "fctl/launch_plan_calls.proto",
  "fctl/execution_calls.proto",
  "fctl/node_execution_calls.proto",
  "fctl/project_calls.proto",
  "fctl/version_calls.proto",
  "fctl/task_row_calls.proto",
  "fctl/launch_plan_row_calls.proto",
  "fctl/workflow_row_calls.proto",
  "fctl/execution_row_calls.proto",
  "fctl/registration_calls.proto",
  "fctl/upload_location_calls.proto",
];

/**
 * The messages of fctl's own client files: the rows the `*_row_calls.proto` files answer into (see
 * proto/client/fctl/rows/common_rows.proto) and the entities `register` creates (registration/entities.proto).
 * Plain messages, in every client workspace, generated with the first client file that imports them.
 */
const MESSAGE_FILES = [
  "fctl/rows/common_rows.proto",
  "fctl/rows/task_rows.proto",
  "fctl/rows/launch_plan_rows.proto",
  "fctl/rows/workflow_rows.proto",
  "fctl/rows/execution_rows.proto",
  "fctl/registration/entities.proto",
];

/**
 * The flyteidl file that declares what a client file of fctl's declares again (see proto/buf.client.yaml): the
 * DataProxyService's upload call and its messages, or else AdminService.
 */
function redeclared(clientFile: string): string {
  return clientFile === "fctl/upload_location_calls.proto" ? "service/dataproxy.proto" : "service/admin.proto";
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return false;
    throw err;
  }
}

/** Copies the `.proto` files under `from` to `to`, except those at `skip` (paths relative to `from`). */
async function copyTree(from: string, to: string, skip: string[] = [], base = from): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    const src = join(from, entry.name);
    const dst = join(to, entry.name);
    if (skip.includes(relative(base, src))) continue;
    if (entry.isDirectory) await copyTree(src, dst, skip, base);
    else if (entry.name.endsWith(".proto")) await Deno.copyFile(src, dst);
  }
}

async function listFiles(dir: string, base = dir): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) {
      for (const [k, v] of await listFiles(path, base)) files.set(k, v);
    } else {
      files.set(relative(base, path), await Deno.readTextFile(path));
    }
  }
  return files;
}

/**
 * Runs `buf generate` for `paths` in a workspace laid out in `work` from `bufYaml`, with `clientFiles` of
 * `proto/client/` in it; the output goes to `work/gen`.
 */
async function bufGenerate(
  work: string,
  bufYaml: string,
  paths: string[],
  skipFlyteidl: string[] = [],
  clientFiles: string[] = [],
) {
  await copyTree(join(await flyteidlProtos(), "flyteidl"), join(work, "flyteidl_protos", "flyteidl"), skipFlyteidl);
  await copyTree(join(protoDir, "stubs"), join(work, "stubs"));
  for (const file of clientFiles) {
    await Deno.mkdir(dirname(join(work, "client", file)), { recursive: true });
    await Deno.copyFile(join(protoDir, "client", file), join(work, "client", file));
  }
  await Deno.copyFile(join(protoDir, bufYaml), join(work, "buf.yaml"));
  await run(Deno.execPath(), [
    "run",
    "--quiet",
    "-A",
    "npm:@bufbuild/buf@1.74.0",
    "generate",
    "--template",
    join(protoDir, "buf.gen.yaml"),
    "-o",
    work,
    ...paths.flatMap((p) => ["--path", p]),
  ], work);
}

/** Generates into `outDir` (which must not exist yet or be disposable). */
async function generate(outDir: string): Promise<void> {
  const work = await Deno.makeTempDir({ prefix: "fctl-proto-" });
  const clientWorks: string[] = [];
  try {
    await bufGenerate(work, "buf.yaml", GENERATE_PATHS);
    for (const file of CLIENT_FILES) {
      const clientWork = await Deno.makeTempDir({ prefix: "fctl-proto-client-" });
      clientWorks.push(clientWork);
      // The imports it generates again are those of the first run, byte for byte; only its own file is kept.
      await bufGenerate(clientWork, "buf.client.yaml", [join("client", file)], [redeclared(file)], [
        file,
        ...MESSAGE_FILES,
      ]);
      for (const kept of [file, ...MESSAGE_FILES]) {
        const generated = kept.replace(/\.proto$/, "_pb.ts");
        const from = join(clientWork, "gen", generated);
        const to = join(work, "gen", generated);
        // A message file is generated only where a client file imports it, and kept from the first.
        if (!(await exists(from)) || await exists(to)) continue;
        await Deno.mkdir(dirname(to), { recursive: true });
        await Deno.rename(from, to);
      }
    }
    for (const [file, text] of await listFiles(join(work, "gen"))) {
      const described = describeUndocumented(text);
      if (described !== text) await Deno.writeTextFile(join(work, "gen", file), described);
    }
    await Deno.remove(outDir, { recursive: true }).catch(() => {});
    await Deno.mkdir(dirname(outDir), { recursive: true });
    await Deno.rename(join(work, "gen"), outDir);
  } finally {
    await Deno.remove(work, { recursive: true }).catch(() => {});
    for (const clientWork of clientWorks) await Deno.remove(clientWork, { recursive: true }).catch(() => {});
  }
}

async function check(): Promise<boolean> {
  const tmp = await Deno.makeTempDir({ prefix: "fctl-proto-check-" });
  try {
    const fresh = join(tmp, "gen");
    await generate(fresh);
    const want = await listFiles(fresh);
    const have = await listFiles(committedOut).catch(() => new Map<string, string>());
    const stale = [...new Set([...want.keys(), ...have.keys()])]
      .filter((f) => want.get(f) !== have.get(f)).sort();
    if (stale.length > 0) {
      console.error(`proto/gen is stale (${stale.length} files differ, e.g. ${stale[0]}); run \`deno task proto\``);
      return false;
    }
    console.log(`proto/gen is current (${want.size} files)`);
    return true;
  } finally {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  if (Deno.args.includes("--check")) {
    if (!await check()) Deno.exit(1);
  } else {
    await generate(committedOut);
    console.log(`wrote ${relative(root, committedOut)}`);
  }
}
