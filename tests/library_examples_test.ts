/**
 * Doc examples a program would copy run as written: each is taken from the JSDoc of its symbol, run as a module of
 * its own (importing `@fctl/fctl` as a program does), and must exit 0 with every `console.log(…); // true` printing
 * `true`. `scripts/doc_lint.ts` type-checks every example; these are the self-contained ones (no user configuration,
 * no remote service) whose promises are worth running.
 */
import { equal } from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);

/** Examples to run, by the file declaring the symbol and the line that declares it. */
const EXAMPLES: [file: string, declaration: string][] = [
  ["src/sandbox/data_proxy.ts", "export const SANDBOX_BUCKET"],
  ["src/sandbox/server.ts", "export interface Sandbox "],
  ["src/sandbox/server.ts", "export async function startSandbox"],
  ["src/config/schema.ts", "export type OptionType"],
  ["src/config/schema.ts", "export const OPTION_TABLE"],
  ["src/config/schema.ts", "export const OPTIONS"],
  ["src/storage/mod.ts", "export async function openStorage"],
];

/** The fenced `ts` blocks of the JSDoc right above `declaration` in `source`. */
export function examplesAbove(source: string, declaration: string): string[] {
  const at = source.indexOf(declaration);
  if (at < 0) throw new Error(`no ${JSON.stringify(declaration)}`);
  const docStart = source.lastIndexOf("/**", at);
  const doc = source.slice(docStart, source.indexOf("*/", docStart));
  const lines = doc.split("\n").map((line) => line.replace(/^\s*\* ?/, ""));
  const blocks: string[] = [];
  let block: string[] | undefined;
  for (const line of lines) {
    if (block === undefined && line.trim() === "```ts") block = [];
    else if (block !== undefined && line.trim() === "```") {
      blocks.push(block.join("\n"));
      block = undefined;
    } else block?.push(line);
  }
  return blocks;
}

for (const [file, declaration] of EXAMPLES) {
  Deno.test(`the example of ${declaration.trim().split(" ").at(-1)} (${file}) runs as written`, async () => {
    const examples = examplesAbove(await Deno.readTextFile(new URL(file, ROOT)), declaration);
    equal(examples.length > 0, true, "an example");
    const dir = await Deno.makeTempDir({ prefix: "fctl-example-" });
    try {
      for (const [i, code] of examples.entries()) {
        const path = `${dir}/example_${i}.ts`;
        await Deno.writeTextFile(path, code);
        const output = await new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "--quiet",
            `--config=${new URL("deno.json", ROOT).pathname}`,
            "--allow-net=127.0.0.1",
            "--allow-read",
            "--allow-env",
            path,
          ],
          cwd: dir,
          stdin: "null",
        }).output();
        const stdout = new TextDecoder().decode(output.stdout);
        const stderr = new TextDecoder().decode(output.stderr);
        equal(output.code, 0, `${file} example ${i}: exit ${output.code}\n${stdout}${stderr}`);
        const promised = code.split("\n").filter((line) => /console\.log\(.*\);\s*\/\/ true$/.test(line)).length;
        const printedTrue = stdout.split("\n").filter((line) => line === "true").length;
        equal(printedTrue, promised, `${file} example ${i} printed:\n${stdout}`);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}
