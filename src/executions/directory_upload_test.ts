import { deepEqual, equal, match, rejects } from "node:assert/strict";
import { createAdminClient } from "../admin/client.ts";
import { UsageError } from "../errors.ts";
import { startSandbox } from "../sandbox/mod.ts";
import { openStorage } from "../storage/mod.ts";
import { uploadDirectory } from "./directory_upload.ts";
import { readLocalDirectory } from "./local_directory.ts";

/** A sandbox without DataProxy (an older FlyteAdmin), a client of it, and a directory of two files. */
async function withOldAdmin(
  fn: (client: ReturnType<typeof createAdminClient>, dir: string) => Promise<void>,
): Promise<void> {
  const sandbox = await startSandbox({ dataProxy: false });
  const client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
  const dir = await Deno.makeTempDir({ prefix: "fctl-directory-upload-" });
  try {
    await Deno.mkdir(`${dir}/sub`);
    await Deno.writeTextFile(`${dir}/a.txt`, "a");
    await Deno.writeTextFile(`${dir}/sub/b.txt`, "b");
    await fn(client, dir);
  } finally {
    client.close();
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("uploadDirectory: without a data proxy, mem storage only when allowed, each file under <container>/fast/<root>/", async () => {
  await withOldAdmin(async (client, dir) => {
    const directory = await readLocalDirectory("inputs.d", dir);
    const storage = await openStorage({ type: "mem", container: "bucket", defaultLocalRoot: "" });
    try {
      const target = { input: "inputs.d", project: "flytesnacks", domain: "development", openStorage: () => storage };
      await rejects(uploadDirectory(client, directory, target), (err) => {
        match(
          (err as Error).message,
          /^inputs\.d: cannot upload ".*": the admin service offers no upload location, and storage\.type mem keeps it where the admin's cluster cannot read it; .* --storage\.allow-local-fallback$/,
        );
        return err instanceof UsageError;
      });
      const prefix = await uploadDirectory(client, directory, { ...target, allowLocalStorage: true });
      equal(prefix, `mem://bucket/fast/${directory.root}`);
      const text = async (ref: string) => new TextDecoder().decode(await storage.readBytes(ref, 1024));
      deepEqual([await text(`${prefix}/a.txt`), await text(`${prefix}/sub/b.txt`)], ["a", "b"]);
    } finally {
      storage.close();
    }
  });
});

Deno.test("uploadDirectory: without a data proxy or storage, one line saying so", async () => {
  await withOldAdmin(async (client, dir) => {
    const directory = await readLocalDirectory("inputs.d", dir);
    await rejects(
      uploadDirectory(client, directory, { input: "inputs.d", project: "flytesnacks", domain: "development" }),
      /^OperationError: inputs\.d: cannot upload ".*": the admin service offers no upload location and no storage is configured$/,
    );
  });
});
