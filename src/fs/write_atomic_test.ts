import { deepEqual, equal, rejects } from "node:assert/strict";
import { join } from "node:path";
import { FileExistsError, writeFileAtomic } from "./write_atomic.ts";

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "fctl-write-atomic-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const names = async (dir: string) => (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();

Deno.test("writeFileAtomic: mode 0600, parents 0700, no temp file left", async () => {
  await withDir(async (dir) => {
    const file = join(dir, "a", "b", "f.yaml");
    await writeFileAtomic(file, "x: 1\n", { replace: false, createParents: true });
    equal(await Deno.readTextFile(file), "x: 1\n");
    equal((await Deno.stat(file)).mode! & 0o777, 0o600);
    equal((await Deno.stat(join(dir, "a"))).mode! & 0o777, 0o700);
    deepEqual(await names(join(dir, "a", "b")), ["f.yaml"]);
  });
});

Deno.test("writeFileAtomic: an existing file is kept unless replace; replaced whole with it", async () => {
  await withDir(async (dir) => {
    const file = join(dir, "f");
    await Deno.writeTextFile(file, "old");
    await rejects(writeFileAtomic(file, "new", { replace: false }), FileExistsError);
    equal(await Deno.readTextFile(file), "old");
    await writeFileAtomic(file, "new", { replace: true });
    equal(await Deno.readTextFile(file), "new");
    deepEqual(await names(dir), ["f"]);
  });
});

Deno.test("writeFileAtomic: a failed write leaves the old file and no temp file", async () => {
  await withDir(async (dir) => {
    // A directory where the file should go: the rename over it fails after the temp file was written.
    const target = join(dir, "taken");
    await Deno.mkdir(target);
    await Deno.writeTextFile(join(target, "inside"), "kept");
    await rejects(writeFileAtomic(target, "new", { replace: true }));
    deepEqual(await names(dir), ["taken"]);
    equal(await Deno.readTextFile(join(target, "inside")), "kept");
  });
});

Deno.test("writeFileAtomic: a name near the system's limit is written (its temp file's name is cut short)", async () => {
  await withDir(async (dir) => {
    const name = `${"n".repeat(250)}.yaml`;
    await writeFileAtomic(join(dir, name), "long\n", { replace: false });
    deepEqual(await names(dir), [name]);
  });
});
