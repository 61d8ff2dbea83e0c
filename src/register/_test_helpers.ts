/**
 * Shared helpers for the register tests.
 *
 * @module
 */
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { packTar, type TarEntry } from "modern-tar";

/** Path of a file from flytectl's test data (see `../shared/fixtures/flytectl/README.md`). */
export function fixture(name: string): string {
  return fileURLToPath(new URL(`../../../shared/fixtures/flytectl/${name}`, import.meta.url));
}

/** Writes a tar archive of `entries` into a new temp dir and returns its path. */
export async function writeTar(name: string, entries: TarEntry[]): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "fctl-register-test-" });
  const path = `${dir}/${name}`;
  await Deno.writeFile(path, await packTar(entries));
  return path;
}

/** Removes what {@link writeTar} created. */
export async function removeTar(path: string): Promise<void> {
  await Deno.remove(dirname(path), { recursive: true });
}

/** Names of the extraction temp dirs currently in the system temp dir. */
export async function extractionDirs(): Promise<Set<string>> {
  const probe = await Deno.makeTempDir({ prefix: "fctl-probe-" });
  const root = dirname(probe);
  await Deno.remove(probe);
  const names = new Set<string>();
  for await (const entry of Deno.readDir(root)) {
    if (entry.name.startsWith("fctl-register-") && !entry.name.startsWith("fctl-register-test-")) {
      names.add(entry.name);
    }
  }
  return names;
}
