/**
 * Where credentials must not go, as a fresh fctl process under the declared permissions meets it against a
 * production-shaped admin (the sandbox's production profile: TLS from a test CA, OAuth enforced): a plain-HTTP
 * token endpoint the admin advertises (a recording server on loopback) never receives the client secret, a
 * token cache others could read is made private, a linked cache directory is not followed (its target keeps its
 * mode), and at debug level no log line holds a URL's query or any byte of a file.
 */
import { equal, match, ok as assert } from "node:assert/strict";
import http2 from "node:http2";
import { type PlainHttpServer, withPlainHttpServer } from "../src/auth/_test_plain_http_server.ts";
import { type ProductionProfile, type Sandbox, SANDBOX_CLIENT } from "../src/sandbox/mod.ts";
import { productionAdmin } from "./entity_fixtures.ts";
import { runFctlProcess, type RunResult, SUBPROCESS_HOME } from "./helpers.ts";

/** Deno's own cache, where the other subprocess runs keep it, whatever HOME a run has. */
const DENO_DIR = `${SUBPROCESS_HOME}/.cache/deno`;

interface Production {
  sandbox: Sandbox;
  dir: string;
  /** `get task core.sub.process` with the endpoint, the test CA and the client secret from `FLYTE_SECRET`. */
  get: string[];
  /** Runs fctl with `HOME` (default: one that does not exist, so no token cache) and the secret in its variable. */
  run(args: string[], home?: string): Promise<RunResult>;
  /** A `HOME` where one run of `get` has cached a token: its token directory and the cache file's name there. */
  signedIn(): Promise<{ home: string; tokens: string; name: string }>;
}

async function withProduction(profile: ProductionProfile, fn: (p: Production) => Promise<void>): Promise<void> {
  await using admin = await productionAdmin({ production: profile }, "fctl-auth-hardening-");
  const { sandbox, dir } = admin;
  const get = [...admin.get, "--admin.clientSecretEnvVar", "FLYTE_SECRET"];
  const run = (args: string[], home = `${dir}/no-home`) =>
    runFctlProcess(args, { HOME: home, DENO_DIR, FLYTE_SECRET: SANDBOX_CLIENT.secret });
  const signedIn = async () => {
    const home = `${dir}/home`;
    await Deno.mkdir(home);
    const first = await run(get, home);
    equal(first.code, 0, first.stderr);
    const tokens = `${home}/.flyte/fctl/tokens`;
    const [name] = [...Deno.readDirSync(tokens)].map((e) => e.name);
    return { home, tokens, name };
  };
  await fn({ sandbox, dir, get, run, signedIn });
}

/** The client secrets an HTTP Basic header carries. */
const basicSecret = (header: string) => decodeURIComponent(atob(header.replace(/^Basic /, "")).split(":")[1] ?? "");

Deno.test("fctl against a TLS admin that advertises an http:// token endpoint: one line refuses it, the secret never gets there", async () => {
  await withPlainHttpServer(async (server: PlainHttpServer) => {
    await withProduction({ advertisedIssuer: server.url }, async ({ get, run }) => {
      const refusal = `Error: refusing to send credentials to the token endpoint ${server.url}/oauth2/token ` +
        "(advertised by the admin service) over plain HTTP while the admin is reached over TLS; " +
        "set admin.allowInsecureTokenEndpoint to allow it\n";
      for (const flow of ["ClientSecret", "DeviceFlow"]) {
        const result = await run([...get, "--admin.authType", flow]);
        equal(result.stderr, refusal, flow);
        equal(result.stdout, "");
        equal(result.code, 1);
      }
      equal(server.requests.length, 0, "nothing reached the plain-HTTP server");

      // Asked for explicitly, the secret goes there: what would have happened before, unasked.
      const allowed = await run([...get, "--admin.allowInsecureTokenEndpoint"]);
      equal(allowed.code, 1);
      match(
        allowed.stderr,
        /^Error: token request to http:\/\/127\.0\.0\.1:\d+\/oauth2\/token for client .*invalid_client/,
      );
      assert(!allowed.stderr.includes(SANDBOX_CLIENT.secret));
      // Refused by HTTP Basic, then asked with the secret in the form (client_secret_post), as flytectl's library does.
      equal(server.requests.length, 2);
      equal(basicSecret(server.requests[0].authorization), SANDBOX_CLIENT.secret);
      equal(server.requests[1].authorization, "");
    });
  });
});

Deno.test("fctl at debug level: an https admin.tokenUrl's query and a token cache linked to another file are in no log line", async () => {
  await withProduction({}, async ({ sandbox, dir, get, run }) => {
    const home = `${dir}/home`;
    const tokens = `${home}/.flyte/fctl/tokens`;
    await Deno.mkdir(tokens, { recursive: true, mode: 0o700 });
    await Deno.writeTextFile(`${dir}/passwd`, "root:x:0:0:root:/root:/bin/sh\n");
    const endpoint = encodeURIComponent(new URL(sandbox.endpoint).host);
    const cacheFile = `${tokens}/${endpoint},ClientSecret,flytepropeller.json`;
    await Deno.symlink(`${dir}/passwd`, cacheFile);
    const tokenUrl = `${sandbox.auth!.tokenEndpoint}?secret=query-secret-5678`;
    const result = await run([...get, "--admin.tokenUrl", tokenUrl, "--logger.level", "5"], home);
    equal(result.code, 0, result.stderr);
    equal(JSON.parse(result.stdout).id.version, "v7");
    assert(!result.stderr.includes("query-secret-5678"), result.stderr);
    assert(!result.stderr.includes("root:x"), result.stderr);
    const records = result.stderr.trimEnd().split("\n").map((line) => JSON.parse(line));
    assert(
      records.some((r) =>
        r.level === "warning" && r.msg ===
          `the token cache is not safe to use (${cacheFile} is a symbolic link): tokens are kept in memory for this run`
      ),
      result.stderr,
    );
    equal(Deno.lstatSync(cacheFile).isSymlink, true, "the link is left alone");
    equal(sandbox.auth!.tokenRequests.length, 1);
  });
});

Deno.test("fctl with a token cache file open to other users makes it private; a linked tokens directory's target keeps its mode", async () => {
  await withProduction({}, async ({ sandbox, dir, get, run, signedIn }) => {
    const { home, tokens, name } = await signedIn();
    await Deno.chmod(`${tokens}/${name}`, 0o644);
    const second = await run(get, home);
    equal(second.code, 0, second.stderr);
    equal(JSON.parse(second.stdout).id.version, "v7");
    equal(
      JSON.parse(second.stderr).msg,
      `the token cache file ${tokens}/${name} was open to other users (mode 0644): it is now private (0600)`,
    );
    equal(Deno.statSync(`${tokens}/${name}`).mode! & 0o777, 0o600);
    equal(sandbox.auth!.tokenRequests.length, 1, "the cached token was used");

    const linkedHome = `${dir}/linked-home`;
    const elsewhere = `${dir}/elsewhere`;
    await Deno.mkdir(`${linkedHome}/.flyte/fctl`, { recursive: true });
    await Deno.mkdir(elsewhere);
    await Deno.chmod(elsewhere, 0o755);
    await Deno.symlink(elsewhere, `${linkedHome}/.flyte/fctl/tokens`);
    const linked = await run(get, linkedHome);
    equal(linked.code, 0, linked.stderr);
    equal(
      JSON.parse(linked.stderr).msg,
      `the token cache is not safe to use (${linkedHome}/.flyte/fctl/tokens is a symbolic link): tokens are kept in memory for this run`,
    );
    equal(Deno.statSync(elsewhere).mode! & 0o777, 0o755, "the target's mode is unchanged");
    equal([...Deno.readDirSync(elsewhere)].length, 0, "nothing written there");
  });
});

Deno.test("fctl never sends a token cached from a TLS admin over plaintext: with --admin.insecure at the same host and port, no cached token goes", async () => {
  await withProduction({}, async ({ sandbox, get, run, signedIn }) => {
    const { home, tokens, name } = await signedIn();
    const cached: string = JSON.parse(Deno.readTextFileSync(`${tokens}/${name}`)).accessToken;

    // Whatever listens in plaintext where the admin was (a mistaken --admin.insecure, a server on the path) sees
    // every header fctl sends.
    const { port } = sandbox;
    await sandbox.close();
    const headers: string[] = [];
    const server = http2.createServer((request, response) => {
      headers.push(...Object.values(request.headers).map(String));
      request.resume();
      response.writeHead(200, { "content-type": "application/grpc" });
      response.addTrailers({ "grpc-status": "16", "grpc-message": "no token" });
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    try {
      const plain = await run([...get, "--admin.insecure", "--admin.maxRetries", "1"], home);
      equal(plain.code, 1);
      assert(headers.length > 0, "the plaintext server was reached");
      assert(!headers.some((value) => value.includes(cached)), "the cached token went over plaintext");

      // A plaintext admin's tokens are kept apart from the TLS admin's; logout forgets both.
      const plaintextName = name.replace(/^[^,]+/, encodeURIComponent(`http://127.0.0.1:${port}`));
      Deno.copyFileSync(`${tokens}/${name}`, `${tokens}/${plaintextName}`);
      const logout = await run(["auth", "logout", "--admin.endpoint", `dns:///127.0.0.1:${port}`], home);
      equal(logout.code, 0, logout.stderr);
      equal(
        logout.stdout,
        `removed the cached tokens for 127.0.0.1:${port}: ClientSecret/flytepropeller, ` +
          "ClientSecret/flytepropeller (plaintext)\n",
      );
      equal([...Deno.readDirSync(tokens)].length, 0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
