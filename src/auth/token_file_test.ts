/**
 * The token cache file on a real disk: round trip, modes, atomic replacement, keys, malformed files, the
 * fall-back to memory, and a cache others could read or swap (modes, links), which is repaired or not used.
 */
import { deepEqual, equal, ok as assert, rejects } from "node:assert/strict";
import { createLogger } from "../log/logger.ts";
import { Redactor } from "../log/redact.ts";
import { endpointKey, fileTokenStore, removeTokens, tokenDirectory } from "./token_file.ts";

const key = { endpoint: "127.0.0.1:8089", authType: "ClientSecret", clientId: "flytepropeller" };

function logger() {
  let text = "";
  const log = createLogger({
    sink: { write: (t) => void (text += t) },
    level: 5,
    formatter: "json",
    redactor: new Redactor(),
  });
  return { log, text: () => text };
}

Deno.test("token file: what is saved is loaded, in a 0600 file of a 0700 directory, replaced atomically", async () => {
  const home = await Deno.makeTempDir();
  try {
    const { log } = logger();
    const store = fileTokenStore({ home, key, logger: log });
    equal(await store.load(), undefined);
    const token = {
      accessToken: "at-1",
      refreshToken: "rt-1",
      expiresAt: 1_900_000_000_000,
      metadataKey: "x-auth",
      receivedAt: 1_899_999_700_000,
    };
    await store.save(token);
    deepEqual(await store.load(), token);
    await store.save({ accessToken: "at-2" });
    deepEqual(await fileTokenStore({ home, key, logger: log }).load(), {
      accessToken: "at-2",
      refreshToken: undefined,
      expiresAt: undefined,
      metadataKey: undefined,
    });
    const dir = tokenDirectory(home);
    const files = [...Deno.readDirSync(dir)].map((e) => e.name);
    equal(files.length, 1, "no temporary file is left");
    equal(Deno.statSync(dir).mode! & 0o777, 0o700);
    equal(Deno.statSync(`${dir}/${files[0]}`).mode! & 0o777, 0o600);
    // Other endpoints, flows and clients have their own files.
    for (const other of [{ endpoint: "127.0.0.1:8090" }, { authType: "Pkce" }, { clientId: "other" }]) {
      equal(await fileTokenStore({ home, key: { ...key, ...other }, logger: log }).load(), undefined);
    }
    // A malformed file is no token.
    await Deno.writeTextFile(`${dir}/${files[0]}`, "{not json");
    equal(await store.load(), undefined);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("token file: without a home, or with one that does not exist, tokens stay in memory, said once", async () => {
  const none = logger();
  const noHome = fileTokenStore({ home: undefined, key, logger: none.log });
  await noHome.save({ accessToken: "at-1" });
  await noHome.save({ accessToken: "at-2" });
  equal(await noHome.load(), undefined);
  deepEqual(
    none.text().split("\n").filter(Boolean).map((line) => JSON.parse(line).msg),
    ["the token cache is not writable (HOME is not set): tokens are kept in memory for this run"],
  );

  const parent = await Deno.makeTempDir();
  try {
    const missing = logger();
    const store = fileTokenStore({ home: `${parent}/absent`, key, logger: missing.log });
    await store.save({ accessToken: "at-1" });
    await store.save({ accessToken: "at-2" });
    const lines = missing.text().split("\n").filter(Boolean);
    equal(lines.length, 1);
    equal(
      JSON.parse(lines[0]).msg,
      `the token cache is not writable (${parent}/absent does not exist): tokens are kept in memory for this run`,
    );
    deepEqual([...Deno.readDirSync(parent)], [], "the home is never created");
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("token file: removeTokens forgets every flow and client of one endpoint, and only that endpoint", async () => {
  const home = await Deno.makeTempDir();
  try {
    const { log } = logger();
    deepEqual(await removeTokens(home, key.endpoint), [], "no cache directory: nothing to remove");
    const other = { ...key, endpoint: "127.0.0.1:8090" };
    for (const k of [key, { ...key, authType: "Pkce", clientId: "flytectl" }, other]) {
      await fileTokenStore({ home, key: k, logger: log }).save({ accessToken: "at-1" });
    }
    deepEqual(await removeTokens(home, key.endpoint), ["ClientSecret/flytepropeller", "Pkce/flytectl"]);
    equal(await fileTokenStore({ home, key, logger: log }).load(), undefined);
    deepEqual((await fileTokenStore({ home, key: other, logger: log }).load())?.accessToken, "at-1");
    deepEqual(await removeTokens(home, key.endpoint), []);
    equal(endpointKey({ host: "::1", port: 443 }), "::1:443");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("token file: a cache file over the size cap, or a FIFO in its place, is no token and never blocks", async () => {
  const home = await Deno.makeTempDir();
  try {
    const { log, text } = logger();
    const store = fileTokenStore({ home, key, logger: log });
    await store.save({ accessToken: "at-1" });
    const dir = tokenDirectory(home);
    const [name] = [...Deno.readDirSync(dir)].map((e) => e.name);
    // 5 MiB of valid JSON: over the 4 MiB cap, so not read whole into memory.
    await Deno.writeTextFile(
      `${dir}/${name}`,
      JSON.stringify({ version: 1, ...key, accessToken: "x".repeat(5 << 20) }),
    );
    equal(await store.load(), undefined);
    equal(text().includes("limit"), true, text());
    await Deno.remove(`${dir}/${name}`);
    const mkfifo = await new Deno.Command("mkfifo", { args: [`${dir}/${name}`] }).output();
    equal(mkfifo.success, true);
    equal(await store.load(), undefined);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

/** The one file of the cache directory under `home`. */
const onlyFile = (home: string) => `${tokenDirectory(home)}/${[...Deno.readDirSync(tokenDirectory(home))][0].name}`;
const mode = (path: string) => Deno.lstatSync(path).mode! & 0o777;
const records = (text: string) => text.split("\n").filter(Boolean).map((line) => JSON.parse(line));

Deno.test("token file: a cache file open to other users is made private (0600), said once; its token is used", async () => {
  const home = await Deno.makeTempDir();
  try {
    const { log, text } = logger();
    await fileTokenStore({ home, key, logger: log }).save({ accessToken: "at-1" });
    const file = onlyFile(home);
    Deno.chmodSync(file, 0o644);
    const store = fileTokenStore({ home, key, logger: log });
    equal((await store.load())?.accessToken, "at-1");
    equal(mode(file), 0o600);
    equal((await store.load())?.accessToken, "at-1");
    deepEqual(records(text()).map((r) => [r.level, r.msg]), [
      ["warning", `the token cache file ${file} was open to other users (mode 0644): it is now private (0600)`],
    ]);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("token file: a linked tokens directory is not followed: its target keeps its mode and gets nothing; memory, one warning", async () => {
  const parent = await Deno.makeTempDir();
  try {
    const home = `${parent}/home`;
    const elsewhere = `${parent}/elsewhere`;
    Deno.mkdirSync(`${home}/.flyte/fctl`, { recursive: true });
    Deno.mkdirSync(elsewhere);
    Deno.chmodSync(elsewhere, 0o755);
    Deno.writeTextFileSync(`${elsewhere}/${encodeURIComponent(key.endpoint)},ClientSecret,flytepropeller.json`, "{}");
    Deno.symlinkSync(elsewhere, tokenDirectory(home));
    const { log, text } = logger();
    const store = fileTokenStore({ home, key, logger: log });
    equal(await store.load(), undefined);
    await store.save({ accessToken: "at-1" });
    await store.save({ accessToken: "at-2" });
    equal(mode(elsewhere), 0o755, "the target's mode is unchanged");
    equal([...Deno.readDirSync(elsewhere)].length, 1, "nothing written there");
    deepEqual(records(text()).map((r) => [r.level, r.msg]), [
      [
        "warning",
        `the token cache is not safe to use (${
          tokenDirectory(home)
        } is a symbolic link): tokens are kept in memory for this run`,
      ],
    ]);
    await rejects(removeTokens(home, key.endpoint), /the cached tokens are not removed: .* is a symbolic link$/);
    equal([...Deno.readDirSync(elsewhere)].length, 1, "logout removes nothing through the link");
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("token file: a tokens directory open to other users keeps its mode and is neither read nor written; one warning", async () => {
  const home = await Deno.makeTempDir();
  try {
    const { log } = logger();
    await fileTokenStore({ home, key, logger: log }).save({ accessToken: "at-1" });
    const dir = tokenDirectory(home);
    Deno.chmodSync(dir, 0o755);
    const later = logger();
    const store = fileTokenStore({ home, key, logger: later.log });
    equal(await store.load(), undefined);
    await store.save({ accessToken: "at-2" });
    equal(mode(dir), 0o755);
    equal(JSON.parse(Deno.readTextFileSync(onlyFile(home))).accessToken, "at-1", "not written");
    deepEqual(records(later.text()).map((r) => r.msg), [
      `the token cache is not safe to use (${dir} is open to other users (mode 0755; chmod 700 it to use it)): tokens are kept in memory for this run`,
    ]);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("token file: a cache file that is a link is not followed, and no byte of any file is ever logged", async () => {
  const home = await Deno.makeTempDir();
  try {
    const { log, text } = logger();
    await fileTokenStore({ home, key, logger: log }).save({ accessToken: "at-1" });
    const file = onlyFile(home);
    // Not JSON: the parser's error quotes the text it read, which must not reach the log.
    Deno.writeTextFileSync(file, "root:x:0:0:root:/root:/bin/sh\n");
    equal(await fileTokenStore({ home, key, logger: log }).load(), undefined);
    Deno.removeSync(file);
    const target = `${home}/passwd`;
    Deno.writeTextFileSync(target, '{"version":1,"accessToken":"at-elsewhere","secret":"root:x:0:0"}');
    Deno.symlinkSync(target, file);
    const store = fileTokenStore({ home, key, logger: log });
    equal(await store.load(), undefined);
    await store.save({ accessToken: "at-2" });
    equal(Deno.lstatSync(file).isSymlink, true, "kept in memory: the link is left as it is");
    assert(!text().includes("root:x"), text());
    deepEqual(records(text()).map((r) => r.msg), [
      "the token cache file is not a token file; ignored",
      `the token cache is not safe to use (${file} is a symbolic link): tokens are kept in memory for this run`,
    ]);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
