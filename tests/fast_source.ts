/**
 * What the storage CLI tests check a fast registration against: flytesnacks-core's fast-registration source, the
 * key the fallback writes it under, and the strings of the created tasks (where its URI must replace every
 * placeholder).
 *
 * @module
 */
import { equal, ok as assert } from "node:assert/strict";
import type { Sandbox } from "../src/sandbox/mod.ts";
import { fixture } from "./helpers.ts";

/** The package every storage test registers. */
export const CORE = "flytesnacks-core.tgz";
/** Its fast-registration source archive. */
export const SOURCE = "fasted4a62b5c4359e9aed745fa1197a9ea0.tar.gz";
/** Where the storage fallback writes that source for `--version v1`, below the container. */
export const KEY = `fast/v1-${SOURCE}`;

/** The fast-registration source inside the core package, as bytes (unpacked by the system's tar). */
export async function coreSource(): Promise<Uint8Array> {
  const dir = await Deno.makeTempDir({ prefix: "fctl-storage-test-" });
  try {
    const untar = await new Deno.Command("tar", { args: ["xzf", fixture(CORE), "-C", dir] }).output();
    equal(untar.code, 0);
    return await Deno.readFile(`${dir}/core/_pb_output/${SOURCE}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Every string in a decoded message. */
export function strings(value: unknown, found: string[] = []): string[] {
  if (typeof value === "string") found.push(value);
  else if (value !== null && typeof value === "object") {
    for (const child of Object.values(value)) strings(child, found);
  }
  return found;
}

/**
 * Checks a fast registration of {@link CORE} that went through storage: the admin was sent no bytes, and its 39
 * tasks were created with `location` in place of every source placeholder of the 35 fast-registered ones.
 * `createTaskCalls` is how many CreateTask calls the admin received: one per task, unless an admin with auth
 * rejected the calls sent before the token and they were retried with it.
 */
export function assertSourceThroughStorage(sandbox: Sandbox, location: string, createTaskCalls = 39): void {
  equal(sandbox.uploads.size, 0);
  const tasks = sandbox.requests.filter((r) => r.method === "CreateTask");
  equal(tasks.length, createTaskCalls);
  const args = tasks.flatMap((t) => strings(t.request));
  equal(args.filter((a) => a === location).length, 35);
  assert(!args.some((a) => a.includes("remote_package_path")));
}
