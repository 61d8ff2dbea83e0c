/**
 * Gives every declaration protoc-gen-es generates a description. It copies each `.proto` comment into the
 * JSDoc, but a message or enum declared without a comment gets a JSDoc holding only its `@generated` tag,
 * which `deno doc --lint` reports as undocumented. Those get a line naming what they are, so the types the
 * package exports are all documented without editing generated files by hand.
 *
 * @module
 */

/** The JSDoc protoc-gen-es writes for an uncommented message or enum: its `@generated` tag, maybe `@deprecated`. */
const TAG_ONLY = /^\/\*\*\n \* @generated from (message|enum) ([\w.]+)\n((?: \* @[^\n]*\n)*) \*\/$/gm;

/**
 * `source` (a protoc-gen-es output file) with a description added to every JSDoc that has only its
 * `@generated` tag; everything else unchanged.
 *
 * ```ts
 * import { describeUndocumented } from "./proto_docs.ts";
 *
 * const generated = "/**\n * @generated from enum flyteidl.admin.Sort.Direction\n *\/\nexport enum Sort_Direction {}";
 * console.log(describeUndocumented(generated).split("\n")[1]); // " * The protobuf enum `flyteidl.admin.Sort.Direction`."
 * ```
 */
export function describeUndocumented(source: string): string {
  return source.replace(
    TAG_ONLY,
    (_, kind: string, name: string, tags: string) =>
      `/**\n * The protobuf ${kind} \`${name}\`.\n *\n * @generated from ${kind} ${name}\n${tags} */`,
  );
}
