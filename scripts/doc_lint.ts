/**
 * `deno doc --lint` of the package's entry points (`mod.ts`, `testing.ts`, `types.ts`), failing on every
 * diagnostic in fctl's own declarations.
 *
 * The linter also walks into the declarations our exports expose and reports theirs: protobuf-es's and
 * Connect's type graphs (descriptors, codegen helpers, undocumented `.d.ts` members) and the flyteidl code
 * protobuf-es generates (each message references dozens of others). Those are not fctl's to document and
 * cannot be fixed without forking them, so they are counted, not failed on. Everything fctl declares (`src/`,
 * the entry points) must be documented and reference only exported types: those of the proto API and Connect
 * are exported by `types.ts`.
 *
 * Every exported function of fctl's own also has an example (a fenced code block in its JSDoc).
 *
 * Exit status: 0 clean; 1 a diagnostic in fctl's code or a function without an example (each printed).
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

/** Whether a diagnostic is in a dependency's declarations or in generated code, not in fctl's own. */
export function isForeign(diagnostic: DocDiagnostic, root: string): boolean {
  if (!diagnostic.location.startsWith(root)) return true;
  return /^(node_modules|proto\/gen)\//.test(diagnostic.location.slice(root.length));
}

const ENTRY_POINTS = ["mod.ts", "testing.ts", "types.ts"];

interface DocNode {
  name: string;
  declarations?: { kind: string; location?: { filename: string; line: number }; jsDoc?: { doc?: string } }[];
}

/** `name (path:line)` of every exported function declared in fctl's files whose JSDoc has no code example. */
export function functionsWithoutExample(docJson: string, root: string): string[] {
  const doc = JSON.parse(docJson) as { nodes: Record<string, { symbols?: DocNode[] }> };
  const missing = new Set<string>();
  for (const module of Object.values(doc.nodes)) {
    for (const symbol of module.symbols ?? []) {
      for (const declaration of symbol.declarations ?? []) {
        const file = declaration.location?.filename.replace(/^file:\/\//, "") ?? "";
        if (declaration.kind !== "function" || isForeign({ message: "", location: file }, root)) continue;
        if (!(declaration.jsDoc?.doc ?? "").includes("```")) {
          missing.add(`${symbol.name} (${file.slice(root.length)}:${declaration.location!.line})`);
        }
      }
    }
  }
  return [...missing].sort();
}

async function main(): Promise<number> {
  const root = new URL("../", import.meta.url);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--lint", ...ENTRY_POINTS],
    cwd: root,
    env: { NO_COLOR: "1" },
  }).output();
  const text = new TextDecoder().decode(out.stderr) + new TextDecoder().decode(out.stdout);
  const diagnostics = parseDocLint(text);
  const own = diagnostics.filter((d) => !isForeign(d, root.pathname));
  for (const d of own) console.error(`${d.message}\n  at ${d.location.slice(root.pathname.length)}`);
  const json = await new Deno.Command(Deno.execPath(), { args: ["doc", "--json", ...ENTRY_POINTS], cwd: root })
    .output();
  if (!json.success) throw new Error("deno doc --json failed");
  const noExample = functionsWithoutExample(new TextDecoder().decode(json.stdout), root.pathname);
  for (const name of noExample) console.error(`an exported function without an example: ${name}`);
  const foreign = diagnostics.length - own.length;
  if (!out.success && diagnostics.length === 0) {
    console.error(text.trim());
    return 1;
  }
  console.log(
    `doc lint: ${own.length} in fctl's declarations; ${foreign} in dependencies' and generated declarations (not fctl's)`,
  );
  return own.length === 0 && noExample.length === 0 ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main());
