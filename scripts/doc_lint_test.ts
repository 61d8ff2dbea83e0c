/** The doc-lint gate: every diagnostic fails it; every symbol of fctl's own needs an example. */
import { deepEqual, equal } from "node:assert/strict";
import { declaringFiles, exampleCheckConfig, isOwnCode, parseDocLint, symbolsWithoutExample } from "./doc_lint.ts";

const OUTPUT = `error[missing-jsdoc]: exported symbol is missing JSDoc documentation
  --> /repo/src/sandbox/server.ts:73:3
    |
 73 |   tokenEndpoint: string;

error[private-type-ref]: public type 'TaskSpec' references private type 'TaskTemplate'
   --> /repo/proto/gen/flyteidl/admin/task_pb.ts:145:1

error[private-type-ref]: public type 'Message' references private type 'UnknownField'
   --> /repo/node_modules/.deno/@bufbuild+protobuf@2.17.0/node_modules/@bufbuild/protobuf/dist/esm/types.d.ts:9:1

error: Found 3 documentation lint errors.
`;

Deno.test("doc lint: every diagnostic is parsed with its location, fctl's, generated code's and dependencies' alike", () => {
  const diagnostics = parseDocLint(OUTPUT);
  deepEqual(diagnostics.map((d) => d.location.replace(/:\d+:\d+$/, "")), [
    "/repo/src/sandbox/server.ts",
    "/repo/proto/gen/flyteidl/admin/task_pb.ts",
    "/repo/node_modules/.deno/@bufbuild+protobuf@2.17.0/node_modules/@bufbuild/protobuf/dist/esm/types.d.ts",
  ]);
  deepEqual(diagnostics[0].message, "error[missing-jsdoc]: exported symbol is missing JSDoc documentation");
  deepEqual(parseDocLint("Checked 3 files\n"), []);
});

Deno.test("doc lint: fctl's own code is neither generated nor a dependency", () => {
  deepEqual(
    ["/repo/src/a.ts", "/repo/mod.ts", "/repo/proto/gen/x_pb.ts", "/repo/node_modules/x/index.d.ts", "/other/a.ts"]
      .map((file) => isOwnCode(file, "/repo/")),
    [true, true, false, false, false],
  );
});

Deno.test("doc lint: an exported symbol of fctl's of any kind without a code example is named; others are not", () => {
  const symbol = (name: string, kind: string, filename: string, doc: string) => ({
    name,
    declarations: [{ kind, location: { filename: `file://${filename}`, line: 3 }, jsDoc: { doc } }],
  });
  const json = JSON.stringify({
    nodes: {
      "file:///repo/mod.ts": {
        symbols: [
          symbol("documented", "function", "/repo/src/a.ts", "Does it.\n\n```ts\ndocumented();\n```"),
          symbol("bare", "function", "/repo/src/b.ts", "Does it."),
          symbol("Options", "interface", "/repo/src/b.ts", "Options of it."),
          symbol("Kind", "typeAlias", "/repo/src/c.ts", ""),
          symbol("create", "function", "/repo/node_modules/x/index.d.ts", ""),
          symbol("Task", "typeAlias", "/repo/proto/gen/task_pb.ts", "A task."),
          symbol("Client", "reference", "/repo/src/d.ts", ""),
        ],
      },
    },
  });
  deepEqual(symbolsWithoutExample(json, "/repo/"), ["Kind (src/c.ts:3)", "Options (src/b.ts:3)", "bare (src/b.ts:3)"]);
  deepEqual(declaringFiles(json, "/repo/"), ["src/a.ts", "src/b.ts", "src/c.ts"]);
});

Deno.test("doc lint: an overloaded function needs an example on each overload, not on its implementation, which no caller sees", () => {
  const declaration = (line: number, doc: string, hasBody?: boolean) => ({
    kind: "function",
    location: { filename: "file:///repo/src/a.ts", line },
    jsDoc: doc ? { doc } : undefined,
    def: hasBody ? { hasBody } : {},
  });
  const json = (...declarations: unknown[]) =>
    JSON.stringify({ nodes: { "file:///repo/mod.ts": { symbols: [{ name: "run", declarations }] } } });
  const example = "Runs.\n\n```ts\nrun();\n```";
  deepEqual(
    symbolsWithoutExample(json(declaration(3, example), declaration(9, example), declaration(10, "", true)), "/repo/"),
    [],
  );
  deepEqual(
    symbolsWithoutExample(json(declaration(3, example), declaration(9, ""), declaration(10, "", true)), "/repo/"),
    [
      "run (src/a.ts:9)",
    ],
  );
  // Not overloaded: the one declaration is the function, body and all.
  deepEqual(symbolsWithoutExample(json(declaration(3, "", true)), "/repo/"), ["run (src/a.ts:3)"]);
});

Deno.test("doc lint: examples are checked with the project's config, unused names allowed", () => {
  const config = JSON.parse(exampleCheckConfig(JSON.stringify({
    name: "@fctl/fctl",
    imports: { yaml: "npm:yaml@2" },
    nodeModulesDir: "manual",
    compilerOptions: { strict: true, noUnusedLocals: true, noUnusedParameters: true },
    tasks: { test: "x" },
  })));
  deepEqual(config, {
    name: "@fctl/fctl",
    imports: { yaml: "npm:yaml@2" },
    nodeModulesDir: "manual",
    compilerOptions: { strict: true, noUnusedLocals: false, noUnusedParameters: false },
  });
  equal("tasks" in config, false);
});
