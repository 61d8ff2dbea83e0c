/**
 * `create execution` with a local directory given as a directory (multipart blob) input, run as a fresh fctl
 * process: every regular file under it is uploaded under one prefix with its relative path (nested, a name with a
 * space, a link to a file inside), through the admin's data proxy over TLS with OAuth (the production shape) and,
 * when the admin has none, through S3 storage (s3rver); the stored input is a MULTIPART blob whose URI is that
 * prefix. A file for a directory input, a directory for a file input, an empty directory and a link out of the
 * directory are one line each, exit 2, with nothing uploaded or created; a failed upload creates nothing.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { ResourceType } from "../proto/gen/flyteidl/core/identifier_pb.ts";
import type { Blob } from "../proto/gen/flyteidl/core/literals_pb.ts";
import { BlobType_BlobDimensionality } from "../proto/gen/flyteidl/core/types_pb.ts";
import { type Sandbox, startSandbox } from "../src/sandbox/mod.ts";
import { S3RVER_KEYS, startTestS3 } from "../src/storage/_test_s3.ts";
import { fixture, runFctl, runFctlProcess } from "./helpers.ts";
import { registerCore, runProductionProcess, withFullAdmin } from "./entity_fixtures.ts";

const PROJECT = "flytesnacks";
const DOMAIN = "development";
const SCOPE = ["-p", PROJECT, "-d", DOMAIN];
const GREET = "core.flyte_basics.lp.greet";
const BUCKET = "fctl-inputs";

const blobType = (dimensionality: BlobType_BlobDimensionality) => ({
  type: { case: "blob" as const, value: { format: "", dimensionality } },
});
const MULTIPART = blobType(BlobType_BlobDimensionality.MULTIPART);
const SINGLE = blobType(BlobType_BlobDimensionality.SINGLE);

const FILE_OR_DIRECTORY = { type: { case: "unionType" as const, value: { variants: [SINGLE, MULTIPART] } } };

/**
 * Tasks taking a directory (`d`), a file (`f`), both, and `Union[FlyteFile, FlyteDirectory]` (`u`), registered as
 * copies of the core package's greet.
 */
async function registerBlobTasks(sandbox: Sandbox): Promise<void> {
  const tasks: [string, object][] = [
    ["test.dir_task", { d: { type: MULTIPART, description: "d" } }],
    ["test.file_task", { f: { type: SINGLE, description: "f" } }],
    ["test.both_task", { d: { type: MULTIPART, description: "d" }, f: { type: SINGLE, description: "f" } }],
    ["test.union_task", { u: { type: FILE_OR_DIRECTORY, description: "u" } }],
  ];
  await withFullAdmin(sandbox, async (admin) => {
    const greet = await admin.getTask({
      id: { resourceType: ResourceType.TASK, project: PROJECT, domain: DOMAIN, name: GREET, version: "v1" },
    });
    const template = greet.closure!.compiledTask!.template!;
    const { $typeName: _, ...fields } = template;
    for (const [name, variables] of tasks) {
      const id = { resourceType: ResourceType.TASK, project: PROJECT, domain: DOMAIN, name, version: "d1" };
      const taskInterface = { inputs: { variables }, outputs: template.interface?.outputs };
      await admin.createTask({ id, spec: { template: { ...fields, id, interface: taskInterface } as never } });
    }
  });
}

/** The files the test directory holds, by relative path (the link is written separately). */
const FILES: Record<string, Uint8Array> = {
  "a.txt": new TextEncoder().encode("alpha\n"),
  "sub/b.csv": new TextEncoder().encode("x,y\n1,2\n"),
  "sub/deeper/c d.bin": Uint8Array.from({ length: 256 }, (_, i) => i),
};

/**
 * Writes the directory: FILES, `link.txt` linking to `a.txt` (inside: uploaded as a file), and an empty
 * subdirectory (storage keeps none: not uploaded). Returns every uploaded relative path and its bytes.
 */
async function writeTree(dir: string): Promise<Map<string, Uint8Array>> {
  for (const [relative, bytes] of Object.entries(FILES)) {
    await Deno.mkdir(`${dir}/${relative}`.replace(/\/[^/]*$/, ""), { recursive: true });
    await Deno.writeFile(`${dir}/${relative}`, bytes);
  }
  await Deno.symlink("a.txt", `${dir}/link.txt`);
  await Deno.mkdir(`${dir}/empty`);
  return new Map([...Object.entries(FILES), ["link.txt", FILES["a.txt"]]]);
}

function blobOf(literal: unknown): Blob {
  const l = literal as { value: { case: string; value: { value: { case: string; value: Blob } } } };
  ok(l?.value.case === "scalar" && l.value.value.value.case === "blob", JSON.stringify(literal));
  return l.value.value.value.value;
}

/** The stored input of an execution, a blob. */
async function storedBlob(sandbox: Sandbox, name: string, input: string): Promise<Blob> {
  let literal: unknown;
  await withFullAdmin(sandbox, async (admin) => {
    const data = await admin.getExecutionData({ id: { project: PROJECT, domain: DOMAIN, name } });
    literal = data.fullInputs?.literals[input];
  });
  return blobOf(literal);
}

/** The stored input of an execution, a union holding a blob. */
async function storedUnionBlob(sandbox: Sandbox, name: string, input: string): Promise<Blob> {
  let literal: unknown;
  await withFullAdmin(sandbox, async (admin) => {
    const data = await admin.getExecutionData({ id: { project: PROJECT, domain: DOMAIN, name } });
    literal = data.fullInputs?.literals[input];
  });
  const l = literal as { value: { case: string; value: { value: { case: string; value: { value: unknown } } } } };
  ok(l?.value.case === "scalar" && l.value.value.value.case === "union", JSON.stringify(literal));
  return blobOf(l.value.value.value.value.value);
}

/**
 * Runs `fn` against a fresh sandbox holding flytesnacks-core v1 and the blob tasks, with a temporary directory;
 * both are removed afterwards, however `fn` ends.
 */
async function withBlobSandbox(prefix: string, fn: (sandbox: Sandbox, dir: string) => Promise<void>): Promise<void> {
  const sandbox = await startSandbox();
  const dir = await Deno.makeTempDir({ prefix });
  try {
    await registerCore(sandbox, ["v1"]);
    await registerBlobTasks(sandbox);
    await fn(sandbox, dir);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
}

const sorted = <T>(entries: Iterable<[string, T]>) => [...entries].sort(([a], [b]) => (a < b ? -1 : 1));

Deno.test("create execution: a local directory goes through the data proxy (TLS, OAuth) under one prefix, sent as a MULTIPART blob", async () => {
  const sandbox = await startSandbox({ production: true });
  const dir = await Deno.makeTempDir({ prefix: "fctl-dir-input-prod-" });
  try {
    const register = ["register", "files", "--archive", fixture("flytesnacks-core.tgz"), "--version", "v1"];
    equal((await runProductionProcess(sandbox, register)).code, 0);
    await registerBlobTasks(sandbox);
    await Deno.mkdir(`${dir}/images`);
    const expected = await writeTree(`${dir}/images`);
    sandbox.uploads.clear(); // the core package's fast-registration archive
    const spec = `${dir}/spec.yaml`;
    await Deno.writeTextFile(spec, `task: test.dir_task\ninputs:\n  d: ${dir}/images\n`);
    const run = await runProductionProcess(sandbox, ["create", "execution", "dir-run", "--execFile", spec]);
    equal(run.code, 0, run.stderr);
    // Nothing about the uploads on any stream: no signed URL, no token.
    equal(run.stderr, "using version d1\n");
    equal(run.stdout, 'execution identifier project:"flytesnacks" domain:"development" name:"dir-run"\n');
    const blob = await storedBlob(sandbox, "dir-run", "d");
    equal(blob.metadata?.type?.dimensionality, BlobType_BlobDimensionality.MULTIPART);
    match(blob.uri, /^s3:\/\/sandbox-bucket\/flytesnacks\/development\/[0-9a-f]{32}$/);
    // Exactly the files, each at the prefix plus its relative path (URL-escaped, as FlyteAdmin writes it).
    deepEqual(
      sorted(sandbox.uploads),
      sorted([...expected].map(([relative, bytes]) => [`${blob.uri}/${relative.replace(" ", "%20")}`, bytes])),
    );
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("create execution: a local directory goes through S3 storage when the admin has no data proxy", async () => {
  const s3 = await startTestS3();
  const sandbox = await startSandbox({ dataProxy: false });
  const dir = await Deno.makeTempDir({ prefix: "fctl-dir-input-s3-" });
  try {
    const flags = [
      ...SCOPE,
      ...["--admin.endpoint", sandbox.endpoint, "--storage.type", "s3", "--storage.connection.endpoint", s3.endpoint],
      ...["--storage.connection.auth-type", "accesskey", "--storage.connection.access-key", S3RVER_KEYS.accessKey],
      ...["--storage.connection.secret-key", S3RVER_KEYS.secretKey, "--storage.container", BUCKET],
    ];
    const register = ["register", "files", "--archive", fixture("flytesnacks-core.tgz"), "--version", "v1"];
    equal((await runFctl([...register, ...flags])).code, 0);
    await registerBlobTasks(sandbox);
    await Deno.mkdir(`${dir}/images`);
    const expected = await writeTree(`${dir}/images`);
    s3.requests.length = 0;
    const spec = `${dir}/spec.yaml`;
    await Deno.writeTextFile(spec, `task: test.dir_task\ninputs:\n  d: ${dir}/images\n`);
    const run = await runFctlProcess(["create", "execution", "s3-run", "--execFile", spec, ...flags]);
    equal(run.code, 0, run.stderr);
    equal(run.stderr, "using version d1\n");
    const blob = await storedBlob(sandbox, "s3-run", "d");
    equal(blob.metadata?.type?.dimensionality, BlobType_BlobDimensionality.MULTIPART);
    match(blob.uri, new RegExp(`^s3://${BUCKET}/fast/[0-9a-f]{32}$`));
    const prefix = blob.uri.slice(`s3://${BUCKET}/`.length);
    // The PUTs made are exactly the files', each with its MD5, and each object holds the file's bytes.
    const puts = s3.requests.filter((r) => r.method === "PUT");
    deepEqual(
      puts.map((r) => decodeURIComponent(r.path)).sort(),
      [...expected.keys()].map((relative) => `/${BUCKET}/${prefix}/${relative}`).sort(),
    );
    ok(puts.every((r) => r.contentMd5), JSON.stringify(puts));
    for (const [relative, bytes] of expected) deepEqual(await s3.object(BUCKET, `${prefix}/${relative}`), bytes);
  } finally {
    await sandbox.close();
    await s3.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("create execution: a file for a directory input, a directory for a file input, an empty directory, a link out: one line, nothing uploaded", async () => {
  await withBlobSandbox("fctl-dir-input-bad-", async (sandbox, dir) => {
    await Deno.mkdir(`${dir}/images`);
    await writeTree(`${dir}/images`);
    await Deno.mkdir(`${dir}/empty/nested`, { recursive: true });
    await Deno.mkdir(`${dir}/leaky`);
    await Deno.writeTextFile(`${dir}/outside.txt`, "not in the directory\n");
    await Deno.symlink(`${dir}/outside.txt`, `${dir}/leaky/escape.txt`);
    sandbox.uploads.clear();
    const cases: [string, string, RegExp][] = [
      [
        "test.dir_task",
        `d: ${dir}/images/a.txt`,
        /^Error: inputs\.d: ".*\/images\/a\.txt" is a file, but the input takes a directory \(multipart blob\); give a directory or a remote URI\n$/,
      ],
      [
        "test.file_task",
        `f: ${dir}/images`,
        /^Error: inputs\.f: ".*\/images" is a directory, but the input takes a file \(single blob\); give a file or a remote URI\n$/,
      ],
      [
        "test.dir_task",
        `d: ${dir}/empty`,
        /^Error: inputs\.d: cannot upload ".*\/empty": the directory holds no files, and storage keeps no empty directories; add a file or give a remote URI\n$/,
      ],
      [
        "test.dir_task",
        `d: ${dir}/leaky`,
        /^Error: inputs\.d: cannot upload ".*\/leaky\/escape\.txt": it is a symbolic link to ".*\/outside\.txt", outside the directory, and links are not followed out of it; copy the file in or remove the link\n$/,
      ],
      // Every path is checked before any is uploaded: the good directory is not sent either.
      [
        "test.both_task",
        `d: ${dir}/images\n  f: ${dir}/images`,
        /^Error: inputs\.f: ".*\/images" is a directory, but the input takes a file/,
      ],
    ];
    for (const [task, inputs, message] of cases) {
      const spec = `${dir}/spec.yaml`;
      await Deno.writeTextFile(spec, `task: ${task}\nversion: d1\ninputs:\n  ${inputs}\n`);
      const run = await runFctlProcess([
        "create",
        "execution",
        "--execFile",
        spec,
        ...SCOPE,
        "--admin.endpoint",
        sandbox.endpoint,
      ]);
      equal(run.code, 2, `${inputs}: ${run.stderr}`);
      match(run.stderr, message);
      equal(run.stderr.trim().split("\n").length, 1, run.stderr);
    }
    equal(sandbox.uploads.size, 0);
    equal(sandbox.requests.filter((r) => r.method === "CreateUploadLocation").length, 0);
    equal(sandbox.store.executions.summaries().length, 0);
  });
});

Deno.test("create execution: an upload of the directory that fails creates no execution, and shows no signed URL", async () => {
  await withBlobSandbox("fctl-dir-input-fail-", async (sandbox, dir) => {
    await Deno.mkdir(`${dir}/images`);
    await writeTree(`${dir}/images`);
    const spec = `${dir}/spec.yaml`;
    await Deno.writeTextFile(spec, `task: test.dir_task\nversion: d1\ninputs:\n  d: ${dir}/images\n`);
    // Refused for good (not a status worth retrying): one file's PUT.
    sandbox.failNextUploads(1, 403);
    const run = await runFctlProcess([
      "create",
      "execution",
      "--execFile",
      spec,
      ...SCOPE,
      "--admin.endpoint",
      sandbox.endpoint,
    ]);
    equal(run.code, 1, run.stderr);
    match(run.stderr, /uploading ".*\/images\/.*" to .* failed: HTTP 403/);
    ok(!run.stderr.includes("token="), run.stderr);
    equal(run.stderr.trim().split("\n").length, 1, run.stderr);
    equal(sandbox.store.executions.summaries().length, 0);
    equal(sandbox.requests.filter((r) => r.method === "CreateExecution").length, 0);
  });
});

Deno.test("create execution: a directory of many files: each uploaded once, under the one prefix", async () => {
  await withBlobSandbox("fctl-dir-input-many-", async (sandbox, dir) => {
    const count = 600;
    for (let i = 0; i < count; i++) {
      await Deno.mkdir(`${dir}/many/part-${i % 12}`, { recursive: true });
      await Deno.writeTextFile(`${dir}/many/part-${i % 12}/file-${i}.txt`, `file ${i}\n`);
    }
    sandbox.uploads.clear();
    sandbox.clearRequests();
    const spec = `${dir}/spec.yaml`;
    await Deno.writeTextFile(spec, `task: test.dir_task\nversion: d1\ninputs:\n  d: ${dir}/many\n`);
    const run = await runFctlProcess([
      "create",
      "execution",
      "many",
      "--execFile",
      spec,
      ...SCOPE,
      "--admin.endpoint",
      sandbox.endpoint,
    ]);
    equal(run.code, 0, run.stderr);
    equal(run.stderr, "");
    const blob = await storedBlob(sandbox, "many", "d");
    const keys = [...sandbox.uploads.keys()];
    equal(keys.length, count);
    ok(keys.every((key) => key.startsWith(`${blob.uri}/part-`)), keys[0]);
    equal(sandbox.requests.filter((r) => r.method === "CreateUploadLocation").length, count);
    equal(new TextDecoder().decode(sandbox.uploads.get(`${blob.uri}/part-7/file-595.txt`)), "file 595\n");
  });
});

Deno.test("create execution: Ctrl-C while a directory is uploading creates no execution (exit 130)", async () => {
  const sandbox = await startSandbox();
  const dir = await Deno.makeTempDir({ prefix: "fctl-dir-input-interrupt-" });
  try {
    await registerCore(sandbox, ["v1"]);
    await registerBlobTasks(sandbox);
    for (let i = 0; i < 80; i++) await Deno.writeTextFile(`${dir}/file-${i}.txt`, `file ${i}\n`);
    // The spec beside the directory, not in it.
    await Deno.writeTextFile(`${dir}.yaml`, `task: test.dir_task\nversion: d1\ninputs:\n  d: ${dir}\n`);
    // Slow answers: ten rounds of eight upload locations take seconds, and Ctrl-C comes at the first.
    sandbox.setLatency(300);
    sandbox.clearRequests();
    const interrupt = new AbortController();
    const running = runFctl(
      ["create", "execution", "--execFile", `${dir}.yaml`, ...SCOPE, "--admin.endpoint", sandbox.endpoint],
      { signal: interrupt.signal },
    );
    while (!sandbox.requests.some((r) => r.method === "CreateUploadLocation")) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    interrupt.abort();
    const run = await running;
    equal(run.code, 130, run.stderr);
    equal(run.stderr.trim().split("\n").length, 1, run.stderr);
    sandbox.setLatency(0);
    equal(sandbox.requests.filter((r) => r.method === "CreateExecution").length, 0);
    equal(sandbox.store.executions.summaries().length, 0);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(`${dir}.yaml`).catch(() => {});
  }
});

Deno.test("create execution: Union[FlyteFile, FlyteDirectory] takes the directory variant for a directory, the file one for a file, declared order for a URI", async () => {
  await withBlobSandbox("fctl-dir-input-union-", async (sandbox, dir) => {
    await Deno.mkdir(`${dir}/images`);
    const expected = await writeTree(`${dir}/images`);
    sandbox.uploads.clear();
    const run = async (name: string, value: string) => {
      const spec = `${dir}/${name}.yaml`;
      await Deno.writeTextFile(spec, `task: test.union_task\nversion: d1\ninputs:\n  u: ${value}\n`);
      const args = ["create", "execution", name, "--execFile", spec, ...SCOPE, "--admin.endpoint", sandbox.endpoint];
      const result = await runFctlProcess(args);
      equal(result.code, 0, result.stderr);
      equal(result.stderr, "");
      return await storedUnionBlob(sandbox, name, "u");
    };
    const directory = await run("union-dir", `${dir}/images`);
    equal(directory.metadata?.type?.dimensionality, BlobType_BlobDimensionality.MULTIPART);
    deepEqual(
      sorted(sandbox.uploads),
      sorted([...expected].map(([relative, bytes]) => [`${directory.uri}/${relative.replace(" ", "%20")}`, bytes])),
    );
    sandbox.uploads.clear();
    const file = await run("union-file", `${dir}/images/sub/b.csv`);
    equal(file.metadata?.type?.dimensionality, BlobType_BlobDimensionality.SINGLE);
    deepEqual([...sandbox.uploads], [[file.uri, FILES["sub/b.csv"]]]);
    match(file.uri, /\/b\.csv$/);
    sandbox.uploads.clear();
    const remote = await run("union-remote", "s3://elsewhere/data");
    equal(remote.metadata?.type?.dimensionality, BlobType_BlobDimensionality.SINGLE);
    equal(remote.uri, "s3://elsewhere/data");
    equal(sandbox.uploads.size, 0);
  });
});
