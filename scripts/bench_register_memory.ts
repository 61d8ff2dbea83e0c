/**
 * Memory benchmark: peak RSS of `fctl register files --archive` on two generated packages that differ
 * only in the size of their fast-registration source (300 MB and 40 KB of incompressible bytes by
 * default), as a `.tar` package or, with `tgz`, a gzip-compressed one. fctl (the bundle) runs as a subprocess with exactly the `fctl` task's flags (the permissions, V8's
 * default flags) against the in-process admin, run by this script so the admin's own copy of the
 * upload is not counted. The packages are generated into a temp dir with the system `tar` and removed
 * afterwards. Each package is registered `runs` times, alternating; the medians are printed with their
 * difference, which should stay within 40 MB: memory must not grow with the source. Prints numbers;
 * asserts nothing. Linux only (/proc).
 *
 *   deno task bench:register-memory [largeMegabytes] [runs] [tar|tgz]
 *
 * @module
 */
import { fctlCommand } from "./bench_process.ts";
import { startSandbox } from "../src/sandbox/mod.ts";

const largeBytes = Number(Deno.args[0] ?? 300) * 1_000_000;
const runs = Number(Deno.args[1] ?? 3);
const compressed = Deno.args[2] === "tgz";
const SMALL_BYTES = 40_000;
// What ships, as `deno task fctl` runs it (the bundle, built first when the tree changed).
const { runFlags, main } = await fctlCommand();
const members = new URL("../../shared/fixtures/flytectl/valid-register.tar", import.meta.url).pathname;

async function run(cmd: string, args: string[]): Promise<void> {
  const out = await new Deno.Command(cmd, { args, stdout: "null", stderr: "piped" }).output();
  if (!out.success) throw new Error(`${cmd} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
}

/** A package: the four valid-register entities plus a `fast….tar.gz` of `bytes` random bytes. */
async function generatePackage(dir: string, name: string, bytes: number): Promise<string> {
  const content = `${dir}/${name}`;
  await Deno.mkdir(content);
  await run("tar", ["-xf", members, "-C", content]);
  const source = await Deno.open(`${content}/fastdeadbeef.tar.gz`, { write: true, create: true });
  const chunk = new Uint8Array(1 << 20);
  for (let left = bytes; left > 0; left -= chunk.length) {
    const piece = chunk.subarray(0, Math.min(left, chunk.length));
    for (let offset = 0; offset < piece.length; offset += 65536) {
      crypto.getRandomValues(piece.subarray(offset, offset + 65536));
    }
    await source.write(piece);
  }
  source.close();
  const archive = `${dir}/${name}.${compressed ? "tgz" : "tar"}`;
  await run("tar", [compressed ? "-czf" : "-cf", archive, "-C", content, "."]);
  await Deno.remove(content, { recursive: true });
  return archive;
}

/**
 * Peak resident set (VmHWM) of a running process, in MB, or undefined once it is gone. Read by `cat`:
 * Deno reads another process's `/proc/<pid>/status` only with --allow-all, which the task does not grant.
 */
async function peakRss(pid: number): Promise<number | undefined> {
  const { success, stdout } = await new Deno.Command("cat", {
    args: [`/proc/${pid}/status`],
    stdout: "piped",
    stderr: "null",
  }).output();
  if (!success) return undefined;
  const kb = /VmHWM:\s+(\d+) kB/.exec(new TextDecoder().decode(stdout))?.[1];
  return kb === undefined ? undefined : Number(kb) / 1024;
}

/** Registers `archive` with a fresh fctl process; its peak RSS in MB, and seconds taken. */
async function register(archive: string, endpoint: string): Promise<{ peakMb: number; seconds: number }> {
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      ...runFlags,
      "--quiet",
      main,
      "register",
      "files",
      "--archive",
      archive,
      "--version",
      `v${crypto.randomUUID()}`,
      "-p",
      "flytesnacks",
      "-d",
      "development",
      "--admin.endpoint",
      endpoint,
    ],
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  let peakMb = 0;
  let running = true;
  // VmHWM only grows, so samples one after the other miss nothing but the last moments.
  const sampling = (async () => {
    while (running) {
      const rss = await peakRss(child.pid);
      if (rss !== undefined) peakMb = Math.max(peakMb, rss);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const status = await child.status;
  running = false;
  await sampling;
  if (!status.success) throw new Error("fctl failed");
  return { peakMb, seconds: (performance.now() - started) / 1000 };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const dir = await Deno.makeTempDir({ prefix: "fctl-bench-memory-" });
const sandbox = await startSandbox();
try {
  const packages = [
    { label: `${(largeBytes / 1_000_000).toFixed(0)} MB source`, bytes: largeBytes },
    { label: `${(SMALL_BYTES / 1000).toFixed(0)} KB source`, bytes: SMALL_BYTES },
  ];
  const archives = await Promise.all(packages.map((p, i) => generatePackage(dir, `package-${i}`, p.bytes)));
  const peaks: number[][] = packages.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (const [index, archive] of archives.entries()) {
      sandbox.uploads.clear();
      const { peakMb, seconds } = await register(archive, sandbox.endpoint);
      const uploaded = [...sandbox.uploads.values()][0]?.length ?? 0;
      if (uploaded !== packages[index].bytes) {
        throw new Error(`uploaded ${uploaded} bytes, not ${packages[index].bytes}`);
      }
      peaks[index].push(peakMb);
      console.log(`${packages[index].label}: ${seconds.toFixed(1)} s, peak RSS ${peakMb.toFixed(0)} MB`);
    }
  }
  const [large, small] = peaks.map(median);
  console.log(
    `median peak RSS (${compressed ? ".tgz" : ".tar"} package): ${packages[0].label} ${large.toFixed(0)} MB, ${
      packages[1].label
    } ${small.toFixed(0)} MB, ` +
      `difference ${(large - small).toFixed(0)} MB (target <= 40 MB)`,
  );
} finally {
  await sandbox.close();
  await Deno.remove(dir, { recursive: true });
}
