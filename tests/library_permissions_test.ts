/**
 * The permissions a program using the library needs are the ones its calls use, no more: a program that gives
 * `connect` its environment (`env`) and no config file runs without `--allow-env`, with the network narrowed to
 * loopback and reads to the clone (whose modules load lazily), as a fresh process that fails on any prompt.
 */
import { equal } from "node:assert/strict";
import { join } from "node:path";
import { startSandbox } from "../testing.ts";

const ROOT = new URL("../", import.meta.url);

async function runProgram(dir: string, program: string, permissions: string[], args: string[]) {
  await Deno.writeTextFile(join(dir, "program.ts"), program);
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--no-prompt",
      "--config",
      new URL("deno.json", ROOT).pathname,
      ...permissions,
      "program.ts",
    ]
      .concat(args),
    cwd: dir,
    env: { NO_COLOR: "1" },
    clearEnv: true,
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
}

Deno.test("connect with its env given needs no --allow-env: a program with only loopback network and reads of the clone", async () => {
  const sandbox = await startSandbox();
  const dir = await Deno.makeTempDir({ prefix: "fctl-library-permissions-" });
  try {
    const program = `
import { connect, getTask } from "${new URL("mod.ts", ROOT).href}";

await using flyte = await connect({
  flags: { "admin.endpoint": Deno.args[0], "admin.insecure": true },
  env: {},
  log: { write: (line) => console.error(line.trimEnd()) },
});
const result = await getTask(flyte.client, { project: "flytesnacks", domain: "development" });
console.log(result.kind);
`;
    const clone = new URL(".", ROOT).pathname;
    const result = await runProgram(
      dir,
      program,
      ["--allow-net=127.0.0.1", `--allow-read=${clone},${dir}`],
      [sandbox.endpoint],
    );
    equal(result.stderr, "");
    equal(result.stdout, "list\n");
    equal(result.code, 0);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});
