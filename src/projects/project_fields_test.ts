import { equal, match, rejects } from "node:assert/strict";
import { UsageError } from "../errors.ts";
import { readProjectFile } from "./project_fields.ts";

/** The message `text`, read as a project file, is refused with. */
async function refusal(text: string): Promise<string> {
  let message = "";
  await rejects(readProjectFile("p.yaml", () => Promise.resolve(text)), (err: unknown) => {
    message = (err as Error).message;
    return err instanceof UsageError;
  });
  return message;
}

Deno.test("a project file nested thousands deep is refused as nested too deeply, naming where, not as a stack overflow", async () => {
  match(
    await refusal(`id: ${"[".repeat(5_000)}${"]".repeat(5_000)}\n`),
    /^project file "p\.yaml" is not valid YAML: nested too deeply at line 1, column \d+$/,
  );
});

Deno.test("a project file that is not YAML: the parser's first line, without the excerpt's colon", async () => {
  equal(
    await refusal("id: [\n"),
    'project file "p.yaml" is not valid YAML: Flow sequence in block collection must be sufficiently indented and ' +
      "end with a ] at line 2, column 1",
  );
});
