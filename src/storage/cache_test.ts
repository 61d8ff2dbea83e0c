/**
 * The read cache, seen from outside: what it answers after the backend's object changed behind its back
 * tells whether that object was cached (the old bytes) or read again (the new ones).
 */
import { deepStrictEqual as assertEquals, rejects as assertRejects } from "node:assert/strict";
import { CachedStore } from "./cache.ts";
import { MemStore } from "./mem.ts";

const KIB = 1024;
const filled = (size: number, value: number) => new Uint8Array(size).fill(value);

/**
 * Which of `names` the cache still holds: their backend copies are changed, and the cache answers the old ones.
 * A miss reads the object into the cache, which may evict others: list the expected hits first.
 */
async function cachedOf(cache: CachedStore, backend: MemStore, names: string[]): Promise<string[]> {
  for (const name of names) backend.objects.set(`mem://c/${name}`, filled(KIB, 9));
  const held: string[] = [];
  for (const name of names) {
    if ((await cache.readBytes(`mem://c/${name}`, 8 * KIB))[0] !== 9) held.push(name);
  }
  return held;
}

Deno.test("read cache: repeated reads come from memory; a write through it drops the stale copy", async () => {
  const backend = new MemStore("c");
  const cache = new CachedStore(backend, 10 * KIB, 50);
  await cache.writeFile("mem://c/a", { bytes: filled(KIB, 1) });
  assertEquals(await cache.readBytes("mem://c/a", 2 * KIB), filled(KIB, 1));
  assertEquals(cache.cachedBytes, KIB);
  backend.objects.set("mem://c/a", filled(KIB, 7));
  assertEquals(await cache.readBytes("mem://c/a", 2 * KIB), filled(KIB, 1));
  await cache.writeFile("mem://c/a", { bytes: filled(KIB, 2) });
  assertEquals(cache.cachedBytes, 0);
  assertEquals(await cache.readBytes("mem://c/a", 2 * KIB), filled(KIB, 2));
  // A caller's copy is its own: changing it does not change what the cache answers next.
  (await cache.readBytes("mem://c/a", 2 * KIB)).fill(5);
  assertEquals(await cache.readBytes("mem://c/a", 2 * KIB), filled(KIB, 2));
  // The size limit still applies to a cached object.
  await assertRejects(cache.readBytes("mem://c/a", 10), /more than the 10 bytes/);
});

Deno.test("read cache: past its size it evicts least recently used first, down to target_gc_percent", async () => {
  const backend = new MemStore("c");
  const cache = new CachedStore(backend, 4 * KIB, 50);
  for (const name of ["a", "b", "c", "d", "e"]) await backend.writeFile(`mem://c/${name}`, { bytes: filled(KIB, 1) });
  for (const name of ["a", "b", "c"]) await cache.readBytes(`mem://c/${name}`, 4 * KIB);
  await cache.readBytes("mem://c/a", 4 * KIB); // a is now the most recently used
  await cache.readBytes("mem://c/d", 4 * KIB); // 4 KiB: full, not past it
  assertEquals(cache.cachedBytes, 4 * KIB);
  await cache.readBytes("mem://c/e", 4 * KIB); // 5 KiB: b, c, a go (oldest first), down to 50%: 2 KiB
  assertEquals(cache.cachedBytes, 2 * KIB);
  assertEquals(await cachedOf(cache, backend, ["d", "e", "a", "b", "c"]), ["d", "e"]);
  // An object larger than the whole cache is read but not kept.
  await backend.writeFile("mem://c/huge", { bytes: filled(5 * KIB, 1) });
  const before = cache.cachedBytes;
  await cache.readBytes("mem://c/huge", 8 * KIB);
  assertEquals(cache.cachedBytes, before);
});
