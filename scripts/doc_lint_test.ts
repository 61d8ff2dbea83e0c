/** The doc-lint gate fails on fctl's own declarations and only counts those of dependencies and generated code. */
import { deepEqual } from "node:assert/strict";
import { functionsWithoutExample, isForeign, parseDocLint } from "./doc_lint.ts";

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

Deno.test("doc lint: diagnostics are parsed with their location; only fctl's own fail the check", () => {
  const diagnostics = parseDocLint(OUTPUT);
  deepEqual(diagnostics.map((d) => d.location.replace(/:\d+:\d+$/, "")), [
    "/repo/src/sandbox/server.ts",
    "/repo/proto/gen/flyteidl/admin/task_pb.ts",
    "/repo/node_modules/.deno/@bufbuild+protobuf@2.17.0/node_modules/@bufbuild/protobuf/dist/esm/types.d.ts",
  ]);
  deepEqual(diagnostics.map((d) => isForeign(d, "/repo/")), [false, true, true]);
  deepEqual(diagnostics[0].message, "error[missing-jsdoc]: exported symbol is missing JSDoc documentation");
});

Deno.test("doc lint: an exported function of fctl's without a code example is named; foreign ones are not", () => {
  const fn = (name: string, filename: string, doc: string) => ({
    name,
    declarations: [{ kind: "function", location: { filename: `file://${filename}`, line: 3 }, jsDoc: { doc } }],
  });
  const json = JSON.stringify({
    nodes: {
      "file:///repo/mod.ts": {
        symbols: [
          fn("documented", "/repo/src/a.ts", "Does it.\n\n```ts\ndocumented();\n```"),
          fn("bare", "/repo/src/b.ts", "Does it."),
          fn("create", "/repo/node_modules/x/index.d.ts", ""),
          { name: "Options", declarations: [{ kind: "interface", location: { filename: "file:///repo/src/b.ts" } }] },
        ],
      },
    },
  });
  deepEqual(functionsWithoutExample(json, "/repo/"), ["bare (src/b.ts:3)"]);
});
