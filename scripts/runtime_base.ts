/**
 * Whether `DENORT_BIN` names Deno's runtime base (`denort`) for the targets being built, checked before
 * `deno compile` runs. `deno compile` takes whatever file `DENORT_BIN` names, for every `--target`, unlooked at:
 * given the `deno` CLI it builds a binary of the right size that is plain Deno (`fctl version` answers
 * `error: unrecognized subcommand 'version'`), and given a Linux base for a macOS target, one that cannot start.
 *
 * Both checks read the file; neither runs it (it may be built for another platform, as a cross-compile's base is):
 * 1. Its executable header (ELF, Mach-O or PE, and the machine) must name the target's platform.
 * 2. It must carry denort's own error text, {@link DENORT_MARK}. denort runs the program embedded in it and has
 *    no command line of its own: started bare, with `--version` or any other argument, it looks for that program
 *    first, prints `error: Could not find standalone binary section.` and exits 1, where the `deno` CLI answers
 *    `--version` with `deno X.Y.Z`. Looking for that text in the file is that same test without running it. The
 *    `deno` CLI only writes that section and holds no such text (`scripts/compile_test.ts` checks it against the
 *    `deno` binary that runs the tests), nor does any other program.
 *
 * It catches the wrong file, not a wrong version: a `denort` of another Deno release passes, and must not be used
 * (the embedded format is the compiling Deno's).
 *
 * @module
 */

/** What only denort carries: the error it gives when no program is embedded in it (Deno 2.9's text). */
export const DENORT_MARK = "Could not find standalone binary section.";

/**
 * The release target an executable's header says it is for (Deno's target names; `aarch64-pc-windows-msvc` too),
 * or undefined when the bytes start no 64-bit ELF, Mach-O or PE executable of a known machine.
 */
export function executableTarget(header: Uint8Array): string | undefined {
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
  const has = (end: number) => header.byteLength >= end;
  // ELF: "\x7fELF", 64-bit (class 2), little-endian (data 1), a System V or Linux ABI; e_machine at 18.
  if (has(20) && view.getUint32(0) === 0x7f454c46 && header[4] === 2 && header[5] === 1 && header[7] in LINUX_ABI) {
    return ELF_MACHINES[view.getUint16(18, true)];
  }
  // Mach-O, 64-bit little-endian (0xfeedfacf); cputype at 4.
  if (has(8) && view.getUint32(0, true) === 0xfeedfacf) return MACH_O_CPUS[view.getUint32(4, true)];
  // PE: "MZ", the PE header's offset at 0x3c, "PE\0\0" there, then the machine.
  if (has(0x40) && header[0] === 0x4d && header[1] === 0x5a) {
    const pe = view.getUint32(0x3c, true);
    if (has(pe + 6) && view.getUint32(pe) === 0x50450000) return PE_MACHINES[view.getUint16(pe + 4, true)];
  }
  return undefined;
}

const LINUX_ABI: Record<number, true> = { 0: true, 3: true };
const ELF_MACHINES: Record<number, string> = { 0x3e: "x86_64-unknown-linux-gnu", 0xb7: "aarch64-unknown-linux-gnu" };
const MACH_O_CPUS: Record<number, string> = { 0x01000007: "x86_64-apple-darwin", 0x0100000c: "aarch64-apple-darwin" };
const PE_MACHINES: Record<number, string> = { 0x8664: "x86_64-pc-windows-msvc", 0xaa64: "aarch64-pc-windows-msvc" };

/** Whether the file at `path` contains `text` (ASCII), read in chunks. */
export async function fileContains(path: string, text: string): Promise<boolean> {
  const file = await Deno.open(path);
  try {
    // latin1: one character per byte, so an ASCII text is found wherever its bytes are.
    const decoder = new TextDecoder("latin1");
    const buffer = new Uint8Array(1 << 20);
    let tail = "";
    for (;;) {
      const read = await file.read(buffer);
      if (read === null) return false;
      const chunk = tail + decoder.decode(buffer.subarray(0, read));
      if (chunk.includes(text)) return true;
      tail = chunk.slice(-(text.length - 1));
    }
  } finally {
    file.close();
  }
}

async function readHeader(path: string): Promise<Uint8Array> {
  const file = await Deno.open(path);
  try {
    const header = new Uint8Array(4096);
    let length = 0;
    for (;;) {
      const read = await file.read(header.subarray(length));
      if (read === null) break;
      length += read;
      if (length === header.length) break;
    }
    return header.subarray(0, length);
  } finally {
    file.close();
  }
}

/**
 * What is wrong with `path` (the value of `DENORT_BIN`) as the runtime base of every one of `targets`, in one
 * line naming it and what is expected; undefined when it is a denort for them.
 */
export async function runtimeBaseProblem(path: string, targets: readonly string[]): Promise<string | undefined> {
  const expected = (target: string) =>
    `expected denort (from denort-${target}.zip of Deno ${Deno.version.deno}), not the deno CLI or another program`;
  if (path === "") return `DENORT_BIN is empty: unset it to download Deno's runtime base, or ${expected(targets[0])}`;
  const name = JSON.stringify(path);
  let header: Uint8Array;
  try {
    if (!(await Deno.stat(path)).isFile) return `DENORT_BIN ${name} is not a file: ${expected(targets[0])}`;
    header = await readHeader(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return `DENORT_BIN ${name} does not exist: ${expected(targets[0])}`;
    return `cannot read DENORT_BIN ${name}: ${err instanceof Error ? err.message : err}`;
  }
  const platform = executableTarget(header);
  if (platform === undefined) {
    return `DENORT_BIN ${name} is not an executable for any release target: ${expected(targets[0])}`;
  }
  const other = targets.find((target) => target !== platform);
  if (other !== undefined) {
    return `DENORT_BIN ${name} is an executable for ${platform}, not ${other}: deno compile would put it into every target's binary, so build ${platform} alone (--target ${platform})`;
  }
  if (!(await fileContains(path, DENORT_MARK))) {
    return `DENORT_BIN ${name} is not Deno's runtime base: ${expected(platform)}`;
  }
  return undefined;
}
