/**
 * The production shape of the cold-process benchmarks: an admin as production Flyte runs it (TLS from its own
 * CA, OAuth 2 enforced), and the environment of a user of it, whose `~/.flyte/config.yaml` finds it.
 *
 * @module
 */
import { SANDBOX_CLIENT } from "../src/sandbox/mod.ts";
import type { AdminOptions, Bench } from "./bench_process.ts";

/**
 * Starts a production admin (TLS from its own CA, OAuth 2 enforced) and returns the environment of a user of
 * it, for `Run.env` (see scripts/bench_process.ts): a `HOME` whose `~/.flyte/config.yaml` finds the admin (TLS trusted through its CA
 * file, the ClientSecret flow with the secret in a variable) as a production user's does. The token cache
 * under that `HOME` is filled by the first run, the unmeasured one, as by a user's earlier command.
 */
export async function productionUser(
  bench: Bench,
  options: Omit<AdminOptions, "production">,
): Promise<Record<string, string>> {
  const admin = await bench.startAdmin({ ...options, production: true });
  const home = await Deno.makeTempDir({ dir: bench.tempDir, prefix: "production-home-" });
  await Deno.mkdir(`${home}/.flyte`, { recursive: true });
  const secretVariable = "FCTL_BENCH_CLIENT_SECRET";
  await Deno.writeTextFile(
    `${home}/.flyte/config.yaml`,
    [
      "admin:",
      `  endpoint: dns:///${new URL(admin.endpoint).host}`,
      "  insecure: false",
      `  caCertFilePath: ${admin.caFile}`,
      "  authType: ClientSecret",
      `  clientId: ${SANDBOX_CLIENT.id}`,
      `  clientSecretEnvVar: ${secretVariable}`,
      "logger:",
      "  level: 0",
      "",
    ].join("\n"),
  );
  return { HOME: home, [secretVariable]: SANDBOX_CLIENT.secret };
}
