/**
 * `register files` against an admin without DataProxy, the source written through stow `google` (a loopback
 * GCS JSON API server that checks the token and the MD5, see src/storage/_gcs_test_server.ts) and stow `azure`
 * (Azurite, Microsoft's emulator): the container created, the object's bytes and MD5 checked in the server,
 * its `gs://` / `abfs://` URI in every fast-registered task; a package streamed from each with `--archive`;
 * bad keys refused in one line; credentials never printed, at any log level.
 *
 * The settings come from a config file, as users keep them: a service-account JSON or an account key does not
 * fit a `key=value,…` flag.
 */
import { deepEqual, equal, match, ok as assert } from "node:assert/strict";
import { createHash } from "node:crypto";
import { stringify } from "yaml";
import { type Sandbox, startSandbox } from "../src/sandbox/mod.ts";
import { AZURITE_ACCOUNT, AZURITE_KEY, startAzurite } from "../src/storage/_azurite_test_server.ts";
import { startFakeGcs } from "../src/storage/_gcs_test_server.ts";
import { openStorage } from "../src/storage/mod.ts";
import { fixture, runFctl } from "./helpers.ts";

const CORE = "flytesnacks-core.tgz";
const SOURCE = "fasted4a62b5c4359e9aed745fa1197a9ea0.tar.gz";
const CONTAINER = "fctl-fast";
const KEY = `fast/v1-${SOURCE}`;
const PROJECT_ID = "fctl-test-project";

/** A stow server the test talks to: how fctl is configured for it, and what it holds. */
interface StowServer {
  kind: "google" | "azure";
  scheme: "gs" | "abfs";
  /** `storage.stow.config`. */
  config: Record<string, string>;
  /** The credential values that must never be printed. */
  secrets: string[];
  /** Makes every upload fail from now on; returns the config to use (with its credential, if one changed). */
  failUploads(): Record<string, string>;
  /** Whether the container exists. */
  hasContainer(name: string): Promise<boolean>;
  /** An object's bytes and base64 MD5 as the server stored them, or undefined. */
  object(container: string, key: string): Promise<{ bytes: Uint8Array; md5: string } | undefined>;
  close(): Promise<void>;
}

async function startGoogle(): Promise<StowServer> {
  const gcs = await startFakeGcs();
  const privateKey = JSON.parse(gcs.serviceAccountJson).private_key as string;
  const server: StowServer = {
    kind: "google",
    scheme: "gs",
    config: { json: gcs.serviceAccountJson, project_id: PROJECT_ID, endpoint: gcs.endpoint },
    secrets: [privateKey, ...privateKey.split("\n").filter((line) => line.length > 40)],
    failUploads() {
      gcs.misbehave("fail");
      return this.config;
    },
    hasContainer: (name) => Promise.resolve(gcs.buckets.has(name)),
    object(container, key) {
      const stored = gcs.buckets.get(container)?.get(key);
      return Promise.resolve(stored && { bytes: stored.bytes, md5: stored.md5Hash });
    },
    close: () => gcs.close(),
  };
  return server;
}

async function startAzure(): Promise<StowServer> {
  const azurite = await startAzurite();
  const { BlobServiceClient, StorageSharedKeyCredential } = await import("@azure/storage-blob");
  const service = new BlobServiceClient(
    azurite.endpoint,
    new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY),
  );
  const server: StowServer = {
    kind: "azure",
    scheme: "abfs",
    config: { account: AZURITE_ACCOUNT, key: AZURITE_KEY, endpoint: azurite.endpoint },
    secrets: [AZURITE_KEY],
    failUploads() {
      // A key the emulator does not know: every call is refused as unauthenticated.
      const key = btoa("an-account-key-azurite-does-not-know");
      this.secrets.push(key);
      return { ...this.config, key };
    },
    hasContainer: (name) => service.getContainerClient(name).exists(),
    async object(container, key) {
      const blob = service.getContainerClient(container).getBlobClient(key);
      if (!await blob.exists()) return undefined;
      const properties = await blob.getProperties();
      const bytes = new Uint8Array(await blob.downloadToBuffer());
      return { bytes, md5: btoa(String.fromCharCode(...properties.contentMD5 ?? [])) };
    },
    close: () => azurite.close(),
  };
  return server;
}

const SERVERS = { google: startGoogle, azure: startAzure };

/** The fast-registration source inside the core package, as bytes. */
async function coreSource(): Promise<Uint8Array> {
  const dir = await Deno.makeTempDir({ prefix: "fctl-stow-test-" });
  try {
    const untar = await new Deno.Command("tar", { args: ["xzf", fixture(CORE), "-C", dir] }).output();
    equal(untar.code, 0);
    return await Deno.readFile(`${dir}/core/_pb_output/${SOURCE}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Every string in a decoded message. */
function strings(value: unknown, found: string[] = []): string[] {
  if (typeof value === "string") found.push(value);
  else if (value !== null && typeof value === "object") {
    for (const child of Object.values(value)) strings(child, found);
  }
  return found;
}

type Run = (args: string[], storage?: Record<string, unknown>) => ReturnType<typeof runFctl>;

/**
 * Runs `fn` with the server, a sandbox without DataProxy, and a `run` that writes the storage section to a
 * config file (stow `kind` with the server's config, overridable) and passes it with `-c`.
 */
async function withServers(
  kind: keyof typeof SERVERS,
  fn: (sandbox: Sandbox, server: StowServer, run: Run) => Promise<void>,
): Promise<void> {
  const server = await SERVERS[kind]();
  const sandbox = await startSandbox({ dataProxy: false });
  const dir = await Deno.makeTempDir({ prefix: "fctl-stow-test-" });
  try {
    const run: Run = async (args, storage = {}) => {
      const file = `${dir}/config.yaml`;
      const section = {
        type: "stow",
        container: CONTAINER,
        stow: { kind: server.kind, config: server.config },
        ...storage,
      };
      await Deno.writeTextFile(file, stringify({ admin: { endpoint: sandbox.endpoint }, storage: section }));
      return await runFctl([...args, "-p", "flytesnacks", "-d", "development", "-c", file]);
    };
    await fn(sandbox, server, run);
  } finally {
    await sandbox.close();
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
}

for (const kind of ["google", "azure"] as const) {
  Deno.test(`storage stow ${kind}: the source goes to a container created for it, tasks get its URI`, async () => {
    const source = await coreSource();
    const md5Base64 = createHash("md5").update(source).digest("base64");
    await withServers(kind, async (sandbox, server, run) => {
      assert(!await server.hasContainer(CONTAINER));
      const result = await run(["register", "files", "--archive", fixture(CORE), "--version", "v1", "-o", "json"]);
      equal(result.code, 0, result.stderr);
      const location = `${server.scheme}://${CONTAINER}/${KEY}`;
      const report = JSON.parse(result.stdout);
      deepEqual([report.source.location, report.source.via, report.source.size], [location, "storage", source.length]);
      // In the server: the container created, the bytes as they are, their MD5 recorded (and checked on upload).
      assert(await server.hasContainer(CONTAINER));
      const stored = await server.object(CONTAINER, KEY);
      assert(stored, "the object is stored");
      deepEqual(stored.bytes, source);
      equal(stored.md5, md5Base64);
      // No DataProxy: nothing was uploaded to the admin.
      equal(sandbox.uploads.size, 0);
      const tasks = sandbox.requests.filter((r) => r.method === "CreateTask");
      equal(tasks.length, 39);
      // Every placeholder of the 35 fast-registered tasks became the object's URI.
      const args = tasks.flatMap((t) => strings(t.request));
      equal(args.filter((a) => a === location).length, 35);
      assert(!args.some((a) => a.includes("remote_package_path")));
    });
  });

  Deno.test(`storage stow ${kind}: --archive ${kind === "google" ? "gs" : "abfs"}://… is streamed from storage; another container needs multicontainer`, async () => {
    await withServers(kind, async (sandbox, server, run) => {
      const setup = await openStorage({
        type: "stow",
        stowKind: kind,
        stowConfig: server.config,
        container: "packages",
        defaultLocalRoot: "",
      });
      const archive = `${server.scheme}://packages/releases/core.tgz`;
      try {
        const path = fixture(CORE);
        await setup.writeFile(archive, { path, size: (await Deno.stat(path)).size });
      } finally {
        setup.close();
      }
      const args = ["register", "files", "--archive", archive, "--version", "v1"];
      const refused = await run(args);
      equal(refused.code, 2, refused.stderr);
      match(refused.stderr, /^Error: .*"packages".*storage\.enable-multicontainer.*\n$/);
      const result = await run(args, { "enable-multicontainer": true });
      equal(result.code, 0, result.stderr);
      equal(sandbox.requests.filter((r) => /^Create(Task|Workflow|LaunchPlan)$/.test(r.method)).length, 84);
      assert(await server.object(CONTAINER, KEY), "the source went to storage.container");
    });
  });

  Deno.test(`storage stow ${kind}: bad keys are one line naming them, exit 2; config validate says what it would do, no secret`, async () => {
    await withServers(kind, async (_sandbox, server, run) => {
      const base = ["register", "files", "--archive", fixture(CORE), "--version", "v1"];
      const unknown = await run(base, {
        stow: { kind, config: { ...server.config, force_path: "true" } },
      });
      equal(unknown.code, 2, unknown.stderr);
      match(
        unknown.stderr,
        /^Error: storage\.stow\.config has unknown key "force_path" for stow kind \w+; accepted: .+\n$/,
      );
      const required = kind === "google" ? "project_id" : "account";
      const { [required]: _, ...without } = server.config;
      const missing = await run(base, { stow: { kind, config: without } });
      equal(missing.code, 2, missing.stderr);
      match(missing.stderr, new RegExp(`^Error: storage\\.stow\\.config lacks "${required}" .*\\n$`));
      for (const result of [unknown, missing]) {
        for (const secret of server.secrets) assert(!result.stderr.includes(secret), result.stderr);
      }

      const validate = await run(["config", "validate"]);
      equal(validate.code, 0, validate.stderr);
      match(validate.stdout, new RegExp(`storage: stow ${kind}, ${server.scheme}://${CONTAINER} through `));
      for (const secret of server.secrets) assert(!validate.stdout.includes(secret), validate.stdout);
    });
  });
}

Deno.test("storage stow credentials are never printed, at any log level, with a failing upload", async () => {
  for (const kind of ["google", "azure"] as const) {
    await withServers(kind, async (_sandbox, server, run) => {
      const config = server.failUploads();
      for (const level of ["0", "5"]) {
        const result = await run(
          ["register", "files", "--archive", fixture(CORE), "--version", "v1", "--logger.level", level],
          { stow: { kind, config } },
        );
        equal(result.code, 1, `${kind} ${level}: ${result.stderr}`);
        const all = `${result.stdout}${result.stderr}`;
        // The first refused call is named: google fails the object write, azure already its container check.
        // (At debug the error's stack follows it.)
        match(result.stderr, /^Error: cannot (write|create) "(gs|abfs):\/\/fctl-fast(\/fast\/v1-[^"]+)?": .+$/m);
        for (const secret of server.secrets) assert(!all.includes(secret), `${kind} ${level}: ${all}`);
        // At debug the configuration is logged: the credential values are there, redacted.
        if (level === "5") match(result.stderr, /\[redacted\]/);
      }
    });
  }
});
