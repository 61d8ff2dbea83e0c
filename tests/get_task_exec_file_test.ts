/**
 * `get task NAME --execFile FILE`: the selected task's spec, written atomically with mode 0600; existing files
 * only replaced after a yes on a terminal.
 */
import { deepEqual, equal, match } from "node:assert/strict";
import { parse } from "yaml";
import { runCli } from "../src/cli/run.ts";
import { SimpleType } from "../proto/gen/flyteidl/core/types_pb.ts";
import { collectionOf, enumOf, simple, unionOf } from "../src/_test_literals.ts";
import { captureIo, runFctl } from "./helpers.ts";
import { scope, taskCalls, type TestTask, withTaskSandbox } from "./task_fixtures.ts";

const TASKS: TestTask[] = [
  { name: "core.types.mixed", version: "v1", inputs: { old: { type: SimpleType.STRING } } },
  {
    name: "core.types.mixed",
    version: "v2",
    inputs: {
      count: { type: SimpleType.INTEGER, description: "how many" },
      when: { type: SimpleType.DATETIME },
      tags: { literalType: collectionOf(simple(SimpleType.STRING)) },
      choice: {
        literalType: unionOf({ type: { case: "structuredDatasetType", value: {} } }, simple(SimpleType.NONE)),
      },
      colour: { literalType: enumOf("red", "green") },
    },
  },
];

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "fctl_exec_" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function expectedV2(when: unknown) {
  return {
    iamRoleARN: "",
    inputs: { choice: "/tmp/somepath", colour: "red", count: 0, tags: [""], when },
    envs: {},
    kubeServiceAcct: "",
    targetDomain: "",
    targetProject: "",
    task: "core.types.mixed",
    version: "v2",
  };
}

Deno.test("--execFile writes the newest version's spec (mode 0600) and still prints the listing", async () => {
  await withTaskSandbox(TASKS, (sandbox) =>
    withDir(async (dir) => {
      const file = `${dir}/spec.yaml`;
      const before = Date.now();
      const { code, stdout, stderr } = await runFctl([
        "get",
        "task",
        "core.types.mixed",
        "--execFile",
        file,
        ...scope(sandbox.endpoint),
      ]);
      equal(code, 0, stderr);
      match(stdout, /2 rows\n$/);
      equal(stderr, `wrote the execution spec of core.types.mixed version v2 to ${file}\n`);
      const text = await Deno.readTextFile(file);
      const doc = parse(text, { version: "1.1" });
      const when = Date.parse(doc.inputs.when);
      equal(when >= before - 1 && when <= Date.now(), true, "datetime defaults to now");
      deepEqual(doc, expectedV2(doc.inputs.when));
      equal(text.includes("\n  # how many\n  count: 0\n"), true, text);
      equal((await Deno.stat(file)).mode! & 0o777, 0o600);
      deepEqual((await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name), ["spec.yaml"], "no temp file left");
      equal(taskCalls(sandbox).length, 1, "the default listing already starts with the newest");
    }));
});

Deno.test("--execFile follows --version, and asks for the newest when the listing is sorted otherwise", async () => {
  await withTaskSandbox(TASKS, (sandbox) =>
    withDir(async (dir) => {
      const v1 = await runFctl([
        "get",
        "task",
        "core.types.mixed",
        "--version",
        "v1",
        "--execFile",
        `${dir}/v1.yaml`,
        ...scope(sandbox.endpoint),
      ]);
      equal(v1.code, 0, v1.stderr);
      deepEqual(parse(await Deno.readTextFile(`${dir}/v1.yaml`)).inputs, { old: "" });
      sandbox.clearRequests();
      const asc = await runFctl([
        "get",
        "task",
        "core.types.mixed",
        "--filter.asc",
        "--execFile",
        `${dir}/asc.yaml`,
        ...scope(sandbox.endpoint),
      ]);
      equal(asc.code, 0, asc.stderr);
      equal(parse(await Deno.readTextFile(`${dir}/asc.yaml`)).version, "v2");
      deepEqual(taskCalls(sandbox).map((c) => c.method === "ListTasks" && [c.limit, c.sortBy?.direction]), [
        [100, "ASCENDING"],
        [1, "DESCENDING"],
      ]);
    }));
});

Deno.test("an existing exec file is never replaced without a terminal, and only after a yes on one", async () => {
  await withTaskSandbox(TASKS, (sandbox) =>
    withDir(async (dir) => {
      const file = `${dir}/spec.yaml`;
      await Deno.writeTextFile(file, "mine\n");
      const args = ["get", "task", "core.types.mixed", "--execFile", file, ...scope(sandbox.endpoint)];
      const piped = await runFctl(args);
      equal(piped.code, 1);
      equal(piped.stdout, "");
      equal(piped.stderr, `Error: exec file "${file}" already exists: backup the file before continuing\n`);
      equal(await Deno.readTextFile(file), "mine\n");
      deepEqual(sandbox.requests, [], "refused before any RPC");

      const ask = async (answer: string | null) => {
        const io = { ...captureIo(), stdinIsTerminal: true, readLine: () => Promise.resolve(answer) };
        return { code: await runCli(args, io), stderr: io.err() };
      };
      for (const answer of ["n", "", null]) {
        const no = await ask(answer);
        equal(no.code, 1);
        equal(
          no.stderr,
          `exec file "${file}" already exists; overwrite it? [y/n]: ` +
            `Error: exec file "${file}" not overwritten: backup the file before continuing\n`,
        );
        equal(await Deno.readTextFile(file), "mine\n");
      }
      const yes = await ask("Y");
      equal(yes.code, 0, yes.stderr);
      equal(parse(await Deno.readTextFile(file)).version, "v2");
      equal((await Deno.stat(file)).mode! & 0o777, 0o600);
    }));
});

Deno.test("--execFile with a relative path says the absolute path it wrote", async () => {
  await withTaskSandbox(TASKS, (sandbox) =>
    withDir(async (dir) => {
      const cwd = Deno.cwd();
      Deno.chdir(dir);
      try {
        const { code, stderr } = await runFctl([
          "get",
          "task",
          "core.types.mixed",
          "--execFile",
          "spec.yaml",
          ...scope(sandbox.endpoint),
        ]);
        equal(code, 0, stderr);
        equal(
          stderr,
          `wrote the execution spec of core.types.mixed version v2 to ${await Deno.realPath(dir)}/spec.yaml\n`,
        );
      } finally {
        Deno.chdir(cwd);
      }
    }));
});

Deno.test("an --execFile that cannot be a file is refused in one line before any RPC: a directory, a missing or file parent", async () => {
  await withTaskSandbox(TASKS, (sandbox) =>
    withDir(async (dir) => {
      await Deno.writeTextFile(`${dir}/plain`, "mine\n");
      const cases: [string, string][] = [
        [dir, `it is a directory; name a file in it`],
        [`${dir}/missing/spec.yaml`, `directory "${dir}/missing" does not exist`],
        [`${dir}/plain/spec.yaml`, `directory "${dir}/plain" is not a directory`],
      ];
      for (const [file, why] of cases) {
        const args = ["get", "task", "core.types.mixed", "--execFile", file, ...scope(sandbox.endpoint)];
        const { code, stdout, stderr } = await runFctl(args);
        deepEqual([code, stdout, stderr], [2, "", `Error: invalid value "${file}" for --execFile: ${why}\n`]);
      }
      deepEqual(sandbox.requests, [], "refused before any RPC");
      deepEqual((await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name), ["plain"], "nothing written");
    }));
});

Deno.test("an exec file name the system refuses says why in one line, without Deno's error code", async () => {
  await withTaskSandbox(TASKS, (sandbox) =>
    withDir(async (dir) => {
      // Longer than the 255 bytes a file name may have.
      const file = `${dir}/${"n".repeat(256)}.yaml`;
      const args = ["get", "task", "core.types.mixed", "--execFile", file, ...scope(sandbox.endpoint)];
      const { code, stdout, stderr } = await runFctl(args);
      deepEqual([code, stdout, stderr], [1, "", `Error: cannot check exec file "${file}": file name too long\n`]);
      deepEqual(sandbox.requests, [], "refused before any RPC");
    }));
});
