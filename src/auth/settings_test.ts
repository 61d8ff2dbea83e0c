/** The auth settings of a configuration: the flow's own refresh time and waits, and plain-HTTP token endpoints. */
import { equal } from "node:assert/strict";
import { loadConfig } from "../config/load.ts";
import { authSettings } from "./settings.ts";

async function settingsOf(flags: Record<string, unknown>, admin = { insecure: false }) {
  const loaded = await loadConfig({
    flags,
    env: { HOME: "/nonexistent-fctl-test-home" },
    readTextFile: Deno.readTextFile,
  });
  return authSettings(loaded.config, admin);
}

Deno.test("auth settings: Pkce and DeviceFlow refresh their refreshTime before expiry, unless admin.tokenRefreshWindow is longer", async () => {
  equal((await settingsOf({})).refreshWindowMs, 0, "ClientSecret: admin.tokenRefreshWindow");
  equal((await settingsOf({ "admin.authType": "Pkce" })).refreshWindowMs, 300_000);
  equal(
    (await settingsOf({ "admin.authType": "Pkce", "admin.pkceConfig.refreshTime": "30s" })).refreshWindowMs,
    30_000,
  );
  equal(
    (await settingsOf({ "admin.authType": "DeviceFlow", "admin.tokenRefreshWindow": "10m" })).refreshWindowMs,
    600_000,
  );
  const device = await settingsOf({
    "admin.authType": "DeviceFlow",
    "admin.deviceFlowConfig.pollInterval": "2s",
    "admin.deviceFlowConfig.timeout": "1m",
  });
  equal(device.devicePollIntervalMs, 2_000);
  equal(device.deviceTimeoutMs, 60_000);
  equal((await settingsOf({ "admin.pkceConfig.timeout": "45s" })).pkceTimeoutMs, 45_000);
});

Deno.test("auth settings: a plain-HTTP token endpoint is allowed by a plaintext admin or admin.allowInsecureTokenEndpoint", async () => {
  const tls = await settingsOf({});
  equal(tls.adminInsecure, false);
  equal(tls.allowInsecureTokenEndpoint, false, "refused by default");
  equal((await settingsOf({}, { insecure: true })).adminInsecure, true);
  equal((await settingsOf({ "admin.allowInsecureTokenEndpoint": true })).allowInsecureTokenEndpoint, true);
});
