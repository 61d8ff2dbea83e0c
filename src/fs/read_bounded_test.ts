import { equal, rejects } from "node:assert/strict";
import { formatLimit, readBoundedTextFile, TEXT_FILE_LIMIT } from "./read_bounded.ts";

Deno.test("readBoundedTextFile reads a regular file up to the limit", async () => {
  const file = await Deno.makeTempFile();
  try {
    await Deno.writeTextFile(file, "x".repeat(10_000));
    equal(await readBoundedTextFile(file, 10_000), "x".repeat(10_000));
    await rejects(readBoundedTextFile(file, 9_999), /^Error: larger than the 9999 bytes limit$/);
    equal(formatLimit(TEXT_FILE_LIMIT), "4 MiB");
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("readBoundedTextFile refuses devices and directories at once, without reading them", async () => {
  await rejects(readBoundedTextFile("/dev/zero"), /^Error: a character device, not a regular file$/);
  await rejects(readBoundedTextFile("/tmp"), /^Error: a directory, not a regular file$/);
  await rejects(readBoundedTextFile("/nonexistent-fctl-file"), Deno.errors.NotFound);
});

Deno.test("readBoundedTextFile refuses a FIFO nobody writes to instead of blocking", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const fifo = `${dir}/fifo`;
    equal((await new Deno.Command("mkfifo", { args: [fifo] }).output()).code, 0);
    await rejects(readBoundedTextFile(fifo), /^Error: a FIFO, not a regular file$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
