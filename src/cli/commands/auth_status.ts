/**
 * `fctl auth status [-o json|yaml]`: the endpoint, the flow, the cached token and its expiry, and who the admin
 * says you are (`IdentityService.UserInfo`) when a token works. It never starts an interactive sign-in.
 *
 * @module
 */
import type { AuthStatus } from "../../auth/status.ts";
import { checkFormat } from "../../output/check_format.ts";
import { leafCommand } from "../command.ts";

/** What `auth status` takes: the `-o` format (a table, JSON or YAML). */
export interface AuthStatusOptions {
  format: string;
}

/** `auth status`. */
export const AUTH_STATUS_COMMAND = leafCommand({
  name: "status",
  description: "the configured endpoint and flow, the cached token's expiry, and your identity on the admin",
  arguments: [],
  flags: [],
  globals: ["config", "output", "admin.endpoint", "admin.authType"],
  examples: [
    "fctl auth status",
    "fctl auth status -o json",
    "fctl auth status -o yaml -c ~/.flyte/prod.yaml",
  ],
  options({ globals: { config } }): AuthStatusOptions {
    checkFormat(config.output, false);
    return { format: config.output };
  },
  async run(ctx, { format }) {
    const [{ authStatus }, { render }] = await Promise.all([
      import("../../auth/status.ts"),
      import("../../output/render.ts"),
    ]);
    const { client, auth } = await ctx.adminWithAuth();
    const status = await authStatus({
      endpoint: auth.endpoint,
      settings: auth.settings,
      store: auth.store,
      transport: client.transport,
      now: () => ctx.clock.now().getTime(),
      signal: ctx.signal,
    });
    // authStatus reports a failed UserInfo as the identity's absence; one that Ctrl-C cancelled is the run's end.
    ctx.signal.throwIfAborted();
    await render(ctx.io, format, {
      columns: [
        { header: "ENDPOINT", cell: (row: AuthStatus) => row.endpoint },
        { header: "FLOW", cell: (row: AuthStatus) => row.flow },
        { header: "CLIENT", cell: (row: AuthStatus) => row.clientId ?? "none (admin.command gives the token)" },
        { header: "CACHED TOKEN", cell: (row: AuthStatus) => cachedText(row) },
        { header: "IDENTITY", cell: (row: AuthStatus) => row.identity ?? `none (${row.identityError})` },
      ],
      toJson: (row) => ({ ...row }),
      value: { one: status },
    });
  },
});

function cachedText(status: AuthStatus): string {
  if (!status.cached) return "none";
  if (status.expiresAt === undefined) return "yes, no expiry given";
  return `${status.expired ? "expired" : "expires"} ${status.expiresAt}`;
}
