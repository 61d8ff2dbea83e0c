/**
 * The compile inputs are right without Deno's runtime base: every module fctl loads on demand is found (literal
 * specifiers only), a full `deno compile` with `DENORT_BIN --unchecked-base` embeds all of them under exactly the
 * declared permissions, and without a runtime base the script stops at the download with its one line. A
 * `DENORT_BIN` that is no runtime base for the target is refused before anything is built.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { FCTL_RUN_FLAGS } from "../src/permissions.ts";
import {
  compileArgs,
  EXIT_NO_RUNTIME_BASE,
  lazyModules,
  mainGraph,
  outputName,
  TARGETS,
  unusedPackagePaths,
} from "./compile.ts";
import { executableTarget } from "./runtime_base.ts";
import { BUNDLE_DIR, BUNDLE_MAIN, BUNDLED_ES_BUILDS, BUNDLED_PACKAGES } from "./bundle.ts";
import denoJson from "../deno.json" with { type: "json" };

const ROOT = new URL("../", import.meta.url);

/** The installed directory (`node_modules/.deno/<dir>`) of a package fctl's `deno.json` imports. */
function storeDir(name: string): string {
  const specifier = (denoJson.imports as Record<string, string>)[name];
  return specifier.replace(/^npm:/, "").replace("/", "+");
}

/** The installed directories (every version) of a package that is no import of fctl's own, only a dependency. */
function installedDirs(name: string): string[] {
  const prefix = `${name.replace("/", "+")}@`;
  const found = [...Deno.readDirSync(new URL("node_modules/.deno/", ROOT))].filter((e) => e.name.startsWith(prefix));
  ok(found.length > 0, `${name} is installed`);
  return found.map((entry) => entry.name);
}

/** Packages fctl imports or its SDKs load with require() at run time: the binary must carry each. */
const RUNTIME_PACKAGES = () => [
  ...[
    "@aws-sdk/client-s3",
    "@smithy/fetch-http-handler",
    "@google-cloud/storage",
    "google-auth-library",
    "@azure/storage-blob",
  ].map(storeDir),
  // Loaded by the SDKs through require() (credential chains, auth, HTTP pipeline), which no import shows.
  ...["@aws-sdk/credential-provider-node", "@aws-sdk/credential-provider-ini", "gaxios", "@azure/core-rest-pipeline"]
    .flatMap(installedDirs),
];

/** Packages only the tests (and the proto generator) use: the binary must carry none. */
const TEST_ONLY_PACKAGES = () => ["azurite", "s3rver", "fast-check", "@types/node", "@flyteorg/flyteidl"].map(storeDir);

/** Runs `deno task compile`'s script as the task does, with `env` added. */
async function compile(args: string[], env: Record<string, string> = {}) {
  const task = denoJson.tasks.compile.split(" && ").at(-1)!.split(" ").slice(1);
  const out = await new Deno.Command(Deno.execPath(), { args: [...task, ...args], cwd: ROOT, env }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
}

Deno.test("every dynamic import in fctl's code has a literal specifier, so deno compile and publish can see it", async () => {
  const files: string[] = ["main.ts", "mod.ts"];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(new URL(dir, ROOT))) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts")) files.push(path);
    }
  };
  await walk("src");
  const computed: string[] = [];
  for (const file of files) {
    const text = await Deno.readTextFile(new URL(file, ROOT));
    for (const found of text.matchAll(/\bimport\(\s*([^)]*)/g)) {
      if (!/^["'][^"'`$]+["']\s*$/.test(found[1])) computed.push(`${file}: import(${found[1]})`);
    }
  }
  deepEqual(computed, []);
  ok(files.includes("src/cli/run.ts"), "the walk reads fctl's sources, so the check can fail");
});

Deno.test("the compile includes every chunk the bundle loads on demand, and only the bundle's files", async () => {
  const { includes, unresolved } = await lazyModules();
  deepEqual(unresolved, []);
  const chunks: string[] = [];
  for await (const entry of Deno.readDir(new URL(`${BUNDLE_DIR}/`, ROOT))) {
    if (entry.name.endsWith(".js")) chunks.push(`${BUNDLE_DIR}/${entry.name}`);
  }
  const graph = await mainGraph();
  const loadedAtStart = [...graph.reachable()].map((specifier) => specifier.slice(ROOT.href.length));
  // Every chunk is reached from main.js: at start (embedded anyway) or on demand (included).
  deepEqual(chunks.filter((chunk) => !includes.includes(chunk) && !loadedAtStart.includes(chunk)), []);
  ok(includes.length > 20, "the commands' chunks");
  ok(!includes.includes(BUNDLE_MAIN), "static imports are embedded anyway");
  deepEqual(includes.filter((path) => !path.startsWith(`${BUNDLE_DIR}/`)), []);
});

Deno.test("the compile leaves out every package fctl cannot load at run time, and no run-time package", async () => {
  const excludes = await unusedPackagePaths(await mainGraph());
  const excludedDirs = excludes.filter((path) => /^node_modules\/\.deno\/[^/]+$/.test(path)).map((path) =>
    path.slice("node_modules/.deno/".length)
  );
  for (const dir of TEST_ONLY_PACKAGES()) ok(excludedDirs.includes(dir), `${dir} is excluded`);
  for (const dir of RUNTIME_PACKAGES()) {
    ok(!excludes.some((path) => path.startsWith(`node_modules/.deno/${dir}`)), `${dir} is kept`);
  }
  // The ES-module packages, yaml and MessagePack are in the bundle itself: their packages are not needed beside it.
  for (const dir of [...BUNDLED_PACKAGES, ...Object.keys(BUNDLED_ES_BUILDS)].map(storeDir)) {
    ok(excludedDirs.includes(dir), `${dir} is bundled`);
  }
  for (const link of ["node_modules/azurite", "node_modules/s3rver", "node_modules/fast-check"]) {
    ok(excludes.includes(link), `${link}: deno compile would follow the link and embed its target`);
  }
  ok(!excludes.includes("node_modules/@google-cloud/storage") && !excludes.includes("node_modules/@aws-sdk/client-s3"));
});

Deno.test("deno compile runs with exactly the permission flags the CLI tests run main.ts with", () => {
  const args = compileArgs({
    target: TARGETS[0],
    output: "dist/fctl",
    includes: ["src/a.ts"],
    excludes: ["node_modules/.deno/b@1.0.0"],
  });
  deepEqual(args.filter((arg) => /^--(allow|deny)-/.test(arg)), [...FCTL_RUN_FLAGS]);
  deepEqual(args.slice(-5), ["--include", "src/a.ts", "--exclude", "node_modules/.deno/b@1.0.0", BUNDLE_MAIN]);
  ok(args.includes("--no-prompt"));
  const scoped = compileArgs({
    target: TARGETS[0],
    output: "x",
    includes: [],
    excludes: [],
    run: ["/usr/bin/token-helper"],
  });
  ok(scoped.includes("--allow-run=/usr/bin/token-helper") && !scoped.includes("--allow-run"));
  ok(compileArgs({ target: TARGETS[0], output: "x", includes: [], excludes: [], run: [] }).includes("--deny-run"));
});

Deno.test("deno task compile with a local runtime base (DENORT_BIN) embeds every lazily loaded module", async () => {
  const out = await Deno.makeTempDir({ prefix: "fctl-compile-test-" });
  try {
    const target = "x86_64-unknown-linux-gnu";
    // Any executable serves as the base for this check (--unchecked-base lets the deno CLI be one): the binary is
    // not run, only its embedded files read.
    const result = await compile(["--target", target, "--out", out, "--unchecked-base"], {
      DENORT_BIN: Deno.execPath(),
    });
    equal(result.code, 0, result.stderr);
    equal(result.stdout, `compile: ${out}/${outputName(target)} (on an unchecked DENORT_BIN: it need not run)\n`);
    const binary = new TextDecoder("latin1").decode(await Deno.readFile(`${out}/${outputName(target)}`));
    const { includes } = await lazyModules();
    const missing: string[] = [];
    for (const path of includes) {
      if (!binary.includes(new TextDecoder("latin1").decode(await Deno.readFile(new URL(path, ROOT))))) {
        missing.push(path);
      }
    }
    deepEqual(missing, []);
    // The npm packages embedded: every run-time one, no test-only one (directory entries of the embedded file
    // system, as `deno compile` records them: {"Dir":{"n":"yaml@2.9.1",…}).
    const embedded = (dir: string) => binary.includes(`{"Dir":{"n":${JSON.stringify(dir)},`);
    ok(
      embedded(storeDir("@aws-sdk/client-s3")),
      "the embedded file system lists package directories as the check expects",
    );
    deepEqual(RUNTIME_PACKAGES().filter((dir) => !embedded(dir)), [], "run-time packages missing from the binary");
    deepEqual(TEST_ONLY_PACKAGES().filter(embedded), [], "test-only packages in the binary");
    ok(!/\{"Dir":\{"n":"@types\+/.test(binary), "no declaration-only @types package");
    // What the build embeds beyond its base: about 52 MB with only the run-time packages, 174 MB with all of
    // node_modules. A budget, so that a new dependency's weight is a decision.
    const added = (await Deno.stat(`${out}/${outputName(target)}`)).size - (await Deno.stat(Deno.execPath())).size;
    ok(added < 64_000_000, `the binary embeds ${(added / 1e6).toFixed(1)} MB, over the 64 MB budget`);
    // The permissions the binary runs with, as deno compile recorded them: the declared set and nothing more.
    const recorded = /"permissions":(\{[^{}]*\})/.exec(binary);
    ok(recorded, "the binary records its permissions");
    const permissions = JSON.parse(recorded[1]);
    deepEqual(
      [permissions.allow_net, permissions.allow_read, permissions.allow_write, permissions.allow_env],
      [[], [], [], []],
      "net, read, write and env: any",
    );
    deepEqual(permissions.allow_run, [], "run: any program (see src/permissions.ts)");
    deepEqual(
      [permissions.allow_sys, permissions.allow_ffi],
      [["osRelease"], null],
      "sys: osRelease only (the Azure SDK); no ffi",
    );
    deepEqual(permissions.deny_import, [], "no import from the network");
    equal(permissions.prompt, false, "a missing permission is an error, not a prompt");
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("deno task compile without a runtime base: checked up to the download, then one line and exit 3", async () => {
  const out = await Deno.makeTempDir({ prefix: "fctl-compile-test-" });
  try {
    const target = "aarch64-apple-darwin";
    const result = await compile(["--target", target, "--out", out]);
    if (result.code === 0) {
      // A machine that reaches Deno's release host builds the binary.
      ok((await Deno.stat(`${out}/${outputName(target)}`)).isFile);
      return;
    }
    equal(result.code, EXIT_NO_RUNTIME_BASE, result.stderr);
    match(
      result.stderr,
      /^compile: cannot download Deno's runtime base \(denort\) for aarch64-apple-darwin; every compile input checked out \(set DENORT_BIN to a local denort to build offline\)\n$/,
    );
    equal(result.stdout, "");
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("deno task compile refuses a DENORT_BIN that is no runtime base for the target, in one line, exit 2, before building", async () => {
  const deno = Deno.execPath();
  const host = executableTarget((await Deno.readFile(deno)).subarray(0, 4096));
  ok(host && TARGETS.includes(host), `the deno running the tests is an executable for a release target: ${host}`);
  const other = TARGETS.find((target) => target !== host)!;
  const out = await Deno.makeTempDir({ prefix: "fctl-compile-test-" });
  const script = `${out}/base.sh`;
  await Deno.writeTextFile(script, "#!/bin/sh\necho deno 2.9.6\n", { mode: 0o755 });
  try {
    const expected = (target: string) =>
      `expected denort (from denort-${target}.zip of Deno ${Deno.version.deno}), not the deno CLI or another program`;
    const cases: [string[], string, string][] = [
      // The deno CLI, for the right platform: what built a 147 MB plain Deno before.
      [["--target", host], deno, `DENORT_BIN "${deno}" is not Deno's runtime base: ${expected(host)}`],
      // One base for every target: deno compile would put it into each.
      [
        [],
        deno,
        `DENORT_BIN "${deno}" is an executable for ${host}, not ${
          TARGETS.find((target) => target !== host)
        }: deno compile would put it into every target's binary, so build ${host} alone (--target ${host})`,
      ],
      [
        ["--target", other],
        deno,
        `DENORT_BIN "${deno}" is an executable for ${host}, not ${other}: deno compile would put it into every target's binary, so build ${host} alone (--target ${host})`,
      ],
      [
        ["--target", host],
        script,
        `DENORT_BIN "${script}" is not an executable for any release target: ${expected(host)}`,
      ],
      [["--target", host], `${out}/none`, `DENORT_BIN "${out}/none" does not exist: ${expected(host)}`],
      [["--target", host], out, `DENORT_BIN "${out}" is not a file: ${expected(host)}`],
      [["--target", host], "", `DENORT_BIN is empty: unset it to download Deno's runtime base, or ${expected(host)}`],
    ];
    for (const [args, base, message] of cases) {
      const result = await compile([...args, "--out", out], { DENORT_BIN: base });
      deepEqual([result.code, result.stderr, result.stdout], [2, `compile: ${message}\n`, ""], `${base} ${args}`);
    }
    deepEqual([...Deno.readDirSync(out)].map((entry) => entry.name), ["base.sh"], "nothing was built");
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("deno task compile --unchecked-base without DENORT_BIN is a usage error", async () => {
  const { DENORT_BIN: _, ...env } = Deno.env.toObject();
  const task = denoJson.tasks.compile.split(" && ").at(-1)!.split(" ").slice(1);
  const out = await new Deno.Command(Deno.execPath(), {
    args: [...task, "--unchecked-base"],
    cwd: ROOT,
    env,
    clearEnv: true,
  }).output();
  equal(out.code, 2);
  equal(new TextDecoder().decode(out.stderr), "compile: --unchecked-base applies to DENORT_BIN, which is not set\n");
});

Deno.test("deno task compile refuses an unknown target in one line, exit 2", async () => {
  const result = await compile(["--target", "sparc"]);
  equal(result.code, 2);
  match(result.stderr, /^compile: unknown target "sparc" \(one of x86_64-unknown-linux-gnu, .*\)\n$/);
});
