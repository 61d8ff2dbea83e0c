/**
 * The runtime-base check's parts: the platform an executable header names, the mark found wherever it lies in
 * the file, and what passes: an executable for the target carrying denort's text.
 */
import { deepEqual, equal } from "node:assert/strict";
import { DENORT_MARK, executableTarget, fileContains, runtimeBaseProblem } from "./runtime_base.ts";

/** A header of `size` bytes with `fields` ([offset, bytes]) written into it. */
function header(size: number, ...fields: [number, number[]][]): Uint8Array {
  const bytes = new Uint8Array(size);
  for (const [offset, values] of fields) bytes.set(values, offset);
  return bytes;
}

const elf = (machine: number, abi = 0) =>
  header(64, [0, [0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, abi]], [18, [machine & 0xff, machine >> 8]]);
const machO = (cpu: number) =>
  header(32, [0, [0xcf, 0xfa, 0xed, 0xfe]], [4, [cpu & 0xff, (cpu >> 8) & 0xff, (cpu >> 16) & 0xff, cpu >>> 24]]);
const pe = (machine: number) =>
  header(512, [0, [0x4d, 0x5a]], [0x3c, [0x80, 0, 0, 0]], [0x80, [0x50, 0x45, 0, 0, machine & 0xff, machine >> 8]]);

Deno.test("executableTarget reads the platform from ELF, Mach-O and PE headers, and nothing from other bytes", () => {
  deepEqual(
    [elf(0x3e), elf(0xb7, 3), machO(0x01000007), machO(0x0100000c), pe(0x8664), pe(0xaa64)].map(executableTarget),
    [
      "x86_64-unknown-linux-gnu",
      "aarch64-unknown-linux-gnu",
      "x86_64-apple-darwin",
      "aarch64-apple-darwin",
      "x86_64-pc-windows-msvc",
      "aarch64-pc-windows-msvc",
    ],
  );
  const script = new TextEncoder().encode("#!/bin/sh\necho deno 2.9.6\n");
  const others = [script, elf(0x28), elf(0x3e, 9), header(64, [0, [0x7f, 0x45, 0x4c, 0x46, 1, 1]]), pe(0x14c)];
  deepEqual(others.map(executableTarget), [undefined, undefined, undefined, undefined, undefined]);
  deepEqual([new Uint8Array(0), new Uint8Array([0x4d, 0x5a])].map(executableTarget), [undefined, undefined]);
});

Deno.test("fileContains finds a text across the chunks it reads, and not one that is absent", async () => {
  const path = await Deno.makeTempFile({ prefix: "fctl-runtime-base-" });
  try {
    const mark = new TextEncoder().encode(DENORT_MARK);
    const bytes = new Uint8Array((1 << 20) + 100).fill(0xff);
    bytes.set(mark, (1 << 20) - 10); // across the first chunk's end
    await Deno.writeFile(path, bytes);
    equal(await fileContains(path, DENORT_MARK), true);
    equal(await fileContains(path, `${DENORT_MARK}!`), false);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("runtimeBaseProblem passes an executable for the target that carries denort's text", async () => {
  const path = await Deno.makeTempFile({ prefix: "fctl-runtime-base-" });
  try {
    const base = new Uint8Array(4096 + DENORT_MARK.length);
    base.set(elf(0x3e));
    base.set(new TextEncoder().encode(DENORT_MARK), 4096);
    await Deno.writeFile(path, base);
    equal(await runtimeBaseProblem(path, ["x86_64-unknown-linux-gnu"]), undefined);
    equal(
      await runtimeBaseProblem(path, ["x86_64-unknown-linux-gnu", "x86_64-apple-darwin"]),
      `DENORT_BIN "${path}" is an executable for x86_64-unknown-linux-gnu, not x86_64-apple-darwin: deno compile would put it into every target's binary, so build x86_64-unknown-linux-gnu alone (--target x86_64-unknown-linux-gnu)`,
    );
  } finally {
    await Deno.remove(path);
  }
});
