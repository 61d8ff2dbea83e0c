/**
 * The start-up chunks of the bundle are one module: `main.js` loads one file before it runs, and every file that
 * imported one of the chunks imports it; the run's context holds its own chunks; a bundle that cannot be merged
 * safely is left as built.
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { dirname } from "node:path";
import { fctlMain } from "../tests/helpers.ts";
import {
  exportedNames,
  lazyImports,
  mergeRefusal,
  redirectImports,
  relativeImports,
  STARTUP_MODULE,
  startupChunks,
  staticImportsOf,
} from "./bundle_startup.ts";

/** A bundle as the bundler writes one: main.js, two chunks it loads (one through the other) and a lazy chunk. */
function bundle(overrides: Record<string, string> = {}): Map<string, string> {
  return new Map(Object.entries({
    "main.js": 'import {\n  b\n} from "./chunk-B.js";\nimport "./chunk-A.js";\nawait import("./lazy-L.js");\n',
    "chunk-A.js": "// src/a.ts\nvar a = 1;\n\nexport {\n  a\n};\n",
    "chunk-B.js": 'import {\n  a\n} from "./chunk-A.js";\n\n// src/b.ts\nvar b = a + 1;\n\nexport {\n  b\n};\n',
    "lazy-L.js": 'import {\n  b\n} from "./chunk-B.js";\nimport "./chunk-A.js";\nimport { c } from "./chunk-C.js";\n',
    "chunk-C.js": "var c = 3;\nexport {\n  c\n};\n",
    ...overrides,
  }));
}

Deno.test("the chunks main.js loads statically, each after what it imports, and what they export", () => {
  const files = bundle();
  deepEqual(relativeImports(files.get("main.js")!), ["chunk-B.js", "chunk-A.js"]);
  deepEqual(startupChunks(files), ["chunk-A.js", "chunk-B.js"]);
  deepEqual(exportedNames("export {\n  a,\n  x as b\n};\n"), ["a", "b"]);
  equal(mergeRefusal(files, startupChunks(files)), undefined);
});

Deno.test("imports of merged chunks become imports of the start-up module; other imports stay", () => {
  const lazy = redirectImports(bundle().get("lazy-L.js")!, new Set(["chunk-A.js", "chunk-B.js"]));
  equal(
    lazy,
    `import {\n  b\n} from "./${STARTUP_MODULE}";\nimport "./${STARTUP_MODULE}";\nimport { c } from "./chunk-C.js";\n`,
  );
});

Deno.test("a bundle whose start-up chunks cannot be merged safely is left as built, with the reason", () => {
  const refusal = (overrides: Record<string, string>) => {
    const files = bundle(overrides);
    return mergeRefusal(files, startupChunks(files));
  };
  equal(
    refusal({ "chunk-A.js": 'import { x } from "yaml";\nvar a = x;\nexport {\n  a\n};\n' }),
    "chunk-A.js imports a package",
  );
  equal(refusal({ "chunk-A.js": "var a = import.meta.url;\nexport {\n  a\n};\n" }), "chunk-A.js reads import.meta");
  equal(
    refusal({ "chunk-B.js": 'import "./chunk-A.js";\nvar b = 2, a = 1;\nexport {\n  b,\n  a\n};\n' }),
    "chunk-B.js and chunk-A.js both export a",
  );
  equal(refusal({ "lazy-L.js": 'await import("./chunk-A.js");\n' }), "lazy-L.js loads chunk-A.js lazily");
  // What a chunk loads lazily stays a lazy import of that file: no reason not to merge.
  equal(refusal({ "chunk-A.js": 'var a = () => import("./lazy-L.js");\nexport {\n  a\n};\n' }), undefined);
});

Deno.test("what ships loads one module besides main.js before anything runs, and one with the run's context", async () => {
  const main = await fctlMain();
  const dir = dirname(main);
  const files = new Map<string, string>();
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile && entry.name.endsWith(".js")) {
      files.set(entry.name, await Deno.readTextFile(`${dir}/${entry.name}`));
    }
  }
  deepEqual(startupChunks(files), [STARTUP_MODULE]);
  // The merged module holds what the chunks did: the errors, the option schema, the flags.
  const startup = files.get(STARTUP_MODULE)!;
  for (const name of ["UsageError", "OPTIONS", "GLOBAL_FLAGS"]) assert(exportedNames(startup).includes(name), name);
  // Lazily loaded chunks import it, not the chunks it replaced.
  assert([...files.values()].filter((text) => text.includes(`from "./${STARTUP_MODULE}"`)).length > 10);
  // The run's context loads nothing else before a command runs: its chunks (the configuration loader, the
  // redaction, durations) are in it.
  const context = lazyImports(files.get("main.js")!).find((file) => file.startsWith("context-"))!;
  deepEqual(staticImportsOf(files, context), [STARTUP_MODULE]);
  const contextText = files.get(context)!;
  assert(exportedNames(contextText).includes("CliContext"), "the context's own export");
  // The merged modules name the chunks they hold, not the directory they were built in (a random name).
  for (const name of [STARTUP_MODULE, context]) assert(!/^\/\/ .*\//m.test(files.get(name)!), name);
  for (const name of ["function loadConfig(", "var Redactor = class", "function parseDuration("]) {
    assert(contextText.includes(name), name);
  }
});
