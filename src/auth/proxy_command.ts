/**
 * `admin.proxyCommand` (an identity-aware proxy in front of the admin, e.g. GCP IAP): the command runs once
 * per process, as an argument vector without a shell, and its trimmed output goes with every admin call as
 * `proxy-authorization: Bearer <token>`. Concurrent calls share the one run; a failure fails every call with
 * the same error. The run is bounded like ExternalCommand's (`admin.commandTimeout`, Ctrl-C).
 *
 * @module
 */
import type { Interceptor } from "@connectrpc/connect";
import { UsageError } from "../errors.ts";
import { type CommandRunner, runTokenCommand, type TokenCommandLimits } from "./external_command.ts";

/** What the proxy interceptor uses. */
export interface ProxyCommandOptions {
  /** `admin.proxyCommand`: program and arguments. */
  command: readonly string[];
  runCommand: CommandRunner;
  /** `admin.commandTimeout`, and the run's abort signal: either ends the program. */
  limits: TokenCommandLimits;
  /** The token is registered here before any call carries it. */
  secrets: { add(secret: string | undefined): void };
}

/** The header an identity-aware proxy reads. */
export const PROXY_AUTHORIZATION = "proxy-authorization";

/** The interceptor adding the proxy token to every call (streams too: the proxy sees every request). */
export function proxyCommandInterceptor(options: ProxyCommandOptions): Interceptor {
  const { command } = options;
  if (command.length === 0 || !command[0]) {
    throw new UsageError("admin.proxyCommand is empty: give the program that prints the proxy's token");
  }
  let token: Promise<string> | undefined;
  const proxyToken = () =>
    token ??= runTokenCommand("admin.proxyCommand", command, options.runCommand, options.limits).then((value) => {
      options.secrets.add(value);
      return value;
    });
  return (next) => async (req) => {
    const value = await proxyToken();
    req.header.set(PROXY_AUTHORIZATION, `Bearer ${value}`);
    return await next(req);
  };
}
