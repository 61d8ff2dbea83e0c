/**
 * The package's documentation gate, on its entry points (`mod.ts`, `testing.ts`, `types.ts`):
 *
 * 1. `deno doc --lint` reports nothing: every exported symbol documented, and no public type referring to one the
 *    package does not export. That holds for everything the exports reach, the generated flyteidl types and the
 *    few protobuf-es and Connect types `types.ts` re-exports included: the library's signatures are built so
 *    that it does (fctl's own interfaces instead of Connect's `Client`, `Transport`, `Interceptor`).
 * 2. Every symbol fctl exports that is declared in its own code (not generated, not a dependency's) has an
 *    example: a fenced code block in its JSDoc.
 * 3. Those examples type-check (`deno check --doc-only`), with the project's config minus `noUnusedLocals` and
 *    `noUnusedParameters`: Deno imports every export of the documented module into each example, and an example
 *    uses one or two of them.
 *
 * Exit status: 0 clean; 1 a diagnostic, a symbol without an example or an example that does not type-check
 * (each printed).
 *
 * @module
 */

/** One diagnostic of `deno doc --lint`: its first line and where it points. */
export interface DocDiagnostic {
  /** `error[missing-jsdoc]: exported symbol is missing JSDoc documentation` */
  message: string;
  /** `/abs/path/file.ts:12:3` */
  location: string;
}

/** The diagnostics in `deno doc --lint`'s plain-text output. */
export function parseDocLint(output: string): DocDiagnostic[] {
  const found: DocDiagnostic[] = [];
  const lines = output.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (!/^error\[[a-z-]+\]:/.test(lines[i])) continue;
    const location = /^\s*-->\s*(\S+)/.exec(lines[i + 1] ?? "")?.[1] ?? "";
    found.push({ message: lines[i], location });
  }
  return found;
}

/** Whether `file` (absolute) is fctl's own code: under `root`, neither a dependency nor generated. */
export function isOwnCode(file: string, root: string): boolean {
  return file.startsWith(root) && !/^(node_modules|proto\/gen)\//.test(file.slice(root.length));
}

const ENTRY_POINTS = ["mod.ts", "testing.ts", "types.ts"];

interface DocNode {
  name: string;
  declarations?: {
    kind: string;
    location?: { filename: string; line: number };
    jsDoc?: { doc?: string };
    def?: { hasBody?: boolean };
  }[];
}

/** fctl's own exported declarations in `deno doc --json` output: `[name, kind, absolute file, line, doc]`. */
function ownDeclarations(docJson: string, root: string): [string, string, string, number, string][] {
  const doc = JSON.parse(docJson) as { nodes: Record<string, { symbols?: DocNode[] }> };
  const found: [string, string, string, number, string][] = [];
  for (const module of Object.values(doc.nodes)) {
    for (const symbol of module.symbols ?? []) {
      const declarations = symbol.declarations ?? [];
      // An overloaded function's implementation signature is not one a caller sees: its overloads are documented.
      const overloaded = declarations.some((declaration) =>
        declaration.kind === "function" && !declaration.def?.hasBody
      );
      for (const declaration of declarations) {
        const file = declaration.location?.filename.replace(/^file:\/\//, "") ?? "";
        // A `reference` is a re-export (`export type { X }`) pointing at a declaration listed on its own.
        if (declaration.kind === "reference" || !isOwnCode(file, root)) continue;
        if (overloaded && declaration.def?.hasBody) continue;
        found.push([symbol.name, declaration.kind, file, declaration.location!.line, declaration.jsDoc?.doc ?? ""]);
      }
    }
  }
  return found;
}

/** `name (path:line)` of every exported symbol declared in fctl's own files whose JSDoc has no code example. */
export function symbolsWithoutExample(docJson: string, root: string): string[] {
  const missing = new Set<string>();
  for (const [name, , file, line, doc] of ownDeclarations(docJson, root)) {
    if (!doc.includes("```")) missing.add(`${name} (${file.slice(root.length)}:${line})`);
  }
  return [...missing].sort();
}

/** The files (relative to `root`) that declare fctl's exported symbols: where their examples are. */
export function declaringFiles(docJson: string, root: string): string[] {
  return [...new Set(ownDeclarations(docJson, root).map(([, , file]) => file.slice(root.length)))].sort();
}

/** `deno.json` for type-checking examples: the project's, without the unused-names checks (see the module doc). */
export function exampleCheckConfig(denoJson: string): string {
  const config = JSON.parse(denoJson);
  config.compilerOptions = { ...config.compilerOptions, noUnusedLocals: false, noUnusedParameters: false };
  for (const key of ["tasks", "fmt", "lint", "publish"]) delete config[key];
  return JSON.stringify(config, null, 2);
}

const decoder = new TextDecoder();

async function run(args: string[], root: URL): Promise<{ ok: boolean; text: string; stdout: string }> {
  const out = await new Deno.Command(Deno.execPath(), { args, cwd: root, env: { NO_COLOR: "1" } }).output();
  const stdout = decoder.decode(out.stdout);
  return { ok: out.success, text: decoder.decode(out.stderr) + stdout, stdout };
}

/** Type-checks the examples in `files`; the config lives beside deno.json so that node_modules resolves alike. */
async function checkExamples(root: URL, files: string[]): Promise<{ ok: boolean; text: string }> {
  const config = new URL("_doc_examples.deno.json", root);
  await Deno.writeTextFile(config, exampleCheckConfig(await Deno.readTextFile(new URL("deno.json", root))));
  try {
    return await run(["check", "--quiet", "--doc-only", "--config", config.pathname, ...files], root);
  } finally {
    await Deno.remove(config);
  }
}

async function main(): Promise<number> {
  const root = new URL("../", import.meta.url);
  const lint = await run(["doc", "--lint", ...ENTRY_POINTS], root);
  const diagnostics = parseDocLint(lint.text);
  for (const d of diagnostics) console.error(`${d.message}\n  at ${d.location.replace(root.pathname, "")}`);
  if (!lint.ok && diagnostics.length === 0) {
    console.error(lint.text.trim());
    return 1;
  }
  const json = await run(["doc", "--json", ...ENTRY_POINTS], root);
  if (!json.ok) throw new Error(`deno doc --json failed: ${json.text}`);
  const noExample = symbolsWithoutExample(json.stdout, root.pathname);
  for (const name of noExample) console.error(`an exported symbol without an example: ${name}`);
  const files = [...new Set([...ENTRY_POINTS, ...declaringFiles(json.stdout, root.pathname)])];
  const examples = await checkExamples(root, files);
  if (!examples.ok) console.error(`examples that do not type-check:\n${examples.text.trim()}`);
  console.log(
    `doc lint: ${diagnostics.length} diagnostics; ${noExample.length} exported symbols without an example; ` +
      `examples in ${files.length} files ${examples.ok ? "type-check" : "FAIL to type-check"}`,
  );
  return diagnostics.length === 0 && noExample.length === 0 && examples.ok ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main());
