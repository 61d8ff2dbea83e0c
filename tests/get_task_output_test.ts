/**
 * Exact output of `get task` in every format: piped and terminal tables, JSON and YAML, compared with golden
 * files under tests/testdata/ (regenerate with `FCTL_UPDATE_GOLDEN=1 deno task test`, then review the diff).
 */
import { equal, ok } from "node:assert/strict";
import { runCli } from "../src/cli/run.ts";
import { displayWidth } from "../src/output/text_width.ts";
import { SimpleType } from "../proto/gen/flyteidl/core/types_pb.ts";
import { captureIo } from "./helpers.ts";
import { scope, type TestTask, withTaskSandbox } from "./task_fixtures.ts";

const TASKS: TestTask[] = [
  {
    name: "core.basic.hello",
    version: "v1",
    inputs: { name: { type: SimpleType.STRING } },
    outputs: { o0: { type: SimpleType.STRING, description: "greeting" } },
  },
  {
    name: "core.basic.hello",
    version: "v2",
    inputs: {
      name: { type: SimpleType.STRING },
      times: { type: SimpleType.INTEGER, description: "how many times to repeat the greeting" },
      when: { type: SimpleType.DATETIME, description: "yes" },
    },
    outputs: { o0: { type: SimpleType.STRING, description: "greeting" } },
    discoverable: true,
    discoveryVersion: "1.0",
  },
  { name: "core.日本語.タスク", version: "no", inputs: { a: { type: SimpleType.INTEGER, description: "数字" } } },
];

/** The text without the bold on/off codes fctl uses for headers. */
function plain(text: string): string {
  return text.replaceAll("\x1b[1m", "").replaceAll("\x1b[0m", "");
}

async function golden(name: string, actual: string): Promise<void> {
  const path = new URL(`./testdata/${name}`, import.meta.url);
  if (Deno.env.get("FCTL_UPDATE_GOLDEN")) await Deno.writeTextFile(path, actual);
  equal(actual, await Deno.readTextFile(path), `golden file ${name}`);
}

interface Terminal {
  stdoutIsTerminal?: boolean;
  columns?: number;
  env?: Record<string, string>;
}

async function fctl(args: string[], terminal: Terminal = {}): Promise<string> {
  const base = captureIo({ env: terminal.env });
  const io = { ...base, stdoutIsTerminal: terminal.stdoutIsTerminal ?? false, columns: terminal.columns };
  const code = await runCli(args, io);
  equal(code, 0, io.err());
  equal(io.err(), "");
  return io.out();
}

Deno.test("piped table: flytectl's columns, whole variable lines, no escape codes, no fitting", async () => {
  await withTaskSandbox(TASKS, async (sandbox) => {
    const out = await fctl(["get", "task", ...scope(sandbox.endpoint)], { columns: 40 });
    await golden("get_task_piped.txt", out);
    ok(!out.includes("\x1b["));
  });
});

Deno.test("terminal table: bold headers, fitted to the terminal width", async () => {
  await withTaskSandbox(TASKS, async (sandbox) => {
    const out = await fctl(["get", "task", ...scope(sandbox.endpoint)], { stdoutIsTerminal: true, columns: 120 });
    await golden("get_task_tty_120.txt", out);
    ok(out.includes("\x1b[1mNAME\x1b[0m"), "bold headers");
    for (const line of plain(out).trimEnd().split("\n").slice(0, -1)) {
      equal(displayWidth(line) <= 120, true, line);
    }
    const noColor = await fctl(["get", "task", ...scope(sandbox.endpoint)], {
      stdoutIsTerminal: true,
      columns: 120,
      env: { NO_COLOR: "1" },
    });
    equal(noColor, plain(out), "NO_COLOR: the same table without escape codes");
  });
});

Deno.test("terminal table at 80 and 40 columns: task names and versions stay whole; --wide cuts nothing", async () => {
  await withTaskSandbox(TASKS, async (sandbox) => {
    for (const columns of [40, 80]) {
      const out = plain(await fctl(["get", "task", ...scope(sandbox.endpoint)], { stdoutIsTerminal: true, columns }));
      for (const task of TASKS) ok(out.includes(`| ${task.version.padEnd(7)} | ${task.name}`), `${columns}: ${out}`);
      ok(out.includes("..."), "other columns were cut to fit");
      // Headers are never cut: they wrap between words; columns that say little for their width are left out, and
      // the count line names them.
      const [, first, second] = out.split("\n");
      ok(!first.includes("...") && !second.includes("..."), `${columns}: a header was cut:\n${out}`);
      for (const word of ["VERSION", "NAME", "TYPE", "INPUTS", "OUTPUTS", "CREATED", "AT"]) {
        ok(`${first} ${second}`.split(/[ |]+/).includes(word), `${columns}: ${word}:\n${out}`);
      }
      ok(out.endsWith("\n3 rows (not shown: DISCOVERABLE, DISCOVERY VERSION; --wide shows them)\n"), out);
    }
    const wide = await fctl(["get", "task", "--wide", ...scope(sandbox.endpoint)], { columns: 40 });
    const wideTerminal = plain(
      await fctl(["get", "task", "--wide", ...scope(sandbox.endpoint)], { stdoutIsTerminal: true, columns: 40 }),
    );
    equal(wideTerminal, wide, "--wide on a terminal: the piped table (bold headers aside)");
    ok(wide.includes("times: how many times to repeat the greeting"), wide);
    ok(!wide.includes("..."), wide);
  });
});

Deno.test("JSON: a listing is an array, --latest and --version one object, canonical proto3 JSON", async () => {
  await withTaskSandbox(TASKS, async (sandbox) => {
    await golden(
      "get_task_list.json",
      await fctl(["get", "task", "core.basic.hello", "-o", "json", ...scope(sandbox.endpoint)]),
    );
    const latest = await fctl([
      "get",
      "task",
      "core.basic.hello",
      "--latest",
      "-o",
      "JSON",
      ...scope(sandbox.endpoint),
    ]);
    await golden("get_task_latest.json", latest);
    const version = await fctl([
      "get",
      "task",
      "core.basic.hello",
      "--version",
      "v2",
      "-o",
      "Json",
      ...scope(sandbox.endpoint),
    ]);
    equal(version, latest);
  });
});

Deno.test("YAML: the same document, YAML 1.1 look-alikes quoted", async () => {
  await withTaskSandbox(TASKS, async (sandbox) => {
    const out = await fctl(["get", "task", "-o", "yaml", ...scope(sandbox.endpoint)]);
    await golden("get_task_list.yaml", out);
    ok(out.includes('version: "no"'), "a version named no stays a string for YAML 1.1 readers");
    ok(out.includes('description: "yes"'));
    const one = await fctl(["get", "task", "core.basic.hello", "--latest", "-o", "yaml", ...scope(sandbox.endpoint)]);
    ok(one.startsWith("id:\n  resourceType: TASK\n"), one.slice(0, 60));
  });
});
