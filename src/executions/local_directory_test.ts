import { deepEqual, equal, match, notEqual, rejects } from "node:assert/strict";
import { createHash } from "node:crypto";
import { UsageError } from "../errors.ts";
import { readLocalDirectory } from "./local_directory.ts";

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "fctl-local-directory-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function write(path: string, text: string): Promise<void> {
  await Deno.mkdir(path.replace(/\/[^/]*$/, ""), { recursive: true });
  await Deno.writeTextFile(path, text);
}

const md5 = (text: string) => new Uint8Array(createHash("md5").update(text).digest());

/** The one-line refusal for the directory, with `inputs.d: ` taken off. */
async function refusal(dir: string): Promise<string> {
  let message = "";
  await rejects(readLocalDirectory("inputs.d", dir), (err) => {
    if (!(err instanceof UsageError)) return false;
    message = err.message;
    return true;
  });
  equal(message.split("\n").length, 1, message);
  return message.replace(/^inputs\.d: /, "");
}

Deno.test("readLocalDirectory: every regular file, nested, by relative path, with its MD5 and size", async () => {
  await withDir(async (dir) => {
    await write(`${dir}/tree/b.txt`, "bee");
    await write(`${dir}/tree/a/z.txt`, "zed");
    await write(`${dir}/tree/a/deep/er/x y.txt`, "");
    await Deno.mkdir(`${dir}/tree/empty/too`, { recursive: true });
    await Deno.symlink("../b.txt", `${dir}/tree/a/link.txt`);
    const read = await readLocalDirectory("inputs.d", `${dir}/tree`);
    deepEqual(
      read.files.map(({ relative, md5, size }) => ({ relative, md5, size })),
      [
        { relative: "a/deep/er/x y.txt", md5: md5(""), size: 0 },
        { relative: "a/link.txt", md5: md5("bee"), size: 3 },
        { relative: "a/z.txt", md5: md5("zed"), size: 3 },
        { relative: "b.txt", md5: md5("bee"), size: 3 },
      ],
    );
    equal(read.files[1].path, `${dir}/tree/a/link.txt`);
    match(read.root, /^[0-9a-f]{32}$/);
  });
});

Deno.test("readLocalDirectory: the same names and bytes give the same root; a renamed or changed file another", async () => {
  await withDir(async (dir) => {
    await write(`${dir}/one/a.txt`, "x");
    await write(`${dir}/one/s/b.txt`, "y");
    await write(`${dir}/two/a.txt`, "x");
    await write(`${dir}/two/s/b.txt`, "y");
    const root = async (name: string) => (await readLocalDirectory("inputs.d", `${dir}/${name}`)).root;
    equal(await root("one"), await root("two"));
    await Deno.rename(`${dir}/two/s/b.txt`, `${dir}/two/s/c.txt`);
    notEqual(await root("one"), await root("two"));
    await Deno.rename(`${dir}/two/s/c.txt`, `${dir}/two/s/b.txt`);
    await Deno.writeTextFile(`${dir}/two/s/b.txt`, "z");
    notEqual(await root("one"), await root("two"));
  });
});

Deno.test("readLocalDirectory: an empty directory, links out, to a directory or to nothing, odd names: one line each", async () => {
  await withDir(async (dir) => {
    await Deno.mkdir(`${dir}/empty/nested`, { recursive: true });
    match(
      await refusal(`${dir}/empty`),
      /^cannot upload ".*\/empty": the directory holds no files, and storage keeps no empty directories; add a file or give a remote URI$/,
    );
    match(await refusal(`${dir}/missing`), /^cannot upload ".*\/missing": no such file or directory$/);
    await write(`${dir}/secret.txt`, "outside");
    const cases: [string, (at: string) => Promise<void>, RegExp][] = [
      [
        "out",
        (at) => Deno.symlink(`${dir}/secret.txt`, at),
        /is a symbolic link to ".*\/secret\.txt", outside the directory, and links are not followed out of it; copy the file in or remove the link$/,
      ],
      ["relative-out", (at) => Deno.symlink("../secret.txt", at), /outside the directory/],
      [
        "to-dir",
        (at) => Deno.symlink(".", at),
        /is a symbolic link to a directory, and links to directories are not followed; remove it$/,
      ],
      ["dangling", (at) => Deno.symlink("nothing-here", at), /is a symbolic link to nothing; remove it$/],
      [
        "what?.txt",
        (at) => Deno.writeTextFile(at, "q"),
        /"[^"]*what\?\.txt": a name with \?, #, % or a control character cannot be part of a storage URL; rename it$/,
      ],
      ["100%.txt", (at) => Deno.writeTextFile(at, "p"), /100%\.txt".*rename it$/],
      ["new\nline.txt", (at) => Deno.writeTextFile(at, "n"), /"[^"]*new\\nline\.txt": a name with/],
    ];
    for (const [name, make, message] of cases) {
      const tree = `${dir}/case-${cases.findIndex((c) => c[0] === name)}`;
      await write(`${tree}/ok.txt`, "fine");
      await make(`${tree}/${name}`);
      match(await refusal(tree), message, name);
    }
  });
});

Deno.test("readLocalDirectory: a named pipe is refused, not read (which would wait for a writer)", async () => {
  await withDir(async (dir) => {
    await write(`${dir}/tree/ok.txt`, "fine");
    const made = await new Deno.Command("mkfifo", { args: [`${dir}/tree/pipe`] }).output().catch(() => undefined);
    if (!made?.success) return; // no mkfifo here
    match(
      await refusal(`${dir}/tree`),
      /"[^"]*\/pipe": it is not a regular file or directory \(a socket, pipe or device\); remove it$/,
    );
  });
});
