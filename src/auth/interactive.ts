/**
 * The interactive flows (Pkce, DeviceFlow) as the interceptor selects them: what they need of the run (the
 * user at stderr, the abort signal, the command runner for a browser) and the flow itself, loaded on first need.
 *
 * @module
 */
import { NotSupportedError, UsageError } from "../errors.ts";
import { OAUTH_ANSWER_MAX_BYTES, withMaxBodyBytes } from "../http/bounded_body.ts";
import type { HttpClient } from "../http/http_client.ts";
import type { Logger } from "../log/logger.ts";
import type { TextSink } from "../output/io.ts";
import { signInTimeoutProblem } from "./config_checks.ts";
import type { Platform } from "./browser.ts";
import type { Discovery } from "./discovery.ts";
import type { CommandRunner } from "./external_command.ts";
import type { AuthSettings } from "./settings.ts";
import type { TokenSource } from "./tokens.ts";
import type { Sleep } from "./wait.ts";

/** How the interactive flows (Pkce, DeviceFlow) reach the user. */
export interface InteractiveIo {
  /** Where the sign-in URL or device code is printed (stderr, redacted). */
  prompt: TextSink;
  /** Whether stderr is a terminal: only then does Pkce open a browser. */
  terminal: boolean;
  /** The run's abort signal: Ctrl-C ends a wait for the user. */
  signal: AbortSignal;
  /** Waits; default real timers. */
  sleep?: Sleep;
  /** Which browser opener exists; default this process's platform. */
  platform?: Platform;
}

/** What selecting an interactive flow uses (the interceptor's options, discovery and clock). */
export interface InteractiveSourceDeps {
  settings: AuthSettings;
  discovery: Discovery;
  http: () => Promise<HttpClient>;
  env: Readonly<Record<string, string | undefined>>;
  runCommand: CommandRunner;
  secrets: { add(secret: string | undefined): void };
  logger: Logger;
  now: () => number;
  /** The user; without one these flows cannot run. */
  interactive?: InteractiveIo;
}

/** The Pkce or DeviceFlow token source of `settings.authType`. */
export async function interactiveSource(deps: InteractiveSourceDeps): Promise<TokenSource> {
  const { settings, interactive: io } = deps;
  const timeout = signInTimeoutProblem(settings);
  if (timeout) throw new UsageError(timeout);
  if (!io) {
    throw new NotSupportedError(`admin.authType ${settings.authType} needs a user to sign in, and this run has none`);
  }
  const [{ realSleep }, http] = await Promise.all([import("./wait.ts"), deps.http()]);
  const common = {
    settings,
    discovery: deps.discovery,
    fetch: withMaxBodyBytes(http.fetch, OAUTH_ANSWER_MAX_BYTES),
    secrets: deps.secrets,
    now: deps.now,
    prompt: io.prompt,
    signal: io.signal,
    sleep: io.sleep ?? realSleep,
  };
  if (settings.authType === "DeviceFlow") {
    const { deviceFlowSource } = await import("./device_flow.ts");
    return deviceFlowSource(common);
  }
  const [{ pkceSource }, { processPlatform }] = await Promise.all([import("./pkce.ts"), import("./browser.ts")]);
  return pkceSource({
    ...common,
    terminal: io.terminal,
    runCommand: deps.runCommand,
    platform: io.platform ?? processPlatform(deps.env),
    logger: deps.logger,
  });
}
