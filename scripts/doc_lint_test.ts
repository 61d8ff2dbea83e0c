/** The doc-lint gate fails on fctl's own declarations and only counts those of dependencies and generated code. */
import { deepEqual } from "node:assert/strict";
import { isForeign, parseDocLint } from "./doc_lint.ts";

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
