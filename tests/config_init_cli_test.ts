/**
 * `fctl config init`: a flytectl-compatible config file, mode 0600, written whole or not at all, never
 * replacing one without --force, and loading cleanly in `fctl config validate`.
 */
import { equal, match, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { parse } from "yaml";
import { runFctl } from "./helpers.ts";

async function withTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "fctl-config-init-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("--host, --console: flytectl's file (dns:/// endpoint, Pkce, insecure false), mode 0600, validates", async () => {
  await withTempDir(async (dir) => {
    const file = join(dir, "nested", "config.yaml");
    const result = await runFctl([
      "config",
      "init",
      "--host",
      "flyte.example.com",
      "--console",
      "https://flyte.example.com/console",
      "--file",
      file,
    ]);
    equal(result.code, 0, result.stderr);
    equal(result.stdout, `wrote config file ${file}\n`);
    const text = await Deno.readTextFile(file);
    equal(
      text,
      [
        "admin:",
        "  # For gRPC endpoints you might want to use dns:///flyte.myexample.com",
        "  endpoint: dns:///flyte.example.com",
        "  authType: Pkce",
        "  insecure: false",
        "console:",
        "  endpoint: https://flyte.example.com/console",
        "logger:",
        "  show-source: true",
        "  level: 3",
        "",
      ].join("\n"),
    );
    equal((await Deno.stat(file)).mode! & 0o777, 0o600);
    const validate = await runFctl(["config", "validate", "--strict", "-c", file]);
    equal(validate.code, 0, validate.stdout + validate.stderr);
    const view = await runFctl(["config", "view", "-o", "json", "-c", file]);
    const rows = JSON.parse(view.stdout) as { key: string; value: unknown; source: string }[];
    const endpoint = rows.find((r) => r.key === "admin.endpoint");
    equal(endpoint?.value, "dns:///flyte.example.com");
  });
});

Deno.test("without --host: the local sandbox, insecure; -c names the file; http:// hosts are insecure", async () => {
  await withTempDir(async (dir) => {
    const sandbox = join(dir, "sandbox.yaml");
    equal((await runFctl(["config", "init", "-c", sandbox])).code, 0);
    const doc = parse(await Deno.readTextFile(sandbox));
    equal(doc.admin.endpoint, "dns:///localhost:30080");
    equal(doc.admin.insecure, true);
    equal(doc.console.endpoint, "http://localhost:30080");
    const plain = join(dir, "plain.yaml");
    equal((await runFctl(["config", "init", "--host", "http://localhost:8089", "--file", plain])).code, 0);
    const plainDoc = parse(await Deno.readTextFile(plain));
    equal(plainDoc.admin.endpoint, "dns:///localhost:8089");
    equal(plainDoc.admin.insecure, true);
    const flagged = join(dir, "flagged.yaml");
    equal((await runFctl(["config", "init", "--host", "localhost:8089", "--insecure", "--file", flagged])).code, 0);
    equal(parse(await Deno.readTextFile(flagged)).admin.insecure, true);
  });
});

Deno.test("$FLYTECTL_CONFIG, else ~/.flyte/config.yaml (the files every other command reads)", async () => {
  await withTempDir(async (dir) => {
    const named = join(dir, "named.yaml");
    equal((await runFctl(["config", "init", "--host", "a.example.com"], { env: { FLYTECTL_CONFIG: named } })).code, 0);
    assert((await Deno.readTextFile(named)).includes("dns:///a.example.com"));
    const home = join(dir, "home");
    const result = await runFctl(["config", "init", "--host", "b.example.com"], { env: { HOME: home } });
    equal(result.code, 0, result.stderr);
    const file = join(home, ".flyte", "config.yaml");
    assert((await Deno.readTextFile(file)).includes("dns:///b.example.com"));
    equal((await Deno.stat(join(home, ".flyte"))).mode! & 0o777, 0o700);
  });
});

Deno.test("an existing file is never replaced without --force; with it, replaced whole", async () => {
  await withTempDir(async (dir) => {
    const file = join(dir, "config.yaml");
    await Deno.writeTextFile(file, "admin:\n  endpoint: dns:///keep.example.com\n");
    const refused = await runFctl(["config", "init", "--host", "new.example.com", "--file", file]);
    equal(refused.code, 1);
    equal(refused.stdout, "");
    equal(refused.stderr, `Error: config file "${file}" already exists: add --force to replace it\n`);
    equal(await Deno.readTextFile(file), "admin:\n  endpoint: dns:///keep.example.com\n");
    const forced = await runFctl(["config", "init", "--host", "new.example.com", "--file", file, "--force"]);
    equal(forced.code, 0, forced.stderr);
    assert((await Deno.readTextFile(file)).includes("dns:///new.example.com"));
    equal((await Deno.stat(file)).mode! & 0o777, 0o600);
    const names = [];
    for await (const entry of Deno.readDir(dir)) names.push(entry.name);
    equal(names.join(","), "config.yaml", "no temp file left behind");
  });
});

Deno.test("a bad host or console URL is one usage error naming it, and nothing is written", async () => {
  await withTempDir(async (dir) => {
    const file = join(dir, "config.yaml");
    const host = await runFctl(["config", "init", "--host", "ftp://x.example.com", "--file", file]);
    equal(host.code, 2);
    match(host.stderr, /^Error: invalid admin endpoint "ftp:\/\/x\.example\.com": unknown scheme "ftp"/);
    const console = await runFctl(["config", "init", "--host", "x.example.com", "--console", "nope", "--file", file]);
    equal(console.code, 2);
    equal(console.stderr, 'Error: invalid value "nope" for --console: expected an http(s) URL\n');
    const unwritable = await runFctl(["config", "init", "--file", join(dir, "missing", "\0", "c.yaml")]);
    equal(unwritable.code, 1);
    match(unwritable.stderr, /^Error: cannot write config file /);
    const names = [];
    for await (const entry of Deno.readDir(dir)) names.push(entry.name);
    equal(names.length, 0, names.join(","));
  });
});

Deno.test("config init reads no configuration: a broken config file does not stop it from replacing it", async () => {
  await withTempDir(async (dir) => {
    const file = join(dir, "config.yaml");
    await Deno.writeTextFile(file, "admin: [unclosed\n");
    const result = await runFctl(["config", "init", "-c", file, "--force"]);
    equal(result.code, 0, result.stderr);
    equal((await runFctl(["config", "validate", "-c", file])).code, 0);
  });
});
