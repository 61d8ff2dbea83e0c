import { equal } from "node:assert/strict";
import { fileErrorReason } from "./errors.ts";

Deno.test("fileErrorReason: Deno's reason without its error number and the path it names", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const refused = await Deno.writeTextFile(`${dir}/missing/.spec.yaml.0f3c.tmp`, "x").catch((err) => err);
    equal(fileErrorReason(refused), "no such file or directory");
    const onDir = await Deno.writeTextFile(dir, "x").catch((err) => err);
    equal(fileErrorReason(onDir), "is a directory");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  equal(fileErrorReason(new Error("Disk quota exceeded")), "disk quota exceeded");
  equal(fileErrorReason("odd"), "odd");
});
