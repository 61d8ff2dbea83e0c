/**
 * `fctl register files` through the real command graph against the in-process admin over gRPC.
 */
import { deepEqual, equal, match, ok as assert } from "node:assert/strict";
import { dirname } from "node:path";
import { Code } from "@connectrpc/connect";
import { packTar } from "modern-tar";
import { parse as parseYaml } from "yaml";
import { type Sandbox, startSandbox } from "../src/sandbox/mod.ts";
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { TaskSpecSchema } from "../proto/gen/flyteidl/admin/task_pb.ts";
import { createHttpClient, type HttpClient } from "../src/http/http_client.ts";
import type { CliDeps } from "../src/cli/context.ts";
import { runCli } from "../src/cli/run.ts";
import { captureIo, fixture, runFctl, runFctlProcess, type RunOptions } from "./helpers.ts";

const CORE = "flytesnacks-core.tgz";

async function withSandbox(fn: (sandbox: Sandbox, run: typeof runFctl) => Promise<void>): Promise<void> {
  const sandbox = await startSandbox();
  const run = (args: string[], options?: RunOptions) =>
    runFctl([...args, "-p", "flytesnacks", "-d", "development", "--admin.endpoint", sandbox.endpoint], options);
  try {
    await fn(sandbox, run);
  } finally {
    await sandbox.close();
  }
}

const creates = (sandbox: Sandbox) =>
  sandbox.requests.filter((r) => /^Create(Task|Workflow|LaunchPlan)$/.test(r.method));
/** The versions of the entities the admin holds. */
const versions = (sandbox: Sandbox) =>
  new Set(
    [...sandbox.store.tasks(), ...sandbox.store.workflows(), ...sandbox.store.launchPlans()].map((e) => e.id?.version),
  );
/** Cells of the data rows of a results table (`| a | b | c |` lines after the header). */
const tableRows = (stdout: string) =>
  stdout.split("\n").filter((l) => l.startsWith("|")).slice(1).map((l) =>
    l.split("|").slice(1, -1).map((c) => c.trim())
  );

Deno.test("register files --archive: the table names archive members, then re-registering is all AlreadyExists", async () => {
  await withSandbox(async (sandbox, run) => {
    const first = await run(["register", "files", "--archive", fixture(CORE), "--version", "v1"]);
    equal(first.stderr, "");
    equal(first.code, 0);
    const rows = tableRows(first.stdout);
    equal(rows.length, 84);
    assert(rows.every((r) => r[0].startsWith("core/_pb_output/") && r[1] === "Success"), first.stdout);
    match(first.stdout, /\| NAME +\| STATUS +\| ADDITIONAL INFO +\|/);
    equal(creates(sandbox).length, 84);

    const again = await run(["register", "files", "--archive", fixture(CORE), "--version", "v1"]);
    equal(again.code, 0);
    assert(tableRows(again.stdout).every((r) => r[1] === "Success" && r[2] === "AlreadyExists"));
  });
});

Deno.test("a changed spec under an existing version is Failed with the server's message, exit 1", async () => {
  await withSandbox(async (_sandbox, run) => {
    equal((await run(["register", "files", fixture("69_core.flyte_basics.lp.greet_1.pb"), "--version", "v1"])).code, 0);
    const dir = await Deno.makeTempDir({ prefix: "fctl-cli-test-" });
    try {
      // Same task name and version, different content: the admin refuses it.
      const spec = fromBinary(TaskSpecSchema, await Deno.readFile(fixture("69_core.flyte_basics.lp.greet_1.pb")));
      assert(spec.template);
      spec.template.type = "changed-type";
      await Deno.writeFile(`${dir}/69_core.flyte_basics.lp.greet_1.pb`, toBinary(TaskSpecSchema, spec));
      const result = await run(["register", "files", `${dir}/69_core.flyte_basics.lp.greet_1.pb`, "--version", "v1"]);
      equal(result.code, 1);
      match(result.stdout, /\| Failed +\| Error registering file due to .*different structure already exists/);
      equal(
        result.stderr,
        `failed: ${dir}/69_core.flyte_basics.lp.greet_1.pb: Error registering file due to task with different ` +
          "structure already exists\nError: 1 of 1 files failed to register\n",
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});

Deno.test("--dryRun: zero requests and zero uploads, exit 0", async () => {
  await withSandbox(async (sandbox, run) => {
    const result = await run(["register", "files", "--archive", fixture(CORE), "--version", "v1", "--dryRun"]);
    equal(result.code, 0);
    deepEqual(sandbox.requests, []);
    equal(sandbox.uploads.size, 0);
    assert(tableRows(result.stdout).every((r) => r[1] === "Skipped" && r[2] === "Dry run: not registered"));
  });
});

Deno.test("--dryRun asks for the run's HTTP client only to download: never for a local archive", async () => {
  // The injected client stands for the one the configuration makes; each read of `deps.http` is the run asking the
  // app for it (a dry run of local files has no use for it, and making it loads its modules).
  const client = createHttpClient();
  let asked = 0;
  let fetched = 0;
  const deps: CliDeps = {
    get http(): HttpClient {
      asked++;
      return { ...client, fetch: (input, init) => (fetched++, client.fetch(input, init)) };
    },
  };
  const served = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async () => new Response((await Deno.open(fixture(CORE))).readable),
  );
  const dryRun = async (archive: string) => {
    const io = captureIo();
    const scope = ["-p", "flytesnacks", "-d", "development", "--admin.endpoint", "http://127.0.0.1:1"];
    const args = ["register", "files", "--archive", archive, "--version", "v1", "--dryRun", ...scope];
    equal(await runCli(args, io, undefined, deps), 0, io.err());
    equal(tableRows(io.out()).length, 84);
  };
  try {
    await dryRun(fixture(CORE));
    equal(asked, 0, "a dry run of a local archive never asks for it");
    await dryRun(`http://127.0.0.1:${served.addr.port}/${CORE}`);
    assert(asked > 0, "a dry run of an archive URL downloads it with the run's client");
    equal(fetched, 1);
  } finally {
    client.close();
    await served.shutdown();
  }
});

Deno.test("--continueOnError: exit 1 if anything failed; without it, scheduling stops at the failure", async () => {
  await withSandbox(async (sandbox, run) => {
    sandbox.failNext("CreateTask", Code.Internal);
    const going = await run([
      "register",
      "files",
      "--archive",
      fixture("valid-register.tgz"),
      "--version",
      "a",
      "--continueOnError",
    ]);
    equal(going.code, 1);
    match(
      going.stdout,
      /my_wf_2\.pb +\| Skipped +\| Not registered: depends on 014_recipes\.core\.basic\.basic_workflow\.t1_1\.pb, which failed/,
    );

    sandbox.clearRequests();
    sandbox.failNext("CreateTask", Code.Internal);
    const stopping = await run([
      "register",
      "files",
      "--archive",
      fixture(CORE),
      "--version",
      "b",
      "--concurrency",
      "1",
    ]);
    equal(stopping.code, 1);
    equal(creates(sandbox).length, 1, "nothing starts after the first failure");
    match(stopping.stderr, /^failed: core\/_pb_output\/\S+\.pb: .*injected Internal for CreateTask\n/);
    match(stopping.stderr, /\nError: 1 of 84 files failed to register\n$/);
  });
});

Deno.test("-o json and -o yaml give the whole report with timings", async () => {
  await withSandbox(async (_sandbox, run) => {
    const registerAs = (output: string) =>
      run(["register", "files", "--archive", fixture("valid-register.tgz"), "--version", "v1", "-o", output]);
    const json = await registerAs("json");
    equal(json.code, 0);
    const report = JSON.parse(json.stdout);
    deepEqual(Object.keys(report), ["entries", "source", "failed", "interrupted", "dryRun", "timings"]);
    deepEqual(Object.keys(report.timings), ["prepareMs", "uploadMs", "registerMs", "totalMs"]);
    equal(report.entries.length, 4);
    deepEqual(report.entries[0].id, {
      resourceType: "TASK",
      project: "flytesnacks",
      domain: "development",
      name: "recipes.core.basic.basic_workflow.t1",
      version: "v1",
    });
    equal(report.entries[3].kind, "launchPlan");
    equal(typeof report.entries[3].durationMs, "number");

    const yaml = await registerAs("yaml");
    const doc = parseYaml(yaml.stdout);
    deepEqual(doc.entries.map((e: { info: string }) => e.info), Array(4).fill("AlreadyExists"));
  });
});

Deno.test("local flags win over their --files.* twins from flags and the environment", async () => {
  await withSandbox(async (sandbox, run) => {
    const env = { FCTL_FILES_VERSION: "from-env", FCTL_FILES_ARCHIVE: "true" };
    equal((await run(["register", "files", fixture("valid-register.tgz")], { env })).code, 0);
    equal((creates(sandbox)[0].request as { id: { version: string } }).id.version, "from-env");
    sandbox.clearRequests();
    const both = await run([
      "register",
      "files",
      fixture("valid-register.tgz"),
      "--files.version",
      "twin",
      "--version",
      "local",
    ], {
      env,
    });
    equal(both.code, 0);
    equal((creates(sandbox)[0].request as { id: { version: string } }).id.version, "local");
    sandbox.clearRequests();
    equal(
      (await run(["register", "files", fixture("valid-register.tgz"), "--files.version", "twin"], { env })).code,
      0,
    );
    equal((creates(sandbox)[0].request as { id: { version: string } }).id.version, "twin");
  });
});

Deno.test("--concurrency must be a whole number of at least 1 (exit 2, nothing sent)", async () => {
  await withSandbox(async (sandbox, run) => {
    for (const bad of ["0", "-1", "x", "1.5"]) {
      const result = await run([
        "register",
        "files",
        "--archive",
        fixture("valid-register.tgz"),
        "--version",
        "v",
        "--concurrency",
        bad,
      ]);
      equal(result.code, 2, bad);
      equal(
        result.stderr,
        `Error: invalid value ${JSON.stringify(bad)} for --concurrency: expected a whole number of at least 1\n`,
      );
    }
    deepEqual(sandbox.requests, []);
  });
});

Deno.test("storage fallback through the CLI: storage.type local writes <root>/<container>/fast/<version>-<file>", async () => {
  const root = await Deno.makeTempDir({ prefix: "fctl-cli-storage-" });
  try {
    await withSandbox(async (sandbox, run) => {
      sandbox.failNext("CreateUploadLocation", Code.Unimplemented);
      const result = await run([
        "register",
        "files",
        "--archive",
        fixture(CORE),
        "--version",
        "v1",
        "--storage.type",
        "local",
        "--storage.container",
        "bkt",
        "--storage.connection.endpoint",
        root,
        // The sandbox is on loopback: its "cluster" is this machine, which reads local storage.
        "--storage.allow-local-fallback",
      ]);
      equal(result.code, 0, result.stderr);
      const stored = await Deno.stat(`${root}/bkt/fast/v1-fasted4a62b5c4359e9aed745fa1197a9ea0.tar.gz`);
      assert(stored.isFile && stored.size > 0);
      // Without the option, local storage is refused rather than registering tasks no cluster could run.
      sandbox.failNext("CreateUploadLocation", Code.Unimplemented);
      const refused = await run([
        "register",
        "files",
        "--archive",
        fixture(CORE),
        "--version",
        "v3",
        "--storage.type",
        "local",
        "--storage.container",
        "bkt",
        "--storage.connection.endpoint",
        root,
      ]);
      equal(refused.code, 2, refused.stderr);
      match(
        refused.stderr,
        /storage\.type local keeps it where the admin's cluster cannot read it; .*--storage\.allow-local-fallback\n/,
      );
      equal(await Deno.stat(`${root}/bkt/fast/v3-fasted4a62b5c4359e9aed745fa1197a9ea0.tar.gz`).catch(() => null), null);
      // Found before the first create: nothing under v3 was registered.
      equal(versions(sandbox).has("v3"), false);
      // The default storage (s3) with no bucket configured: one line naming what is missing, nothing created.
      sandbox.failNext("CreateUploadLocation", Code.Unimplemented);
      const s3 = await run(["register", "files", "--archive", fixture(CORE), "--version", "v2"]);
      equal(s3.code, 2);
      equal(s3.stderr, "Error: storage.container must be set to write to s3 storage\n");
      equal(versions(sandbox).has("v2"), false);
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("--storage.allow-local-fallback is refused for an admin that is not on this machine, before any call", async () => {
  const result = await runFctl([
    ...["register", "files", "--archive", fixture(CORE), "--version", "v1", "-p", "flytesnacks", "-d", "development"],
    ...["--admin.endpoint", "dns:///flyte.example.com:443", "--storage.type", "mem", "--storage.container", "c"],
    "--storage.allow-local-fallback",
  ]);
  equal(result.code, 2);
  equal(
    result.stderr,
    'Error: storage.allow-local-fallback needs an admin on this machine: admin.endpoint "dns:///flyte.example.com:443" ' +
      "is not a loopback address (localhost, 127.0.0.1, ::1), so its cluster could not read local or mem storage\n",
  );
  equal(result.stdout, "");
});

Deno.test("tar-slip and symlink archives are refused naming the entry; no temp dir is left", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fctl-cli-test-" });
  try {
    await Deno.writeFile(
      `${dir}/slip.tar`,
      await packTar([{ header: { name: "../../evil_1.pb", size: 1 }, body: "x" }]),
    );
    await Deno.writeFile(
      `${dir}/link.tar`,
      await packTar([{ header: { name: "a_1.pb", type: "symlink", linkname: "/etc/passwd", size: 0 } }]),
    );
    const probe = await Deno.makeTempDir({ prefix: "fctl-probe-" });
    await Deno.remove(probe);
    const tmp = dirname(probe);
    const before = [...Deno.readDirSync(tmp)].filter((e) => e.name.startsWith("fctl-register-")).length;
    await withSandbox(async (sandbox, run) => {
      const slip = await run(["register", "files", "--archive", `${dir}/slip.tar`, "--version", "v"]);
      equal(slip.code, 1);
      equal(
        slip.stderr,
        `Error: archive "${dir}/slip.tar" has an unsafe entry "../../evil_1.pb": '..' path segments are not allowed\n`,
      );
      const link = await run(["register", "files", "--archive", `${dir}/link.tar`, "--version", "v"]);
      equal(link.code, 1);
      match(link.stderr, /unsafe entry "a_1\.pb": symlink entries are not allowed/);
      deepEqual(sandbox.requests, []);
    });
    equal([...Deno.readDirSync(tmp)].filter((e) => e.name.startsWith("fctl-register-")).length, before);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Ctrl-C: in-flight creates finish, the table shows what was and was not registered, exit 130", async () => {
  await withSandbox(async (sandbox, run) => {
    sandbox.setLatency(10);
    const controller = new AbortController();
    const watcher = setInterval(() => {
      if (creates(sandbox).length >= 3) controller.abort();
    }, 1);
    try {
      const result = await run(["register", "files", "--archive", fixture(CORE), "--version", "v1"], {
        signal: controller.signal,
      });
      equal(result.code, 130);
      equal(result.stderr, "Error: interrupted; the report above shows what was and was not registered\n");
      const rows = tableRows(result.stdout);
      equal(rows.length, 84);
      const registered = rows.filter((r) => r[1] === "Success").length;
      equal(registered, creates(sandbox).length, "every create sent is reported as registered");
      assert(rows.filter((r) => r[1] !== "Success").every((r) => r[2] === "Not registered: interrupted"));
    } finally {
      clearInterval(watcher);
    }
  });
});

Deno.test("Ctrl-C against a slow admin: after a second of waiting for the creates in flight, stderr says what it waits for", async () => {
  await withSandbox(async (sandbox, run) => {
    sandbox.setLatency(2_500);
    const controller = new AbortController();
    const watcher = setInterval(() => {
      if (creates(sandbox).length > 0) controller.abort();
    }, 1);
    try {
      const started = performance.now();
      const result = await run(["register", "files", "--archive", fixture(CORE), "--version", "v1"], {
        signal: controller.signal,
      });
      equal(result.code, 130);
      equal(
        result.stderr,
        "interrupted: waiting for the creates already sent to the admin to end, for the report; Ctrl-C again to exit now\n" +
          "Error: interrupted; the report above shows what was and was not registered\n",
      );
      assert(performance.now() - started >= 2_500, "the creates in flight were waited for");
      equal(tableRows(result.stdout).filter((r) => r[1] === "Success").length, creates(sandbox).length);
    } finally {
      clearInterval(watcher);
    }
  });
});

Deno.test("the admin going away mid-registration: the report on stdout, then one error line, exit 1", async () => {
  await withSandbox(async (sandbox, run) => {
    // The tasks are created, then every workflow create is refused, as when the admin dies.
    sandbox.failRatio("CreateWorkflow", Code.Unavailable, 1);
    const args = ["register", "files", "--archive", fixture(CORE), "--version", "v1", "--concurrency", "1"];
    const table = await run(args);
    equal(table.code, 1);
    const rows = tableRows(table.stdout);
    equal(rows.length, 84);
    equal(rows.filter((r) => r[1] === "Failed").length, 1);
    assert(rows.some((r) => r[1] === "Success"));
    assert(rows.some((r) => r[1] === "Skipped" && r[2] === "Not registered: an earlier file failed"));
    equal(table.stderr.trim().split("\n").length, 1, table.stderr);
    match(table.stderr, /^Error: .*Unavailable/);

    const json = await run([...args, "-o", "json"]);
    equal(json.code, 1);
    const report = JSON.parse(json.stdout);
    equal(report.entries.length, 84);
    equal(report.failed, 1);
    match(report.error, /Unavailable/);
    equal(json.stderr.trim().split("\n").length, 1, json.stderr);
  });
});

/** The cells of `column` in the data rows of a results table, in order (header and rules left out). */
function columnCells(stdout: string, column: number): string[] {
  const lines = stdout.split("\n");
  const rules = lines.flatMap((line, i) => (line.startsWith(" -") ? [i] : []));
  return lines.slice(rules[1] + 1, rules[rules.length - 1])
    .filter((line) => line.startsWith("|"))
    .map((line) => line.split("|")[column + 1].trim())
    .filter((cell) => cell !== "");
}

Deno.test("on a terminal of 80 and 120 columns no header and no failure reason is cut; stderr names the failed file and why", async () => {
  await withSandbox(async (_sandbox, run) => {
    const greet = "69_core.flyte_basics.lp.greet_1.pb";
    equal((await run(["register", "files", fixture(greet), "--version", "v1"])).code, 0);
    // A long path, as a package's members have: the table must still show why the file failed.
    const dir = await Deno.makeTempDir({ prefix: "fctl-cli-test-a-directory-with-a-rather-long-name-" });
    try {
      const spec = fromBinary(TaskSpecSchema, await Deno.readFile(fixture(greet)));
      assert(spec.template);
      spec.template.type = "changed-type";
      const path = `${dir}/${greet}`;
      await Deno.writeFile(path, toBinary(TaskSpecSchema, spec));
      const reason = "Error registering file due to task with different structure already exists";
      for (const columns of [80, 120]) {
        const result = await run(["register", "files", path, "--version", "v1"], {
          stdoutIsTerminal: true,
          columns,
          env: { NO_COLOR: "1" },
        });
        equal(result.code, 1);
        const lines = result.stdout.trimEnd().split("\n");
        for (const line of lines) assert(line.length <= columns, `${columns}: ${line}`);
        assert(!result.stdout.includes("..."), `${columns}: something was cut:\n${result.stdout}`);
        // Headers whole (wrapped between their words at most).
        match(lines[1], /^\| NAME +\| STATUS \| ADDITIONAL( INFO)? +\|$/);
        if (!lines[1].includes("INFO")) match(lines[2], /^\| +\| +\| INFO +\|$/);
        equal(columnCells(result.stdout, 0).join(""), path, `${columns}: the path whole`);
        equal(columnCells(result.stdout, 2).join(" "), reason, `${columns}: the reason whole`);
        equal(result.stderr, `failed: ${path}: ${reason}\nError: 1 of 1 files failed to register\n`);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});

Deno.test("a package refused before any create: its problems as rows, the rest one line; stderr names at most 10; JSON keeps every entry", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fctl-cli-test-" });
  const sandbox = await startSandbox();
  try {
    const scope = ["-p", "flytesnacks", "-d", "development", "--version", "v1", "--admin.endpoint", sandbox.endpoint];
    // flytesnacks' own broken package: 101 entities, and 4 members that are none (macOS junk, a misnamed source).
    const invalid = await runFctlProcess(["register", "files", "--archive", fixture("invalid-fast.tgz"), ...scope]);
    equal(invalid.code, 1, invalid.stderr);
    const rows = tableRows(invalid.stdout);
    equal(rows.length, 4);
    assert(rows.every((r) => r[1] === "Failed" && r[2].startsWith("Unexpected file: ")), invalid.stdout);
    match(invalid.stdout, /\n4 rows\n101 entities not registered because the package has 4 problems\n$/);
    const failed = invalid.stderr.split("\n").filter((line) => line.startsWith("failed: "));
    deepEqual(failed.map((line) => line.split(": ")[1]), rows.map((r) => r[0]));
    match(invalid.stderr, /\nError: 4 of 105 files failed to register\n$/);
    const json = await runFctlProcess([
      "register",
      "files",
      "--archive",
      fixture("invalid-fast.tgz"),
      ...scope,
      "-o",
      "json",
    ]);
    equal(json.code, 1);
    const report = JSON.parse(json.stdout);
    equal(report.entries.length, 105);
    equal(report.entries.filter((e: { status: string }) => e.status === "Skipped").length, 101);

    // 12 problems: 10 named on stderr, then how many more.
    const junk = Array.from({ length: 12 }, (_, i) => ({
      header: { name: `pkg/notes-${String(i).padStart(2, "0")}.txt`, size: 1 },
      body: "x",
    }));
    const greet = await Deno.readFile(fixture("69_core.flyte_basics.lp.greet_1.pb"));
    const entity = { header: { name: "pkg/69_core.flyte_basics.lp.greet_1.pb", size: greet.length }, body: greet };
    await Deno.writeFile(`${dir}/junk.tar`, await packTar([entity, ...junk]));
    const many = await runFctlProcess(["register", "files", "--archive", `${dir}/junk.tar`, ...scope]);
    equal(many.code, 1);
    match(many.stdout, /\n12 rows\n1 entity not registered because the package has 12 problems\n$/);
    const lines = many.stderr.trimEnd().split("\n");
    equal(lines.length, 12, many.stderr);
    deepEqual(lines.slice(0, 10), junk.slice(0, 10).map((j) => `failed: ${j.header.name}: ${rows[0][2]}`));
    equal(lines[10], "failed: and 2 more (the report above lists them)");
    equal(lines[11], "Error: 12 of 13 files failed to register");
    deepEqual(sandbox.requests, [], "nothing was sent");
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an archive with no entity in it (an empty tar, only other files, only a source) is an error naming it, exit 1", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fctl-cli-test-" });
  const sandbox = await startSandbox();
  try {
    // 10,240 zero bytes: a valid tar with no entry at all.
    await Deno.writeFile(`${dir}/empty.tar`, new Uint8Array(10_240));
    const file = (name: string) => ({ header: { name, size: 1 }, body: "x" });
    await Deno.writeFile(`${dir}/others.tar`, await packTar([file("README.md"), file("._a_1.pb")]));
    await Deno.writeFile(`${dir}/source.tar`, await packTar([file("pkg/fastabc.tar.gz")]));
    const cases = [
      ["empty.tar", "it holds no files"],
      ["others.tar", 'it holds 2 files, none of them a .pb ("README.md", "._a_1.pb")'],
      ["source.tar", 'it holds 1 file, none of them a .pb ("pkg/fastabc.tar.gz")'],
    ];
    for (const [name, held] of cases) {
      const result = await runFctlProcess([
        ...["register", "files", "--archive", `${dir}/${name}`, "-p", "flytesnacks", "-d", "development"],
        ...["--version", "v1", "--admin.endpoint", sandbox.endpoint],
      ]);
      equal(result.code, 1, name);
      equal(
        result.stderr,
        `Error: archive "${dir}/${name}" has no entity to register (serialized .pb files): ${held}\n`,
      );
      equal(result.stdout, "");
    }
    // The upload location a source makes fctl ask for early may have been asked for; nothing was created.
    deepEqual(sandbox.requests.filter((r) => r.method !== "CreateUploadLocation"), []);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});
