/**
 * Package archives given by URL that are built to hurt: a few MiB of gzip that inflate to gigabytes, in the archive
 * itself or as the answer's `Content-Encoding`. Each run is a fresh fctl process under the declared permissions,
 * against a production-shaped admin (TLS, OAuth), downloading from an HTTPS server trusted through the same CA file,
 * guarded in time and memory: it must end with one line and its exit code, and leave nothing in its temp dir.
 */
import { equal, ok } from "node:assert/strict";
import { SANDBOX_CLIENT, startSandbox } from "../src/sandbox/mod.ts";
import { packTar, type TarHeader } from "modern-tar";
import { startTlsServer } from "../src/http/_test_tls.ts";
import { createTestCertificates } from "../src/sandbox/test_ca.ts";
import { assertFailedWith, described, guardedFctl, type GuardedOptions, type GuardedRun } from "./guarded_fctl.ts";
import { fixture } from "./helpers.ts";

const encoder = new TextEncoder();

/** A ustar header block for a regular file `name` declaring `size` bytes. */
function tarHeader(name: string, size: number): Uint8Array {
  const block = new Uint8Array(512);
  const field = (offset: number, text: string) => block.set(encoder.encode(text), offset);
  field(0, name);
  field(100, "0000644\0");
  field(108, "0000000\0");
  field(116, "0000000\0");
  field(124, `${size.toString(8).padStart(11, "0")}\0`);
  field(136, "00000000000\0");
  field(148, "        ");
  block[156] = "0".charCodeAt(0);
  field(257, "ustar\u000000");
  const sum = block.reduce((total, byte) => total + byte, 0);
  field(148, `${sum.toString(8).padStart(6, "0")}\0 `);
  return block;
}

/** The tar of `entries` (each a header, then that many bytes "a", padded to a block), gzipped as it is made. */
async function gzippedTar(entries: { name: string; size: number }[]): Promise<Uint8Array> {
  const filler = new Uint8Array(1024 * 1024).fill(0x61);
  const pieces = entries.values();
  let current: { left: number } | undefined;
  const tar = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (current && current.left > 0) {
        const size = Math.min(current.left, filler.length);
        current.left -= size;
        controller.enqueue(filler.subarray(0, size));
        return;
      }
      const next = pieces.next();
      if (next.done) {
        controller.enqueue(new Uint8Array(1024));
        controller.close();
        return;
      }
      const { name, size } = next.value;
      current = { left: Math.ceil(size / 512) * 512 };
      controller.enqueue(tarHeader(name, size));
    },
  });
  const { readable, writable } = new CompressionStream("gzip");
  return await new Response(tar.pipeThrough({ readable, writable: writable as WritableStream<Uint8Array> })).bytes();
}

/** A served archive: its path and bytes, and the headers it is answered with. */
interface Served {
  path: string;
  /** The bytes, or a body made for each request (one without end). */
  bytes: Uint8Array | (() => ReadableStream<Uint8Array>);
  headers?: Record<string, string>;
}

/** The longest any of these runs may take. */
const TIME_LIMIT_MS = 60_000;

/** Runs of `register files --archive URL` against a production-shaped admin, the archives on an HTTPS server. */
async function withServedArchives(
  served: Served[],
  fn: (setup: {
    register(path: string, options?: GuardedOptions): Promise<GuardedRun>;
    asked: () => string[];
    tmp: string;
  }) => Promise<void>,
): Promise<void> {
  const server = await startTlsServer((request) => {
    const found = served.find(({ path }) => new URL(request.url).pathname === path);
    if (!found) return new Response("not found", { status: 404 });
    const body = found.bytes instanceof Uint8Array ? found.bytes.slice() : found.bytes();
    return new Response(body, { headers: found.headers });
  });
  const sandbox = await startSandbox({ production: true });
  const dir = await Deno.makeTempDir({ prefix: "fctl-hostile-archive-" });
  try {
    await Deno.writeTextFile(`${dir}/ca.pem`, `${sandbox.caCertificate!}${server.caCert}`);
    await Deno.mkdir(`${dir}/tmp`);
    const flags = ["-p", "flytesnacks", "-d", "development", "--admin.endpoint", sandbox.endpoint];
    flags.push("--admin.caCertFilePath", `${dir}/ca.pem`, "--admin.clientSecretEnvVar", "FLYTE_SECRET");
    const env = { HOME: `${dir}/home`, TMPDIR: `${dir}/tmp`, FLYTE_SECRET: SANDBOX_CLIENT.secret };
    await fn({
      register: (path, options) =>
        guardedFctl(
          ["register", "files", "--archive", `${server.url}${path}?sig=s3cr3t`, "--version", "v1", ...flags],
          env,
          TIME_LIMIT_MS,
          options,
        ),
      asked: () => server.seen.map((request) => new URL(request.url).pathname),
      tmp: `${dir}/tmp`,
    });
  } finally {
    await sandbox.close();
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** Nothing left in the runs' temp dir (or in `dir`, nothing but `expected`). */
async function assertNothingLeft(dir: string, label: string, expected: string[] = []): Promise<void> {
  const left = await Array.fromAsync(Deno.readDir(dir), (entry) => entry.name);
  equal(left.sort().join(", "), expected.join(", "), `${label}: left in ${dir}`);
}

const GIB = 1024 * 1024 * 1024;
const MIB = 1024 * 1024;

Deno.test("a downloaded archive whose entity file inflates to 2 GiB, in the .tgz or as the answer's Content-Encoding: refused at its header, exit 1, memory bounded", async () => {
  // About 2 MiB each: the .tgz, and the same bytes as a .tar whose answer says Content-Encoding: gzip.
  const bomb = await gzippedTar([{ name: "core/big_task_1.pb", size: 2 * GIB }]);
  const served = [
    { path: "/bomb.tgz", bytes: bomb },
    { path: "/bomb.tar", bytes: bomb, headers: { "content-encoding": "gzip" } },
  ];
  await withServedArchives(served, async ({ register, tmp }) => {
    for (const { path } of served) {
      // Before, the file went to disk (past the memory budget), then was read whole to decode it: the guard killed
      // the run for its memory, with 2 GiB in its temp dir.
      const run = await register(path);
      assertFailedWith(
        run,
        new RegExp(
          `^Error: archive "https://127\\.0\\.0\\.1:\\d+${path.replace(".", "\\.")}" holds "core/big_task_1\\.pb", ` +
            "an entity file of 2048 MiB: an entity file may be at most 32 MiB\n$",
        ),
      );
      ok(!run.stderr.includes("s3cr3t"), described(run));
      await assertNothingLeft(tmp, path);
    }
  });
});

Deno.test("a downloaded archive whose entity files add up past 256 MiB: refused at the one that goes past, exit 1", async () => {
  const entries = Array.from({ length: 9 }, (_, i) => ({ name: `core/task_${i}_1.pb`, size: 30 * MIB }));
  await withServedArchives([{ path: "/many.tgz", bytes: await gzippedTar(entries) }], async ({ register, tmp }) => {
    assertFailedWith(
      await register("/many.tgz"),
      /^Error: archive "https:\/\/127\.0\.0\.1:\d+\/many\.tgz" holds more than 256 MiB of entity files \(at "core\/task_8_1\.pb"\): a package's entity files may be at most that much in all\n$/,
    );
    await assertNothingLeft(tmp, "many.tgz");
  });
});

Deno.test("Ctrl-C while a downloaded archive inflates to gigabytes (a source spooled to disk, or a member read past): exit 130 at once, nothing left", async () => {
  const served = [
    // An entity, then a source of 1 GiB, which goes to the temp dir as it inflates.
    {
      path: "/source.tgz",
      bytes: await gzippedTar([{ name: "core/t_1.pb", size: 0 }, { name: "core/fast0a1b.tar.gz", size: GIB }]),
    },
    // A member of no role, of 1 GiB, read past.
    { path: "/other.tgz", bytes: await gzippedTar([{ name: "core/blob.bin", size: GIB }]) },
  ];
  await withServedArchives(served, async ({ register, asked, tmp }) => {
    for (const { path } of served) {
      const before = asked().length;
      const run = await register(path, {
        interruptWhen: (async () => {
          while (asked().length === before) await new Promise((resolve) => setTimeout(resolve, 20));
          await new Promise((resolve) => setTimeout(resolve, 300));
        })(),
      });
      equal(run.code, 130, `${path}: ${described(run)}`);
      equal(run.stderr, "Error: interrupted\n", `${path}: ${described(run)}`);
      ok(run.ms < 30_000 && run.killed === undefined, `${path}: ${described(run)}`);
      await assertNothingLeft(tmp, path);
    }
  });
});

Deno.test("a downloaded archive with a path out of it, a link or a device: refused naming the entry, exit 1, nothing written", async () => {
  const pb = new TextEncoder().encode("x");
  const tgz = async (header: TarHeader) => {
    const tar = await packTar([{ header: { name: "core/ok_1.pb", size: 1 }, body: pb }, {
      header,
      body: new Uint8Array(),
    }]);
    const { readable, writable } = new CompressionStream("gzip");
    return await new Response(
      new Blob([tar]).stream().pipeThrough({ readable, writable: writable as WritableStream<Uint8Array> }),
    ).bytes();
  };
  const cases: [string, TarHeader, string][] = [
    ["slip", { name: "../../escaped_1.pb", size: 0 }, `"../../escaped_1.pb": '..' path segments are not allowed`],
    ["absolute", { name: "/tmp/escaped_1.pb", size: 0 }, `"/tmp/escaped_1.pb": absolute paths are not allowed`],
    [
      "symlink",
      { name: "core/a_1.pb", type: "symlink", linkname: "/etc/passwd", size: 0 },
      `"core/a_1.pb": symlink entries are not allowed, only regular files and directories`,
    ],
    [
      "hardlink",
      { name: "core/b_1.pb", type: "link", linkname: "/etc/passwd", size: 0 },
      `"core/b_1.pb": link entries are not allowed, only regular files and directories`,
    ],
    [
      "device",
      { name: "core/c_1.pb", type: "character-device", size: 0 },
      `"core/c_1.pb": character-device entries are not allowed, only regular files and directories`,
    ],
  ];
  const served = await Promise.all(
    cases.map(async ([name, header]) => ({ path: `/${name}.tgz`, bytes: await tgz(header) })),
  );
  await withServedArchives(served, async ({ register, tmp }) => {
    for (const [name, , entry] of cases) {
      const run = await register(`/${name}.tgz`);
      assertFailedWith(
        run,
        new RegExp(
          `^Error: archive "https://127\\.0\\.0\\.1:\\d+/${name}\\.tgz" has an unsafe entry ${escape(entry)}\n$`,
        ),
      );
      await assertNothingLeft(tmp, name);
      await assertNothingLeft(`${tmp}/..`, name, ["ca.pem", "tmp"]);
    }
  });
});

/** `text` as a regular expression matching it literally. */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

Deno.test("a downloaded archive followed by zeros without end, as they come or gzipped: registered, the download ended", async () => {
  const tar = await Deno.readFile(fixture("valid-register.tar"));
  /** The archive, then zeros as fast as they are read, until the client goes. */
  const thenZeros = () => {
    let sent = false;
    const zeros = new Uint8Array(64 * 1024);
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(sent ? zeros : tar);
        sent = true;
      },
    });
  };
  const gzipped = () => {
    const { readable, writable } = new CompressionStream("gzip");
    return thenZeros().pipeThrough({ readable, writable: writable as WritableStream<Uint8Array> });
  };
  const served = [{ path: "/zeros.tar", bytes: thenZeros }, { path: "/zeros.tgz", bytes: gzipped }];
  await withServedArchives(served, async ({ register, tmp }) => {
    for (const { path } of served) {
      // Before, the tar decoder read the zeros after the archive's end for as long as they came: for ever.
      const run = await register(path);
      equal(run.killed, undefined, `${path}: ${described(run)}`);
      equal(run.code, 0, `${path}: ${described(run)}`);
      equal(run.stdout.match(/\| Success \|/g)?.length, 4, `${path}: ${run.stdout}`);
      await assertNothingLeft(tmp, path);
    }
  });
});

Deno.test("a download whose connection is closed in the middle: one line naming the download, not a broken archive, exit 1", async () => {
  const tgz = await Deno.readFile(fixture("flytesnacks-core.tgz"));
  // HTTP/1.1 over TLS, by hand: the length of the whole archive is promised, half of it sent, then the connection is
  // closed.
  const certificates = await createTestCertificates();
  const listener = Deno.listenTls({ hostname: "127.0.0.1", port: 0, cert: certificates.cert, key: certificates.key });
  const serving = (async () => {
    for await (const conn of listener) {
      await conn.read(new Uint8Array(64 * 1024)).catch(() => null);
      const head = `HTTP/1.1 200 OK\r\ncontent-length: ${tgz.length}\r\nconnection: close\r\n\r\n`;
      await conn.write(new TextEncoder().encode(head)).catch(() => 0);
      await conn.write(tgz.subarray(0, tgz.length / 2)).catch(() => 0);
      await new Promise((resolve) => setTimeout(resolve, 300));
      conn.close();
    }
  })().catch(() => {});
  const sandbox = await startSandbox({ production: true });
  const dir = await Deno.makeTempDir({ prefix: "fctl-hostile-archive-" });
  try {
    await Deno.writeTextFile(`${dir}/ca.pem`, `${sandbox.caCertificate!}${certificates.caCert}`);
    await Deno.mkdir(`${dir}/tmp`);
    const url = `https://127.0.0.1:${listener.addr.port}/half.tgz`;
    const run = await guardedFctl(
      [
        ...["register", "files", "--archive", url, "--version", "v1", "-p", "flytesnacks", "-d", "development"],
        ...["--admin.endpoint", sandbox.endpoint, "--admin.caCertFilePath", `${dir}/ca.pem`],
        ...["--admin.clientSecretEnvVar", "FLYTE_SECRET"],
      ],
      { HOME: `${dir}/home`, TMPDIR: `${dir}/tmp`, FLYTE_SECRET: SANDBOX_CLIENT.secret },
      TIME_LIMIT_MS,
    );
    // Before: '"https://…/half.tgz" is not a valid gzip-compressed tar archive: error reading a body from connection'.
    assertFailedWith(
      run,
      /^Error: cannot download "https:\/\/127\.0\.0\.1:\d+\/half\.tgz": error reading a body from connection\n$/,
    );
    await assertNothingLeft(`${dir}/tmp`, "half.tgz");
  } finally {
    listener.close();
    await serving;
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});
