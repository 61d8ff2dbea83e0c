/**
 * Memory benchmark: peak RSS of `fctl register files --archive` on a generated package whose
 * fast-registration source archive is 300 MB, against the in-process admin (run by this script, so
 * the admin's own copy of the upload is not counted). The package is generated into a temp dir with
 * the system `tar` and removed afterwards. Prints numbers; asserts nothing. Linux only (/proc).
 *
 *   deno task bench:register-memory [sourceMegabytes]
 *
 * @module
 */
import { FCTL_PERMISSIONS, FCTL_V8_FLAGS } from "../src/permissions.ts";
import { startSandbox } from "../src/sandbox/mod.ts";

const megabytes = Number(Deno.args[0] ?? 300);
const main = new URL("../main.ts", import.meta.url).pathname;
const members = new URL("../../shared/fixtures/flytectl/valid-register.tar", import.meta.url).pathname;

async function run(cmd: string, args: string[]): Promise<void> {
  const out = await new Deno.Command(cmd, { args, stdout: "null", stderr: "piped" }).output();
  if (!out.success) throw new Error(`${cmd} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
}

/** A package: the four valid-register entities plus a `fast….tar.gz` of incompressible bytes. */
async function generatePackage(dir: string): Promise<string> {
  const content = `${dir}/package`;
  await Deno.mkdir(content);
  await run("tar", ["-xf", members, "-C", content]);
  const source = await Deno.open(`${content}/fastdeadbeef.tar.gz`, { write: true, create: true });
  const chunk = new Uint8Array(1 << 20);
  for (let i = 0; i < megabytes; i++) {
    for (let offset = 0; offset < chunk.length; offset += 65536) {
      crypto.getRandomValues(chunk.subarray(offset, offset + 65536));
    }
    await source.write(chunk);
  }
  source.close();
  const archive = `${dir}/big-package.tar`;
  await run("tar", ["-cf", archive, "-C", content, "."]);
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

const dir = await Deno.makeTempDir({ prefix: "fctl-bench-memory-" });
const sandbox = await startSandbox();
try {
  const generated = performance.now();
  const archive = await generatePackage(dir);
  const size = (await Deno.stat(archive)).size / 1_000_000;
  console.log(
    `generated ${archive} (${size.toFixed(0)} MB) in ${((performance.now() - generated) / 1000).toFixed(1)} s`,
  );
  // Default V8 flags, then fctl's: a 16 MB young generation whose streamed chunks are collected every
  // few MB (src/streamed_memory.ts).
  for (const v8 of [[], [...FCTL_V8_FLAGS]]) {
    sandbox.uploads.clear();
    const started = performance.now();
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        ...FCTL_PERMISSIONS,
        ...v8,
        main,
        "register",
        "files",
        "--archive",
        archive,
        "--version",
        "v1",
        "-p",
        "flytesnacks",
        "-d",
        "development",
        "--admin.endpoint",
        sandbox.endpoint,
      ],
      stdout: "null",
      stderr: "inherit",
    }).spawn();
    let peak = 0;
    let running = true;
    // VmHWM only grows, so samples one after the other miss nothing but the last moments.
    const sampling = (async () => {
      while (running) {
        const rss = await peakRss(child.pid);
        if (rss !== undefined) peak = Math.max(peak, rss);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const status = await child.status;
    running = false;
    await sampling;
    if (!status.success) throw new Error("fctl failed");
    const uploaded = [...sandbox.uploads.values()][0]?.length ?? 0;
    const label = v8.length === 0 ? "default V8 flags" : v8[0];
    console.log(
      `${label}: ${((performance.now() - started) / 1000).toFixed(1)} s, uploaded ${
        (uploaded / 1_000_000).toFixed(0)
      } MB, peak RSS ${peak.toFixed(0)} MB (target <= 150 MB)`,
    );
  }
} finally {
  await sandbox.close();
  await Deno.remove(dir, { recursive: true });
}
