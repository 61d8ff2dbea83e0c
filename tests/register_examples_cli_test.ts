/**
 * `fctl register examples` against a fake GitHub API served on loopback (release JSON + the shared
 * fixture packages as assets) and the in-process admin over gRPC.
 */
import { deepEqual, equal, match, ok as assert } from "node:assert/strict";
import { Code } from "@connectrpc/connect";
import { type Sandbox, startSandbox } from "../src/sandbox/mod.ts";
import { createTestCertificates } from "../src/sandbox/test_ca.ts";
import { fixture, runFctl, runFctlProcess, type RunOptions } from "./helpers.ts";

const TOKEN = "ghp_test_secret_token_123";

interface FakeGitHub {
  url: string;
  /** Path and Authorization header of every request. */
  seen: { path: string; auth: string | null }[];
  /** Where the release's assets are served from; default the API's own host. */
  assetBase?: string;
  /** When set, the API answers every release request with this. */
  failWith?: { status: number; headers?: Record<string, string>; body?: string };
  /** When set, the first request of every path is answered 502, as a CDN failing in passing does. */
  flakyOnce?: boolean;
}

async function withFakeGitHub(
  fn: (github: FakeGitHub) => Promise<void>,
  tls?: { cert: string; key: string },
): Promise<void> {
  const github: FakeGitHub = { url: "", seen: [] };
  const release = (tag: string, assets: string[]) => ({
    tag_name: tag,
    assets: assets.map((name) => ({
      name,
      size: 1,
      browser_download_url: `${github.assetBase ?? github.url}/download/${tag}/${name}`,
    })),
  });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {}, ...tls }, async (req) => {
    const path = new URL(req.url).pathname;
    github.seen.push({ path, auth: req.headers.get("authorization") });
    if (github.flakyOnce && github.seen.filter((s) => s.path === path).length === 1) {
      return new Response("Bad Gateway", { status: 502 });
    }
    if (path.startsWith("/repos/") && github.failWith) {
      const { status, headers, body } = github.failWith;
      return new Response(body ?? JSON.stringify({ message: "nope" }), { status, headers });
    }
    if (path === "/repos/flyteorg/flytesnacks/releases/latest") {
      return Response.json(release("v1.2.3", ["flytesnacks-core.tgz", "valid-register.tgz", "checksums.txt"]));
    }
    if (path === "/repos/flyteorg/flytesnacks/releases/tags/v-many") {
      // More assets than GitHub allows a release, each an archive that would be downloaded and registered.
      return Response.json(release("v-many", Array.from({ length: 1_001 }, (_, i) => `many-${i}.tgz`)));
    }
    if (path === "/repos/flyteorg/flytesnacks/releases/tags/v0.9") {
      return Response.json(release("v0.9", ["valid-register.tar", "missing.tgz"]));
    }
    const download = /^\/download\/[^/]+\/([\w.-]+)$/.exec(path);
    if (download && download[1] !== "missing.tgz") {
      return new Response((await Deno.open(fixture(download[1]))).readable);
    }
    return Response.json({ message: "Not Found" }, { status: 404 });
  });
  github.url = `${tls ? "https" : "http"}://127.0.0.1:${server.addr.port}`;
  try {
    await fn(github);
  } finally {
    await server.shutdown();
  }
}

async function withSetup(
  fn: (sandbox: Sandbox, github: FakeGitHub, run: typeof runFctl) => Promise<void>,
  tls?: { cert: string; key: string },
) {
  await withFakeGitHub(async (github) => {
    const sandbox = await startSandbox();
    const run = (args: string[], options: RunOptions = {}) =>
      runFctl([
        "register",
        "examples",
        ...args,
        "-p",
        "flytesnacks",
        "-d",
        "development",
        "--admin.endpoint",
        sandbox.endpoint,
      ], {
        ...options,
        env: { GITHUB_API_URL: github.url, GITHUB_TOKEN: TOKEN, ...options.env },
      });
    try {
      await fn(sandbox, github, run);
    } finally {
      await sandbox.close();
    }
  }, tls);
}

const count = (sandbox: Sandbox, method: string) => sandbox.requests.filter((r) => r.method === method).length;

Deno.test("register examples: the latest release's archives are registered with its tag as version", async () => {
  await withSetup(async (sandbox, github, run) => {
    const result = await run([]);
    equal(result.stderr, "");
    equal(result.code, 0);
    equal(count(sandbox, "CreateTask"), 39 + 2);
    equal(count(sandbox, "CreateUploadLocation"), 1);
    const versions = new Set(
      sandbox.requests.filter((r) => r.method === "CreateTask").map((r) =>
        (r.request as { id: { version: string } }).id.version
      ),
    );
    deepEqual([...versions], ["v1.2.3"]);
    // The table names each asset; checksums.txt is not an archive and is left alone.
    match(result.stdout, /\| ASSET +\| NAME +\| STATUS +\| ADDITIONAL INFO +\|/);
    match(result.stdout, /\| flytesnacks-core\.tgz +\| core\/_pb_output\/00_/);
    match(result.stdout, /\| valid-register\.tgz +\| 014_recipes/);
    assert(!result.stdout.includes("checksums"));
    // The token goes to the API and to asset downloads from its host (private releases need it), never
    // into output.
    // The second asset's download starts with the first's, on a connection of its own: they may arrive in either order.
    const [api, ...downloads] = github.seen.map((s) => [s.path, s.auth]);
    deepEqual(api, ["/repos/flyteorg/flytesnacks/releases/latest", `Bearer ${TOKEN}`]);
    deepEqual(downloads.sort(), [
      ["/download/v1.2.3/flytesnacks-core.tgz", `Bearer ${TOKEN}`],
      ["/download/v1.2.3/valid-register.tgz", `Bearer ${TOKEN}`],
    ]);
    assert(!result.stdout.includes(TOKEN) && !result.stderr.includes(TOKEN));
  });
});

Deno.test("register examples takes register files' --archive as flytectl's does: accepted, changing nothing", async () => {
  await withSetup(async (sandbox, github) => {
    const args = [
      "register",
      "examples",
      "-p",
      "flytesnacks",
      "-d",
      "development",
      "--admin.endpoint",
      sandbox.endpoint,
    ];
    const env = { GITHUB_API_URL: github.url, GITHUB_TOKEN: TOKEN };
    const plain = await runFctlProcess([...args, "--dryRun"], env);
    deepEqual([plain.code, plain.stderr], [0, ""]);
    for (const archive of ["--archive", "--archive=false", "--files.archive=false"]) {
      const run = await runFctlProcess([...args, archive, "--dryRun"], env);
      deepEqual([run.code, run.stdout, run.stderr], [0, plain.stdout, ""], archive);
    }
    // And a registration with it registers as one without.
    const registered = await runFctlProcess([...args, "--archive"], env);
    deepEqual([registered.code, registered.stderr], [0, ""]);
    equal(count(sandbox, "CreateTask"), 39 + 2);
  });
});

Deno.test("register examples: GITHUB_TOKEN is never sent to asset URLs on another host", async () => {
  // Assets elsewhere are downloaded over https only: a server of its own, trusted through the CA file.
  const tls = await createTestCertificates();
  const dir = await Deno.makeTempDir({ prefix: "fctl-examples-elsewhere-" });
  const seen: { path: string; auth: string | null }[] = [];
  const elsewhere = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {}, ...tls }, async (req) => {
    const path = new URL(req.url).pathname;
    seen.push({ path, auth: req.headers.get("authorization") });
    return new Response((await Deno.open(fixture(path.slice(path.lastIndexOf("/") + 1)))).readable);
  });
  try {
    await Deno.writeTextFile(`${dir}/ca.pem`, tls.caCert);
    await withSetup(async (sandbox, github, run) => {
      github.assetBase = `https://127.0.0.1:${elsewhere.addr.port}`;
      const result = await run(["--admin.caCertFilePath", `${dir}/ca.pem`]);
      equal(result.stderr, "");
      equal(result.code, 0);
      equal(count(sandbox, "CreateUploadLocation"), 1);
      deepEqual(github.seen.map((s) => [s.path, s.auth]), [
        ["/repos/flyteorg/flytesnacks/releases/latest", `Bearer ${TOKEN}`],
      ]);
      deepEqual(seen.sort((a, b) => a.path.localeCompare(b.path)), [
        { path: "/download/v1.2.3/flytesnacks-core.tgz", auth: null },
        { path: "/download/v1.2.3/valid-register.tgz", auth: null },
      ]);
    });
  } finally {
    await elsewhere.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("register examples over https: the GitHub API and its assets are trusted through admin.caCertFilePath; insecureSkipVerify warns once and still verifies", async () => {
  const tls = await createTestCertificates();
  const dir = await Deno.makeTempDir({ prefix: "fctl-examples-https-" });
  try {
    await Deno.writeTextFile(`${dir}/ca.pem`, tls.caCert);
    await withSetup(async (sandbox, github, run) => {
      const trusted = await run(["--admin.caCertFilePath", `${dir}/ca.pem`]);
      equal(trusted.stderr, "");
      equal(trusted.code, 0);
      equal(count(sandbox, "CreateUploadLocation"), 1);
      deepEqual(github.seen.map((s) => s.auth), [`Bearer ${TOKEN}`, `Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);

      const skipped = await run(["--admin.insecureSkipVerify"]);
      equal(skipped.code, 1);
      const lines = skipped.stderr.split("\n");
      match(lines[0], /"level":"warning","msg":"admin\.insecureSkipVerify does not apply to HTTPS downloads, /);
      equal(lines.filter((line) => line.includes("insecureSkipVerify does not apply")).length, 1);
      equal(
        lines.slice(1).join("\n"),
        `Error: cannot reach the GitHub API at "${github.url}": invalid peer certificate: UnknownIssuer ` +
          "(trust the server's CA with admin.caCertFilePath)\n",
      );
      assert(!skipped.stderr.includes(TOKEN));
    }, tls);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("register examples: a GitHub API or download answer that fails in passing (502) is asked again", async () => {
  await withSetup(async (sandbox, github, run) => {
    github.flakyOnce = true;
    const result = await run([]);
    equal(result.stderr, "");
    equal(result.code, 0);
    equal(count(sandbox, "CreateTask"), 39 + 2);
    deepEqual(github.seen.map((s) => s.path).sort(), [
      "/download/v1.2.3/flytesnacks-core.tgz",
      "/download/v1.2.3/flytesnacks-core.tgz",
      "/download/v1.2.3/valid-register.tgz",
      "/download/v1.2.3/valid-register.tgz",
      "/repos/flyteorg/flytesnacks/releases/latest",
      "/repos/flyteorg/flytesnacks/releases/latest",
    ]);
  });
});

Deno.test("register examples --version TAG resolves that release; a failing asset is named", async () => {
  await withSetup(async (sandbox, github, run) => {
    const result = await run(["--version", "v0.9"]);
    equal(result.code, 1);
    equal(github.seen[0].path, "/repos/flyteorg/flytesnacks/releases/tags/v0.9");
    equal(
      result.stderr,
      `Error: cannot register asset "missing.tgz" of release "v0.9": cannot download "${github.url}/download/v0.9/missing.tgz": HTTP 404 Not Found\n`,
    );
    equal(count(sandbox, "CreateTask"), 2, "the asset before it was registered");

    const going = await run(["--version", "v0.9", "--continueOnError", "-o", "json"]);
    equal(going.code, 1);
    const report = JSON.parse(going.stdout);
    equal(report.release, "v0.9");
    deepEqual(report.assets.map((a: { asset: string }) => a.asset), ["valid-register.tar", "missing.tgz"]);
    match(report.assets[1].error, /HTTP 404/);
    equal(
      going.stderr,
      `failed: missing.tgz: cannot download "${github.url}/download/v0.9/missing.tgz": HTTP 404 Not Found\n` +
        "Error: 1 file of release v0.9 failed to register\n",
      "the asset and why on a line of its own; 1 file, not 1 files",
    );
  });
});

Deno.test("register examples into a project the admin does not have stops at the first asset, --continueOnError too", async () => {
  await withFakeGitHub(async (github) => {
    const sandbox = await startSandbox();
    try {
      for (const more of [[], ["--continueOnError"]]) {
        sandbox.clearRequests();
        const result = await runFctl(
          ["register", "examples", ...more, "-p", "nope", "-d", "development", "--admin.endpoint", sandbox.endpoint],
          { env: { GITHUB_API_URL: github.url, GITHUB_TOKEN: TOKEN } },
        );
        const why = more.join(" ") || "no flag";
        equal(result.code, 1, `${why}: ${result.stderr}`);
        // Every asset goes to the same project: one line, naming the asset and what to do, nothing per file.
        equal(
          result.stderr,
          'Error: cannot register asset "flytesnacks-core.tgz" of release "v1.2.3": project "nope" does not exist on the ' +
            "admin: " +
            "none of the 84 files was registered; create it with: fctl create project --id nope --name nope\n",
          `${why}: ${JSON.stringify(result.stderr)}`,
        );
        // Only the first asset's first creates went out (those in flight when the refusal came); none of the next's.
        assert(count(sandbox, "CreateTask") <= 39, `${why}: ${count(sandbox, "CreateTask")} CreateTask`);
        equal(count(sandbox, "CreateUploadLocation"), 1, why);
      }
      equal(sandbox.store.tasks().length + sandbox.store.workflows().length + sandbox.store.launchPlans().length, 0);
    } finally {
      await sandbox.close();
    }
  });
});

Deno.test("register examples: unknown tag, rate limit (with reset time) and refused token are one clear error", async () => {
  await withSetup(async (sandbox, github, run) => {
    const missing = await run(["--version", "nope"]);
    equal(missing.code, 1);
    equal(missing.stderr, 'Error: release "nope" of flyteorg/flytesnacks not found (HTTP 404)\n');

    github.failWith = {
      status: 403,
      headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": "1767225600" },
      body: JSON.stringify({ message: "API rate limit exceeded" }),
    };
    const limited = await run([], { env: { GITHUB_TOKEN: "" } });
    equal(limited.code, 1);
    equal(
      limited.stderr,
      "Error: GitHub API rate limit exceeded (HTTP 403) fetching the latest release of flyteorg/flytesnacks; " +
        "it resets at 2026-01-01T00:00:00.000Z; set GITHUB_TOKEN for a higher limit\n",
    );
    equal(github.seen.at(-1)?.auth, null, "no token, no Authorization header");

    github.failWith = { status: 401, body: JSON.stringify({ message: "Bad credentials" }) };
    const refused = await run([]);
    equal(refused.stderr, "Error: the GitHub API refused GITHUB_TOKEN (HTTP 401): Bad credentials\n");
    assert(!refused.stderr.includes(TOKEN));
    // A server that echoes the token gets it redacted.
    github.failWith = { status: 401, body: JSON.stringify({ message: `Bad credentials ${TOKEN}` }) };
    const echoed = await run([]);
    equal(echoed.stderr, "Error: the GitHub API refused GITHUB_TOKEN (HTTP 401): Bad credentials [redacted]\n");
    // Echoed where the message is cut: no part of it is shown (it was cut inside the token, leaving its start).
    github.failWith = { status: 401, body: JSON.stringify({ message: `${"x".repeat(185)} ${TOKEN} and more` }) };
    const cut = await run([]);
    match(cut.stderr, /^Error: the GitHub API refused GITHUB_TOKEN \(HTTP 401\): x{185}… \(\d+ more characters\)\n$/);
    assert(!cut.stderr.includes(TOKEN.slice(0, 6)), cut.stderr);
    equal(sandbox.requests.length, 0);
  });
});

Deno.test("register examples: a release listing more than the 1,000 assets GitHub allows is one clear error, nothing downloaded or registered", async () => {
  await withSetup(async (sandbox, github) => {
    const many = await runFctlProcess(
      [
        "register",
        "examples",
        "--version",
        "v-many",
        "--continueOnError",
        "-p",
        "flytesnacks",
        "-d",
        "development",
        "--admin.endpoint",
        sandbox.endpoint,
      ],
      { GITHUB_API_URL: github.url },
    );
    equal(many.code, 1);
    equal(
      many.stderr,
      'Error: the GitHub API answered release "v-many" of flyteorg/flytesnacks with 1001 assets: ' +
        "more than the 1000 GitHub allows a release\n",
    );
    deepEqual(github.seen.map((s) => s.path), ["/repos/flyteorg/flytesnacks/releases/tags/v-many"]);
    equal(sandbox.requests.length, 0);
  });
});

Deno.test("register examples: a bad --concurrency is refused before GitHub or the admin is asked (exit 2)", async () => {
  await withSetup(async (sandbox, github, run) => {
    for (const bad of ["0", "x"]) {
      const result = await run(["--concurrency", bad]);
      equal(result.code, 2, bad);
      equal(
        result.stderr,
        `Error: invalid value ${JSON.stringify(bad)} for --concurrency: expected a whole number of at least 1\n`,
      );
    }
    deepEqual(github.seen, []);
    deepEqual(sandbox.requests, []);
  });
});

Deno.test("register examples: the admin going away mid-release: the report on stdout, then one error line", async () => {
  await withSetup(async (sandbox, _github, run) => {
    // The first asset's tasks are created, then every workflow create is refused, as when the admin dies.
    sandbox.failRatio("CreateWorkflow", Code.Unavailable, 1);
    const table = await run(["--concurrency", "1"]);
    equal(table.code, 1);
    match(table.stdout, /\| flytesnacks-core\.tgz +\| \S+ +\| Success /);
    match(table.stdout, /\| flytesnacks-core\.tgz +\| \S+ +\| Failed /);
    equal(table.stderr.trim().split("\n").length, 1, table.stderr);
    match(table.stderr, /^Error: .*flytesnacks-core\.tgz.*Unavailable/);

    const json = await run(["--concurrency", "1", "-o", "json"]);
    equal(json.code, 1);
    const report = JSON.parse(json.stdout);
    match(report.error, /Unavailable/);
    equal(report.assets[0].report.failed, 1);
    equal(json.stderr.trim().split("\n").length, 1, json.stderr);
  });
});

Deno.test("register examples on a terminal: the resolved release, then download progress, on stderr only", async () => {
  await withSetup(async (_sandbox, _github, run) => {
    const tty = await run([], { stderrIsTerminal: true });
    equal(tty.code, 0, tty.stderr);
    assert(tty.stderr.startsWith("Registering flytesnacks release v1.2.3 (2 archives)\n"), tty.stderr);
    // Each redraw returns to the start of the line and clears it.
    for (const asset of ["flytesnacks-core.tgz", "valid-register.tgz"]) {
      assert(tty.stderr.includes(`\r\x1b[KDownloading ${asset}: `), asset);
    }
    // Sizes in the unit that fits (this archive is 51 KB), never "0.0 MB"; no total when the server sent no length.
    match(tty.stderr, /Downloading flytesnacks-core\.tgz: \d+\.\d KB/);
    match(tty.stderr, /Downloading valid-register\.tgz: 892 B/);
    assert(!tty.stderr.includes("0.0 MB"), tty.stderr);
    assert(
      !tty.stdout.includes("Downloading") && !tty.stdout.includes("Registering flytesnacks"),
      "stdout: the report",
    );
    const logged = await run(["--logger.level", "4", "--logger.formatter.type", "text"]);
    equal(logged.code, 0, logged.stderr);
    assert(!logged.stderr.includes("Downloading"), "no progress in a pipe");
    match(logged.stderr, /resolved the flytesnacks release.*v1\.2\.3/);
  });
});
