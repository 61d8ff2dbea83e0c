import {
  deepStrictEqual as assertEquals,
  match as assertMatch,
  ok as assert,
  rejects as assertRejects,
} from "node:assert/strict";
import { Code } from "@connectrpc/connect";
import { createHash } from "node:crypto";
import { dirname } from "node:path";
import { type AdminClient, createAdminClient } from "../admin/client.ts";
import { UsageError } from "../errors.ts";
import { type Sandbox, startSandbox } from "../sandbox/mod.ts";
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { type TaskCreateRequest, TaskSpecSchema } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import { buildExamplePackage } from "../../scripts/example_package.ts";
import {
  registerFiles,
  type RegisterFilesOptions,
  type RegisterProgress,
  type RegisterReport,
} from "./register_files.ts";
import { withExtractedArchive } from "./package/archive.ts";
import { extractionDirs, fixture, removeTar, writeTar } from "./_test_helpers.ts";
import { withSandbox } from "../sandbox/_test_helpers.ts";
import { MemStore } from "../storage/mod.ts";

const BASE = { project: "flytesnacks", domain: "development", version: "v1", archive: true };

const rows = (report: RegisterReport) => report.entries.map((e) => [e.name, e.status, e.info]);
const methods = (sandbox: Sandbox) => sandbox.requests.map((r) => r.method);
const register = (client: AdminClient, options: Partial<RegisterFilesOptions> & { paths: string[] }) =>
  registerFiles(client, { ...BASE, ...options });

const VALID = [
  "014_recipes.core.basic.basic_workflow.t1_1.pb",
  "015_recipes.core.basic.basic_workflow.t2_1.pb",
  "016_recipes.core.basic.basic_workflow.my_wf_2.pb",
  "017_recipes.core.basic.basic_workflow.my_wf_3.pb",
];
const CREATES = ["CreateTask", "CreateTask", "CreateWorkflow", "CreateLaunchPlan"];

Deno.test("valid-register.tgz: 2 tasks, 1 workflow, 1 launch plan, then all AlreadyExists", async () => {
  await withSandbox(async (sandbox, client) => {
    const first = await register(client, { paths: [fixture("valid-register.tgz")] });
    assertEquals(rows(first), VALID.map((n) => [n, "Success", "Successfully registered file"]));
    assertEquals(first.failed, 0);
    assertEquals(methods(sandbox), CREATES);
    const task = sandbox.requests[0].request as TaskCreateRequest;
    assertEquals(task.id?.project, "flytesnacks");
    assertEquals(task.id?.domain, "development");
    assertEquals(task.id?.version, "v1");
    assertEquals(task.id?.name, "recipes.core.basic.basic_workflow.t1");
    assertEquals(task.spec?.template?.id?.version, "v1");
    assertEquals(first.entries[3].id?.name, "recipes.core.basic.basic_workflow.my_wf");

    sandbox.clearRequests();
    const again = await register(client, { paths: [fixture("valid-register.tgz")] });
    assertEquals(rows(again), VALID.map((n) => [n, "Success", "AlreadyExists"]));
    assertEquals(methods(sandbox), CREATES);
  });
});

Deno.test("the unordered and parent-folder archives register in dependency order", async () => {
  await withSandbox(async (sandbox, client) => {
    const unordered = await register(client, { paths: [fixture("valid-unordered-register.tar")] });
    assertEquals(rows(unordered), VALID.map((n) => [n, "Success", "Successfully registered file"]));
    assertEquals(methods(sandbox), CREATES);
    sandbox.clearRequests();
    const nested = await register(client, { paths: [fixture("valid-parent-folder-register.tar")], version: "v2" });
    assertEquals(rows(nested), VALID.map((n) => [`parentfolder/${n}`, "Success", "Successfully registered file"]));
    assertEquals(methods(sandbox), CREATES);
  });
});

Deno.test("the example package registers, and re-registers as AlreadyExists", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fctl-register-test-" });
  try {
    await buildExamplePackage(`${dir}/weather.tgz`);
    await withSandbox(async (sandbox, client) => {
      const first = await register(client, { paths: [`${dir}/weather.tgz`] });
      assertEquals(first.entries.map((e) => [e.kind, e.status, e.info]), [
        ["task", "Success", "Successfully registered file"],
        ["task", "Success", "Successfully registered file"],
        ["task", "Success", "Successfully registered file"],
        ["workflow", "Success", "Successfully registered file"],
        ["launchPlan", "Success", "Successfully registered file"],
      ]);
      assertEquals(methods(sandbox), ["CreateTask", "CreateTask", "CreateTask", "CreateWorkflow", "CreateLaunchPlan"]);
      const again = await register(client, { paths: [`${dir}/weather.tgz`] });
      assert(again.entries.every((e) => e.status === "Success" && e.info === "AlreadyExists"));
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("dry run: every entity Skipped and not a single RPC", async () => {
  await withSandbox(async (sandbox, client) => {
    const report = await register(client, { paths: [fixture("flytesnacks-core.tgz")], dryRun: true });
    assertEquals(report.entries.length, 84);
    assert(report.entries.every((e) => e.status === "Skipped" && e.info === "Dry run: not registered"));
    assertEquals(report.source, { name: "core/_pb_output/fasted4a62b5c4359e9aed745fa1197a9ea0.tar.gz" });
    assertEquals(sandbox.requests, []);
    assertEquals(sandbox.uploads.size, 0);
  });
});

Deno.test("dry run: the source is read past, never spooled to disk: it needs no temp space, whatever the source's size", async () => {
  // A source past this limit goes to the temp dir when it is kept; TMPDIR names a directory that does not
  // exist, so a dry run that spooled it would fail to make its temp dir.
  const reading = { sourceInMemoryMaxBytes: 1024 };
  const tmp = Deno.env.get("TMPDIR");
  const missing = `${await Deno.makeTempDir({ prefix: "fctl-register-test-" })}/missing`;
  Deno.env.set("TMPDIR", missing);
  try {
    await withSandbox(async (sandbox, client) => {
      const options = { ...BASE, paths: [fixture("flytesnacks-core.tgz")], dryRun: true };
      const report = await registerFiles(client, options, undefined, reading);
      assert(report.entries.every((e) => e.status === "Skipped" && e.info === "Dry run: not registered"));
      assertEquals(report.source, { name: "core/_pb_output/fasted4a62b5c4359e9aed745fa1197a9ea0.tar.gz" });
      assertEquals(sandbox.requests, []);
      // The same package, registered, keeps the source (on disk past the limit): the TMPDIR is what fails it.
      await assertRejects(registerFiles(client, { ...options, dryRun: false }, undefined, reading), Error, missing);
    });
  } finally {
    if (tmp === undefined) Deno.env.delete("TMPDIR");
    else Deno.env.set("TMPDIR", tmp);
    await Deno.remove(dirname(missing), { recursive: true });
  }
});

Deno.test("a client made on demand: a dry run never makes it, a registration makes it once, first", async () => {
  await withSandbox(async (sandbox, client) => {
    const made: string[] = [];
    const admin = (what: string) => () => {
      made.push(what);
      return Promise.resolve(client);
    };
    const paths = [fixture("valid-register.tgz")];
    const dry = await registerFiles(admin("dry run"), { ...BASE, paths, dryRun: true });
    assert(dry.entries.every((e) => e.status === "Skipped"));
    assertEquals(made, []);
    const real = await registerFiles(admin("registration"), { ...BASE, paths });
    assertEquals(rows(real), VALID.map((n) => [n, "Success", "Successfully registered file"]));
    assertEquals(made, ["registration"]);
    assertEquals(methods(sandbox), CREATES);
    // Made before anything else is looked at, as when the caller makes it: its failure is the first error.
    const unreachable = () => Promise.reject(new UsageError("no admin"));
    await assertRejects(registerFiles(unreachable, { ...BASE, paths: [] }), /^UsageError: no admin$/);
    await assertRejects(registerFiles(unreachable, { ...BASE, paths: [], dryRun: true }), /no files given/);
  });
});

Deno.test("without --version, placeholder versions are a usage error before any RPC", async () => {
  await withSandbox(async (sandbox, client) => {
    await assertRejects(
      registerFiles(client, { ...BASE, version: undefined, paths: [fixture("valid-register.tar")] }),
      (err: Error) => {
        assert(err instanceof UsageError);
        assert(err.message.startsWith('4 entities have no version: task "recipes.core.basic.basic_workflow.t1"'));
        assert(err.message.endsWith("; pass --version"));
        return true;
      },
    );
    assertEquals(sandbox.requests, []);
  });
});

Deno.test("a refused create stops registration; the rest are Skipped; the server's reason is shown", async () => {
  await withSandbox(async (sandbox, client) => {
    sandbox.failNext("CreateWorkflow", Code.InvalidArgument);
    const report = await register(client, { paths: [fixture("valid-register.tar")] });
    assertEquals(report.failed, 1);
    assertEquals(report.entries.map((e) => e.status), ["Success", "Success", "Failed", "Skipped"]);
    assert(report.entries[2].info.startsWith("Error registering file due to "), report.entries[2].info);
    assertEquals(report.entries[3].info, `Not registered: depends on ${VALID[2]}, which failed`);
    assertEquals(methods(sandbox), ["CreateTask", "CreateTask", "CreateWorkflow"]);
  });
});

Deno.test("continueOnError attempts everything possible; dependents of a failure are skipped, naming it", async () => {
  await withSandbox(async (sandbox, client) => {
    sandbox.failNext("CreateTask", Code.Internal);
    const report = await register(client, { paths: [fixture("valid-register.tar")], continueOnError: true });
    // The workflow needs the task that failed, so it is not attempted, nor is its launch plan.
    assertEquals(methods(sandbox), ["CreateTask", "CreateTask"]);
    assertEquals(rows(report), [
      [VALID[0], "Failed", "Error registering file due to sandbox: injected Internal for CreateTask"],
      [VALID[1], "Success", "Successfully registered file"],
      [VALID[2], "Skipped", `Not registered: depends on ${VALID[0]}, which failed`],
      [VALID[3], "Skipped", `Not registered: depends on ${VALID[2]}, which was not registered`],
    ]);
    assertEquals(report.entries[2].dependsOn, VALID[0]);
    assertEquals(report.failed, 1);
  });
});

Deno.test("a different entity under an existing id fails with the admin's message", async () => {
  await withSandbox(async (_sandbox, client) => {
    await register(client, { paths: [fixture("valid-register.tar")] });
    const report = await register(client, {
      paths: [fixture("69_core.flyte_basics.lp.greet_1.pb")],
      archive: false,
      version: "v1",
    });
    assertEquals(report.entries.map((e) => e.status), ["Success"]);
    // Same name and version as t1 of valid-register, different content.
    const bytes = await Deno.readFile(fixture("69_core.flyte_basics.lp.greet_1.pb"));
    const dir = await Deno.makeTempDir({ prefix: "fctl-register-test-" });
    try {
      const spec = fromBinary(TaskSpecSchema, bytes);
      spec.template!.id!.name = "recipes.core.basic.basic_workflow.t1";
      await Deno.writeFile(`${dir}/x_1.pb`, toBinary(TaskSpecSchema, spec));
      const clash = await register(client, { paths: [`${dir}/x_1.pb`], archive: false });
      assertEquals(clash.entries[0].status, "Failed");
      assert(clash.entries[0].info.includes("different structure already exists"), clash.entries[0].info);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});

Deno.test("an unreachable admin service is the report's error, not one Failed row per file", async () => {
  await withSandbox(async (sandbox, client) => {
    sandbox.failNext("*", Code.Unavailable);
    const report = await register(client, { paths: [fixture("valid-register.tar")] });
    assertMatch(report.error?.message ?? "", /Unavailable/);
    assertEquals(report.entries.filter((e) => e.status === "Failed").length, 1);
    assert(report.entries.every((e) => e.status !== "Skipped" || e.info.startsWith("Not registered: ")));
  });
});

Deno.test("the admin dying mid-registration: a report of what was and was not registered, and the error", async () => {
  await withSandbox(async (sandbox, client) => {
    // Every call after the fifth create fails, as when the admin goes away.
    const onProgress = (p: RegisterProgress) => {
      if (p.phase === "create" && p.done === 5) sandbox.failRatio("*", Code.Unavailable, 1);
    };
    const report = await registerFiles(
      client,
      { ...BASE, paths: [fixture("flytesnacks-core.tgz")], concurrency: 1 },
      undefined,
      { onProgress },
    );
    assertMatch(report.error?.message ?? "", /Unavailable/);
    assertEquals(report.entries.filter((e) => e.status === "Success").length, 5);
    assertEquals(report.entries.filter((e) => e.status === "Failed").length, 1);
    assertEquals(report.entries.filter((e) => e.status === "Skipped").length, report.entries.length - 6);
  });
});

Deno.test("fast registration uploads the source once and points the tasks at it", async () => {
  await withSandbox(async (sandbox, client) => {
    const before = await extractionDirs();
    const report = await register(client, { paths: [fixture("flytesnacks-core.tgz")], continueOnError: true });
    const sourceName = "core/_pb_output/fasted4a62b5c4359e9aed745fa1197a9ea0.tar.gz";
    const expected = await withExtractedArchive(fixture("flytesnacks-core.tgz"), async ({ files }) => {
      return await Deno.readFile(files.find((f) => f.name === sourceName)!.path);
    });
    assertEquals(methods(sandbox).filter((m) => m === "CreateUploadLocation").length, 1);
    assertEquals(sandbox.uploads.size, 1);
    const [[location, bytes]] = [...sandbox.uploads];
    assertEquals(report.source, { name: sourceName, location, via: "dataProxy", size: expected.length });
    assertEquals(createHash("md5").update(bytes).digest("hex"), createHash("md5").update(expected).digest("hex"));
    assertEquals(report.entries.length, 84);

    const tasks = sandbox.requests.filter((r) => r.method === "CreateTask").map((r) => r.request as TaskCreateRequest);
    const args = tasks.flatMap((t) =>
      t.spec?.template?.target.case === "container" ? t.spec.template.target.value.args : []
    );
    assert(args.includes(location));
    assert(!args.includes("{{ .remote_package_path }}") && !args.includes("{{ .dest_dir }}"));
    assertEquals(tasks.length, 39);
    assertEquals(await extractionDirs(), before, "temp dirs removed");
  });
});

Deno.test("the upload location is asked for while the package is checked; the bytes go only after", async () => {
  const sandbox = await startSandbox();
  const calls: [string, number][] = [];
  const client = createAdminClient({
    endpoint: sandbox.endpoint,
    insecure: true,
    interceptors: [(next) => (req) => (calls.push([req.method.name, performance.now()]), next(req))],
  });
  try {
    // A package that fails its checks: the location may have been asked for, but nothing is sent.
    await assertRejects(
      register(client, { paths: [fixture("flytesnacks-core.tgz")], version: undefined }),
      /84 entities have no version/,
    );
    assertEquals(calls.map(([method]) => method), ["CreateUploadLocation"]);
    assert(methods(sandbox).every((m) => m === "CreateUploadLocation"));
    assertEquals(sandbox.uploads.size, 0);

    calls.length = 0;
    const started = performance.now();
    const report = await register(client, { paths: [fixture("flytesnacks-core.tgz")] });
    assertEquals(report.failed, 0);
    const [first, askedAt] = calls[0];
    assertEquals(first, "CreateUploadLocation");
    assert(askedAt < started + report.timings.prepareMs, "asked for before the checks ended");
    assertEquals(sandbox.uploads.size, 1);
  } finally {
    client.close();
    await sandbox.close();
  }
});

Deno.test("a refused upload location is the report's error and nothing is created: where the source goes is decided first", async () => {
  await withSandbox(async (sandbox, client) => {
    sandbox.failNext("CreateUploadLocation", Code.PermissionDenied);
    const before = await extractionDirs();
    const report = await register(client, { paths: [fixture("flytesnacks-core.tgz")], continueOnError: true });
    assertMatch(report.error?.message ?? "", /PermissionDenied/);
    assertEquals(report.entries.length, 84);
    const why = "Not registered: core/_pb_output/fasted4a62b5c4359e9aed745fa1197a9ea0.tar.gz could not be uploaded";
    assert(report.entries.every((e) => e.status === "Skipped" && e.info === why), JSON.stringify(report.entries[0]));
    assertEquals(methods(sandbox), ["CreateUploadLocation"]);
    assertEquals(await extractionDirs(), before, "temp dirs removed");
  });
});

Deno.test("no upload location and storage that cannot take the source: a usage error before the first create", async () => {
  await withSandbox(async (sandbox, client) => {
    const cases = [
      { store: new MemStore("c"), allow: false, error: /storage\.type mem keeps it where the admin's cluster cannot/ },
      { store: new MemStore(""), allow: true, error: /^storage\.container must be set to write to mem storage$/ },
    ];
    for (const { store, allow, error } of cases) {
      sandbox.clearRequests();
      sandbox.failNext("CreateUploadLocation", Code.Unimplemented);
      await assertRejects(
        registerFiles(client, { ...BASE, paths: [fixture("flytesnacks-core.tgz")] }, undefined, {
          openStorage: () => store,
          allowLocalStorage: allow,
        }),
        (err: Error) => err instanceof UsageError && error.test(err.message),
      );
      assertEquals(methods(sandbox), ["CreateUploadLocation"]);
      assertEquals(store.objects.size, 0);
    }
    // A package without a source needs no storage: the same storage does not stop it.
    sandbox.clearRequests();
    const report = await registerFiles(client, { ...BASE, paths: [fixture("valid-register.tgz")] }, undefined, {
      openStorage: () => Promise.reject(new UsageError("storage was opened")),
    });
    assertEquals(report.failed, 0);
    assertEquals(methods(sandbox), CREATES);
  });
});

/** Every file under `dir`, relative to it; synchronous, so a progress callback sees one moment. */
function filesUnderSync(dir: string, prefix = ""): string[] {
  const found: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const name = `${prefix}${entry.name}`;
    if (entry.isDirectory) found.push(...filesUnderSync(`${dir}/${entry.name}`, `${name}/`));
    else found.push(name);
  }
  return found;
}

const FLYTESNACKS_SOURCE = "core/_pb_output/fasted4a62b5c4359e9aed745fa1197a9ea0.tar.gz";

/** The bytes of one member of an archive. */
async function extractMember(archive: string, name: string): Promise<Uint8Array> {
  return await withExtractedArchive(archive, async ({ files }) => {
    const file = files.find((f) => f.name === name);
    assert(file, `${name} is in ${archive}`);
    return await Deno.readFile(file.path);
  });
}

/** Registers flytesnacks-core, listing the files of every new extraction dir while the source uploads. */
async function extractedDuringUpload(client: AdminClient, sourceInMemoryMaxBytes?: number): Promise<string[][]> {
  const before = await extractionDirs();
  const probe = await Deno.makeTempDir({ prefix: "fctl-probe-" });
  await Deno.remove(probe);
  const root = dirname(probe);
  const during: string[][] = [];
  const report = await registerFiles(client, { ...BASE, paths: [fixture("flytesnacks-core.tgz")] }, undefined, {
    sourceInMemoryMaxBytes,
    onProgress: (progress) => {
      if (progress.phase !== "upload" || progress.done) return;
      for (const entry of Deno.readDirSync(root)) {
        const ours = entry.name.startsWith("fctl-register-") && !entry.name.startsWith("fctl-register-test-");
        if (ours && !before.has(entry.name)) during.push(filesUnderSync(`${root}/${entry.name}`));
      }
    },
  });
  assertEquals(report.failed, 0);
  assertEquals(await extractionDirs(), before, "temp dirs removed");
  return during;
}

Deno.test("a package whose source is small never touches disk: no temp dir while the source uploads", async () => {
  await withSandbox(async (sandbox, client) => {
    assertEquals(await extractedDuringUpload(client), []);
    const [location] = sandbox.uploads.keys();
    const source = await extractMember(fixture("flytesnacks-core.tgz"), FLYTESNACKS_SOURCE);
    assertEquals(sandbox.uploads.get(location), source, "the bytes uploaded are the archive member's");
  });
});

Deno.test("a source past the in-memory limit is streamed to the temp dir, alone, and uploaded from there", async () => {
  await withSandbox(async (sandbox, client) => {
    assertEquals(await extractedDuringUpload(client, 1024), [[FLYTESNACKS_SOURCE]]);
    const [location] = sandbox.uploads.keys();
    const source = await extractMember(fixture("flytesnacks-core.tgz"), FLYTESNACKS_SOURCE);
    assertEquals(sandbox.uploads.get(location), source);
  });
});

Deno.test("unexpected archive members are reported and nothing is registered without continueOnError", async () => {
  await withSandbox(async (sandbox, client) => {
    const report = await register(client, { paths: [fixture("invalid-fast.tgz")] });
    const failed = report.entries.filter((e) => e.status === "Failed");
    assert(failed.length > 0);
    assert(failed.every((e) => !e.name.includes("fctl-register-")), "names are archive-relative");
    assert(report.entries.filter((e) => e.status !== "Failed").every((e) => e.status === "Skipped"));
    assertEquals(sandbox.requests, []);
  });
});

Deno.test("two fast-registration sources: each is Failed naming both, and nothing is asked for or registered", async () => {
  const bytes = await Deno.readFile(fixture("69_core.flyte_basics.lp.greet_1.pb"));
  const path = await writeTar("two-sources.tar", [
    { header: { name: "pkg/fastbbb.tar.gz", size: 3 }, body: new Uint8Array([1, 2, 3]) },
    { header: { name: "pkg/fastaaa.tar.gz", size: 3 }, body: new Uint8Array([4, 5, 6]) },
    { header: { name: "pkg/greet_1.pb", size: bytes.length }, body: bytes },
  ]);
  try {
    await withSandbox(async (sandbox, client) => {
      const report = await register(client, { paths: [path] });
      const message =
        'Only one fast-registration source per registration is supported, found "pkg/fastaaa.tar.gz", "pkg/fastbbb.tar.gz"';
      assertEquals(report.entries.filter((e) => e.status === "Failed").map((e) => [e.name, e.info]), [
        ["pkg/fastaaa.tar.gz", message],
        ["pkg/fastbbb.tar.gz", message],
      ]);
      assertEquals(report.source, undefined);
      assertEquals(sandbox.requests, []);
      assertEquals(sandbox.uploads.size, 0);
    });
  } finally {
    await removeTar(path);
  }
});

Deno.test("a .pb path that does not exist, or an archive without --archive, is a usage error", async () => {
  await withSandbox(async (_sandbox, client) => {
    await assertRejects(register(client, { paths: ["/nonexistent_1.pb"], archive: false }), UsageError);
    await assertRejects(register(client, { paths: [fixture("valid-register.tar")], archive: false }), /pass --archive/);
    await assertRejects(register(client, { paths: [fixture("invalid-extension-register.zip")] }), UsageError);
  });
});

Deno.test("without --archive, .pb files and a fast source given one by one (`_pb_output/*`) register", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fctl-register-test-" });
  try {
    await withExtractedArchive(fixture("flytesnacks-core.tgz"), async ({ files }) => {
      for (const file of files) await Deno.copyFile(file.path, `${dir}/${file.name.split("/").pop()}`);
    });
    const paths: string[] = [];
    for await (const entry of Deno.readDir(dir)) paths.push(`${dir}/${entry.name}`);
    await withSandbox(async (sandbox, client) => {
      const report = await register(client, { paths, archive: false });
      assertEquals(report.failed, 0);
      assertEquals(report.entries.length, 84);
      assertEquals(report.source?.name, `${dir}/fasted4a62b5c4359e9aed745fa1197a9ea0.tar.gz`);
      assertEquals(sandbox.uploads.size, 1);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
