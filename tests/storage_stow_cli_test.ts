/**
 * `register files` against an admin without DataProxy, the source written through stow `google` (a loopback
 * GCS JSON API server, src/storage/_test_gcs_server.ts) and stow `azure` (Azurite, run by the test): the
 * bucket or container created, the object's bytes and MD5 checked in the server, its `gs://` / `abfs://` URI
 * in every fast-registered task; bad keys, redaction, `config validate`, and archives streamed from storage.
 */
import { deepEqual, equal, match, ok as assert } from "node:assert/strict";
import { createHash } from "node:crypto";
import { type Sandbox, startSandbox } from "../src/sandbox/mod.ts";
import { FCTL_RUN_FLAGS } from "../src/permissions.ts";
import { type FakeGcs, startFakeGcs } from "../src/storage/_test_gcs_server.ts";
import { type Azurite, AZURITE_ACCOUNT, AZURITE_KEY, startAzurite } from "../src/storage/_test_azurite_server.ts";
import { fctlMain, fixture, runFctl } from "./helpers.ts";
import { assertSourceThroughStorage, CORE, coreSource, KEY, SOURCE } from "./fast_source.ts";

const CONTAINER = "fctl-fast";
const PROJECT = "fctl-test-project";
/** What ships: the bundle of main.ts. */
const MAIN = await fctlMain();

function md5(bytes: Uint8Array): { hex: string; base64: string; raw: Uint8Array } {
  const hash = createHash("md5").update(bytes);
  const raw = new Uint8Array(hash.copy().digest());
  return { hex: hash.copy().digest("hex"), base64: hash.digest("base64"), raw };
}

/** A config file (JSON is YAML) selecting stow `kind` with `config`. */
async function writeConfig(dir: string, kind: string, config: Record<string, string>): Promise<string> {
  const path = `${dir}/config-${kind}.yaml`;
  await Deno.writeTextFile(
    path,
    JSON.stringify({ storage: { type: "stow", container: CONTAINER, stow: { kind, config } } }, null, 2),
  );
  return path;
}

function googleConfig(gcs: FakeGcs): Record<string, string> {
  return { json: gcs.serviceAccountJson, project_id: PROJECT, endpoint: gcs.endpoint };
}

function azureConfig(azurite: Azurite, key = AZURITE_KEY): Record<string, string> {
  return { account: AZURITE_ACCOUNT, key, endpoint: azurite.endpoint };
}

type Run = (args: string[]) => ReturnType<typeof runFctl>;

async function withSandbox(fn: (sandbox: Sandbox, run: Run, dir: string) => Promise<void>): Promise<void> {
  const sandbox = await startSandbox({ dataProxy: false });
  const dir = await Deno.makeTempDir({ prefix: "fctl-stow-test-" });
  try {
    const run: Run = (args) =>
      runFctl([...args, "-p", "flytesnacks", "-d", "development", "--admin.endpoint", sandbox.endpoint]);
    await fn(sandbox, run, dir);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** Checks the report and the CreateTask requests of a registration whose source went to `location`. */
function checkRegistered(sandbox: Sandbox, stdout: string, location: string, size: number): void {
  const report = JSON.parse(stdout);
  deepEqual([report.source.location, report.source.via, report.source.size], [location, "storage", size]);
  assertSourceThroughStorage(sandbox, location);
}

const REGISTER = ["register", "files", "--archive", fixture(CORE), "--version", "v1"];

Deno.test("stow google: the source goes to a bucket created for it in the project, tasks get its gs:// URI", async () => {
  const source = await coreSource();
  const sum = md5(source);
  const gcs = await startFakeGcs();
  try {
    await withSandbox(async (sandbox, run, dir) => {
      assert(!gcs.buckets.has(CONTAINER));
      const config = await writeConfig(dir, "google", googleConfig(gcs));
      const result = await run([...REGISTER, "-o", "json", "--config", config]);
      equal(result.code, 0, result.stderr);
      checkRegistered(sandbox, result.stdout, `gs://${CONTAINER}/${KEY}`, source.length);
      deepEqual(gcs.createdIn, [PROJECT]);
      const stored = gcs.buckets.get(CONTAINER)?.get(KEY);
      assert(stored, "object stored");
      deepEqual(stored.bytes, source);
      equal(stored.md5Hash, sum.base64);
      // Every storage call carried a token the server issued for the service account.
      const calls = gcs.requests.filter((r) => r.target !== "/token");
      assert(calls.length > 0);
      assert(calls.every((r) => gcs.tokens.includes(r.authorization.replace(/^Bearer /, ""))), JSON.stringify(calls));
    });
  } finally {
    await gcs.close();
  }
});

/** What Azurite really stores, read through a second client. */
async function azureBlob(azurite: Azurite, container: string, key: string) {
  const { BlobServiceClient, StorageSharedKeyCredential } = await import("@azure/storage-blob");
  const service = new BlobServiceClient(
    azurite.endpoint,
    new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_KEY),
  );
  const containerClient = service.getContainerClient(container);
  if (!await containerClient.exists()) return undefined;
  const blob = containerClient.getBlobClient(key);
  if (!await blob.exists()) return { container: true as const, bytes: undefined, contentMD5: undefined };
  const properties = await blob.getProperties();
  return {
    container: true as const,
    bytes: new Uint8Array(await blob.downloadToBuffer()),
    contentMD5: properties.contentMD5,
  };
}

Deno.test("stow azure: the source goes to a container created for it, tasks get its abfs:// URI (in process and as main.ts with the declared permissions)", async () => {
  const source = await coreSource();
  const sum = md5(source);
  for (const how of ["in process", "subprocess"] as const) {
    const azurite = await startAzurite();
    try {
      await withSandbox(async (sandbox, run, dir) => {
        equal(await azureBlob(azurite, CONTAINER, KEY), undefined);
        const flags = [
          ...["--storage.type", "stow", "--storage.stow.kind", "azure", "--storage.container", CONTAINER],
          ...["--storage.stow.config", `account=${AZURITE_ACCOUNT},key=${AZURITE_KEY},endpoint=${azurite.endpoint}`],
        ];
        let result: { code: number; stdout: string; stderr: string };
        if (how === "in process") {
          result = await run([...REGISTER, "-o", "json", ...flags]);
        } else {
          const config = await writeConfig(dir, "azure", azureConfig(azurite));
          const out = await new Deno.Command(Deno.execPath(), {
            args: [
              ...["run", "--quiet", ...FCTL_RUN_FLAGS, MAIN, ...REGISTER, "-o", "json", "--config", config],
              ...["-p", "flytesnacks", "-d", "development", "--admin.endpoint", sandbox.endpoint],
            ],
            env: { HOME: "/nonexistent-fctl-test-home", NO_COLOR: "1", PATH: Deno.env.get("PATH") ?? "" },
            clearEnv: true,
            stdin: "null",
          }).output();
          const decode = (b: Uint8Array) => new TextDecoder().decode(b);
          result = { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
        }
        equal(result.code, 0, `${how}: ${result.stderr}`);
        checkRegistered(sandbox, result.stdout, `abfs://${CONTAINER}/${KEY}`, source.length);
        const blob = await azureBlob(azurite, CONTAINER, KEY);
        assert(blob?.bytes, "blob stored");
        deepEqual(blob.bytes, source);
        deepEqual(blob.contentMD5 && new Uint8Array(blob.contentMD5), sum.raw);
      });
    } finally {
      await azurite.close();
    }
  }
});

Deno.test("stow google and azure: an unknown key or a missing one is one line naming it and the accepted ones, exit 2", async () => {
  await withSandbox(async (_sandbox, run) => {
    const base = [...REGISTER, "--storage.type", "stow", "--storage.container", CONTAINER];
    const cases: [string, string, RegExp][] = [
      [
        "google",
        "project_id=p,bucket=b",
        /^Error: storage\.stow\.config has unknown key "bucket" for stow kind google; accepted: json, project_id, scopes, endpoint\n$/,
      ],
      [
        "google",
        "scopes=x",
        /^Error: storage\.stow\.config lacks "project_id" \(project that buckets are created in\); accepted: json, project_id, scopes, endpoint\n$/,
      ],
      [
        "azure",
        `account=${AZURITE_ACCOUNT},key=${AZURITE_KEY},container=c`,
        /^Error: storage\.stow\.config has unknown key "container" for stow kind azure; accepted: account, key, domain_suffix, base_url, upload_concurrency, endpoint\n$/,
      ],
      [
        "azure",
        `account=${AZURITE_ACCOUNT}`,
        /^Error: storage\.stow\.config lacks "key" \(storage account access key [^\n]*\); accepted: account, key, domain_suffix, base_url, upload_concurrency, endpoint\n$/,
      ],
    ];
    for (const [kind, config, expected] of cases) {
      const result = await run([...base, "--storage.stow.kind", kind, "--storage.stow.config", config]);
      equal(result.code, 2, `${kind} ${config}: ${result.stderr}`);
      match(result.stderr, expected);
      assert(!result.stderr.includes(AZURITE_KEY));
    }
  });
});

Deno.test("stow google and azure: credentials never appear in output at debug, with a failing upload", async () => {
  const gcs = await startFakeGcs();
  const azurite = await startAzurite();
  // A well-formed key Azurite does not know: every call is refused.
  const wrongKey = btoa("fctl-wrong-azure-account-key-0123456789abcdef");
  try {
    await withSandbox(async (_sandbox, run, dir) => {
      gcs.misbehave("fail");
      const google = await writeConfig(dir, "google", googleConfig(gcs));
      const azure = await writeConfig(dir, "azure", azureConfig(azurite, wrongKey));
      for (
        const [kind, config, secrets] of [
          ["google", google, [gcs.privateKeyPem, JSON.parse(gcs.serviceAccountJson).private_key, ...gcs.tokens]],
          ["azure", azure, [wrongKey]],
        ] as const
      ) {
        const result = await run([...REGISTER, "--logger.level", "5", "--config", config]);
        equal(result.code, 1, `${kind}: ${result.stderr}`);
        const all = `${result.stdout}${result.stderr}`;
        match(result.stderr, /Error: cannot (write|create) "(gs|abfs):\/\/fctl-fast[^"]*"/);
        // At debug the configuration is logged: the values are there, redacted.
        match(result.stderr, /\[redacted\]/);
        // Tokens issued after the run started are credentials too.
        for (const secret of [...secrets, ...gcs.tokens]) {
          for (const line of String(secret).split("\n").filter((l) => l.length > 16)) {
            assert(!all.includes(line), `${kind}: a credential in the output: ${all}`);
          }
        }
      }
    });
  } finally {
    await azurite.close();
    await gcs.close();
  }
});

Deno.test("config validate describes stow google and azure in one line each, without a credential", async () => {
  const gcs = await startFakeGcs();
  const azurite = await startAzurite();
  try {
    const dir = await Deno.makeTempDir({ prefix: "fctl-stow-test-" });
    try {
      for (
        const [kind, config, secret] of [
          ["google", googleConfig(gcs), JSON.parse(gcs.serviceAccountJson).private_key as string],
          ["azure", azureConfig(azurite), AZURITE_KEY],
        ] as const
      ) {
        const path = await writeConfig(dir, kind, config);
        const result = await runFctl([
          "config",
          "validate",
          "--config",
          path,
          "--admin.endpoint",
          "dns:///localhost:8089",
        ]);
        equal(result.code, 0, result.stderr);
        const storage = `${result.stdout}${result.stderr}`.split("\n").filter((l) => /storage/i.test(l));
        equal(storage.length, 1, `${kind}: ${result.stdout}${result.stderr}`);
        match(storage[0], new RegExp(`stow ${kind}`));
        match(storage[0], new RegExp(CONTAINER));
        const all = `${result.stdout}${result.stderr}`;
        for (const line of secret.split("\n").filter((l) => l.length > 16)) assert(!all.includes(line), all);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  } finally {
    await azurite.close();
    await gcs.close();
  }
});

Deno.test("register files --archive gs://… and abfs://…: streamed from storage; another container needs multicontainer", async () => {
  const gcs = await startFakeGcs();
  const azurite = await startAzurite();
  try {
    const { openStorage } = await import("../src/storage/mod.ts");
    await withSandbox(async (sandbox, run, dir) => {
      // One sandbox: each kind registers its own version, its tasks pointing at its own storage.
      for (
        const [kind, scheme, config, version] of [
          ["google", "gs", googleConfig(gcs), "v1"],
          ["azure", "abfs", azureConfig(azurite), "v3"],
        ] as const
      ) {
        const setup = await openStorage({
          type: "stow",
          container: "packages",
          stowKind: kind,
          stowConfig: config,
          defaultLocalRoot: "",
        });
        const reference = `${scheme}://packages/releases/core.tgz`;
        try {
          const path = fixture(CORE);
          await setup.writeFile(reference, { path, size: (await Deno.stat(path)).size });
        } finally {
          setup.close();
        }
        const configPath = await writeConfig(dir, kind, config);
        const args = ["register", "files", "--archive", reference, "--version", version, "--config", configPath];
        const refused = await run(args);
        equal(refused.code, 2, refused.stderr);
        match(
          refused.stderr,
          new RegExp(
            `^Error: stow ${kind} storage cannot serve "${scheme}:\\/\\/packages\\/releases\\/core\\.tgz": its container "packages" is not storage\\.container "fctl-fast"; set storage\\.enable-multicontainer to use other containers\\n$`,
          ),
        );
        const before = sandbox.requests.length;
        const result = await run([...args, "--storage.enable-multicontainer"]);
        equal(result.code, 0, `${kind}: ${result.stderr}`);
        equal(
          sandbox.requests.slice(before).filter((r) => /^Create(Task|Workflow|LaunchPlan)$/.test(r.method)).length,
          84,
        );
        const missing = await run([
          ...["register", "files", "--archive", `${scheme}://packages/none.tgz`, "--version", "v2"],
          ...["--config", configPath, "--storage.enable-multicontainer"],
        ]);
        equal(missing.code, 1, missing.stderr);
        match(
          missing.stderr,
          new RegExp(`^Error: cannot download "${scheme}:\\/\\/packages\\/none\\.tgz": no such object\\n$`),
        );
      }
      // The sources went to storage.container, as without multicontainer.
      assert(gcs.buckets.get(CONTAINER)?.get(KEY));
      assert((await azureBlob(azurite, CONTAINER, `fast/v3-${SOURCE}`))?.bytes);
    });
  } finally {
    await azurite.close();
    await gcs.close();
  }
});
