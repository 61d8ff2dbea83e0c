import { strictEqual } from "node:assert/strict";
import { describeUndocumented } from "./proto_docs.ts";

Deno.test("describeUndocumented describes a message or enum whose JSDoc is its @generated tag alone", () => {
  const source = [
    "/**",
    " * @generated from message flyteidl.core.ArtifactKey",
    " */",
    'export type ArtifactKey = Message<"flyteidl.core.ArtifactKey"> & {',
    "};",
    "/**",
    " * @generated from enum flyteidl.admin.Sort.Direction",
    " */",
    "export enum Sort_Direction {",
    "  /**",
    "   * @generated from enum value: ASCENDING = 1;",
    "   */",
    "  ASCENDING = 1,",
    "}",
  ].join("\n");
  strictEqual(
    describeUndocumented(source),
    [
      "/**",
      " * The protobuf message `flyteidl.core.ArtifactKey`.",
      " *",
      " * @generated from message flyteidl.core.ArtifactKey",
      " */",
      'export type ArtifactKey = Message<"flyteidl.core.ArtifactKey"> & {',
      "};",
      "/**",
      " * The protobuf enum `flyteidl.admin.Sort.Direction`.",
      " *",
      " * @generated from enum flyteidl.admin.Sort.Direction",
      " */",
      "export enum Sort_Direction {",
      "  /**",
      "   * @generated from enum value: ASCENDING = 1;",
      "   */",
      "  ASCENDING = 1,",
      "}",
    ].join("\n"),
  );
});

Deno.test("describeUndocumented keeps the tags after @generated (a deprecated message)", () => {
  const source = "/**\n * @generated from message flyteidl.service.Old\n * @deprecated\n */\nexport type Old = {};";
  strictEqual(
    describeUndocumented(source),
    "/**\n * The protobuf message `flyteidl.service.Old`.\n *\n * @generated from message flyteidl.service.Old\n * @deprecated\n */\nexport type Old = {};",
  );
});

Deno.test("describeUndocumented leaves a JSDoc with the .proto's comment as it is", () => {
  const source =
    "/**\n * Represents a task.\n *\n * @generated from message flyteidl.admin.Task\n */\nexport type Task = {};";
  strictEqual(describeUndocumented(source), source);
});
