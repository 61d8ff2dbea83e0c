/**
 * `fctl auth logout`: forgets every cached token of the configured endpoint (any flow, any client).
 *
 * @module
 */
import { leafCommand } from "../command.ts";
import { printLine } from "../../output/print.ts";

/** What `auth logout` takes: the configured admin endpoint, whose tokens it forgets. */
export interface AuthLogoutOptions {
  endpoint: string;
}

/** `auth logout`. */
export const AUTH_LOGOUT_COMMAND = leafCommand({
  name: "logout",
  description: "forget the cached tokens of the configured admin endpoint (every flow and client)",
  arguments: [],
  flags: [],
  globals: ["config", "admin.endpoint"],
  examples: [
    "fctl auth logout",
    "fctl auth logout -c ~/.flyte/prod.yaml",
  ],
  options: ({ globals: { config } }): AuthLogoutOptions => ({ endpoint: config["admin.endpoint"] }),
  async run(ctx, options) {
    const [{ parseEndpoint }, { endpointKey, removeTokens }] = await Promise.all([
      import("../../admin/endpoint.ts"),
      import("../../auth/token_file.ts"),
    ]);
    const parsed = parseEndpoint(options.endpoint);
    const endpoint = endpointKey(parsed);
    const home = ctx.env["HOME"] || undefined;
    // Tokens are kept apart by how the admin was reached (TLS, or plaintext): both go.
    const removed = home === undefined ? [] : [
      ...await removeTokens(home, endpoint),
      ...(await removeTokens(home, endpointKey(parsed, true))).map((flow) => `${flow} (plaintext)`),
    ];
    printLine(
      ctx.io,
      removed.length === 0
        ? `no cached tokens for ${endpoint}`
        : `removed the cached tokens for ${endpoint}: ${removed.join(", ")}`,
    );
  },
});
