import { equal } from "node:assert/strict";
import { loadConfig } from "../config/load.ts";
import { adminUsesTls } from "./tls_ahead.ts";

/** The configuration of these flags alone: no file, no environment. */
function configOf(flags: Record<string, unknown>) {
  return loadConfig({ flags, env: {}, readTextFile: () => Promise.reject(new Deno.errors.NotFound("no file")) });
}

Deno.test("adminUsesTls: TLS unless admin.insecure or the endpoint's scheme says plaintext", async () => {
  const cases: [Record<string, unknown>, boolean][] = [
    [{ "admin.endpoint": "dns:///flyte.example.com" }, true],
    [{ "admin.endpoint": "flyte.example.com:443" }, true],
    [{ "admin.endpoint": "https://flyte.example.com" }, true],
    [{ "admin.endpoint": "http://localhost:30080" }, false],
    [{ "admin.endpoint": "dns:///localhost:30080", "admin.insecure": true }, false],
    // admin.insecure wins over the scheme, both ways.
    [{ "admin.endpoint": "http://localhost:30080", "admin.insecure": false }, true],
    [{ "admin.endpoint": "https://flyte.example.com", "admin.insecure": true }, false],
  ];
  for (const [flags, tls] of cases) equal(adminUsesTls(await configOf(flags)), tls, JSON.stringify(flags));
});

Deno.test("adminUsesTls: an endpoint that does not parse asks for nothing ahead (making the client reports it)", async () => {
  equal(adminUsesTls(await configOf({ "admin.endpoint": "dns:///host:notaport" })), false);
});
