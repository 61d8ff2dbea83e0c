/**
 * `fctl version`: fctl's own version always (from deno.json), the admin's through GetVersion when an
 * endpoint is set, the client's still printed before the one error line when the admin cannot be reached.
 */
import { deepEqual, equal, match, ok as assert } from "node:assert/strict";
import denoJson from "../deno.json" with { type: "json" };
import { startSandbox } from "../src/sandbox/mod.ts";
import { USER_AGENT_PRODUCT } from "../src/admin/user_agent.ts";
import { freePort } from "../src/auth/_test_helpers.ts";
import { runFctl } from "./helpers.ts";

Deno.test("without an endpoint: fctl's version only, in flytectl's shape, from deno.json", async () => {
  const json = await runFctl(["version", "-o", "json"]);
  equal(json.code, 0, json.stderr);
  deepEqual(JSON.parse(json.stdout), [{ App: "fctl", Version: denoJson.version }]);
  const table = await runFctl(["version"]);
  equal(table.code, 0);
  match(table.stdout, new RegExp(`\\| fctl +\\| ${denoJson.version.replaceAll(".", "\\.")} +\\|`));
  assert(table.stdout.endsWith("1 row\n"), table.stdout);
  equal(table.stderr, "");
  const yaml = await runFctl(["version", "-o", "yaml"]);
  equal(yaml.stdout, `- App: fctl\n  Version: ${denoJson.version}\n`);
});

Deno.test("with an endpoint: the admin's GetVersion as controlPlane, over a call naming fctl in its user agent", async () => {
  const sandbox = await startSandbox();
  try {
    const { code, stdout, stderr } = await runFctl(["version", "-o", "json", "--admin.endpoint", sandbox.endpoint]);
    equal(code, 0, stderr);
    deepEqual(JSON.parse(stdout), [
      { App: "fctl", Version: denoJson.version },
      { App: "controlPlane", Version: "sandbox", Build: "fctl-sandbox" },
    ]);
    equal(sandbox.requests.length, 1);
    equal(sandbox.requests[0].method, "GetVersion");
    const agent = sandbox.requests[0].userAgent ?? "";
    assert(agent.startsWith(`${USER_AGENT_PRODUCT} `), agent);
    equal(USER_AGENT_PRODUCT, `fctl/${denoJson.version}`);
    match(agent, /^fctl\/\S+ connect-es\/\S+$/, "Connect's own token is kept after fctl's");
  } finally {
    await sandbox.close();
  }
});

Deno.test("an unreachable admin: fctl's version still printed, then one error line, exit 1", async () => {
  const port = freePort();
  const { code, stdout, stderr } = await runFctl([
    "version",
    "-o",
    "json",
    "--admin.endpoint",
    `localhost:${port}`,
    "--admin.insecure",
    "--admin.maxRetries",
    "1",
  ]);
  equal(code, 1);
  deepEqual(JSON.parse(stdout), [{ App: "fctl", Version: denoJson.version }]);
  equal(stderr.split("\n").length, 2, stderr);
  match(stderr, /^Error: .*GetVersion/);
});

Deno.test("fctl --version prints the same version as fctl version", async () => {
  const { stdout } = await runFctl(["--version"]);
  equal(stdout, `${denoJson.version}\n`);
});
