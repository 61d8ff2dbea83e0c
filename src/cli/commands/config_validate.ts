/**
 * `fctl config validate [--strict]`: checks what the loader cannot see (values only wrong together or
 * against the outside world), one line per problem, exit 2 if any; lists the loader's warnings (unknown keys,
 * deprecated options) at any log level, which `--strict` makes problems.
 *
 * @module
 */
import type { LoadedConfig } from "../../config/load.ts";
import type { Config } from "../../config/schema.ts";
import { FctlError, isNotFound, quote, UsageError } from "../../errors.ts";
import type { Io } from "../../output/io.ts";
import { leafCommand } from "../command.ts";

/** Problems the loader cannot see: values that are only wrong together or against the outside world. */
async function problems(loaded: LoadedConfig, io: Io): Promise<string[]> {
  const config = loaded.config;
  const found: string[] = [];
  const check = async (fn: () => unknown) => {
    try {
      await fn();
    } catch (err) {
      if (!(err instanceof FctlError)) throw err;
      found.push(err.message);
    }
  };
  const [{ parseEndpoint }, { proxyFor }, { readCaFile }] = await Promise.all([
    import("../../admin/endpoint.ts"),
    import("../../http/proxy_env.ts"),
    import("../read_ca.ts"),
  ]);
  await check(() => {
    const endpoint = parseEndpoint(config["admin.endpoint"]);
    proxyFor(endpoint.host, endpoint.port, io.env);
  });
  const ca = config["admin.caCertFilePath"];
  if (ca) {
    // The same check as every command's: the file reads, and every certificate in it parses.
    await check(() => readCaFile(io, ca));
  }
  const httpProxy = config["admin.httpProxyURL"];
  if (httpProxy && !URL.canParse(httpProxy)) {
    found.push(`invalid admin.httpProxyURL ${quote(httpProxy)}: expected a URL such as http://proxy:3128`);
  }
  if (config["admin.authType"] === "ExternalCommand" && config["admin.command"].length === 0) {
    found.push("admin.authType ExternalCommand needs admin.command (the program that prints a token)");
  }
  if (config["admin.insecure"] && config["admin.insecureSkipVerify"]) {
    found.push("admin.insecure and admin.insecureSkipVerify are both set: skip-verify only applies to TLS");
  }
  // ClientSecret is the default flow, used only when the admin asks: its secret is checked when it was chosen.
  if (loaded.sources["admin.authType"] !== "default") found.push(...await authProblems(config, io));
  found.push(...await storageChecks(loaded));
  for (const key of ["admin.tokenUrl", "admin.authorizationServerUrl"] as const) {
    const url = config[key];
    if (url && !/^https?:$/.test(URL.parse(url)?.protocol ?? "")) {
      found.push(`invalid ${key} ${quote(url)}: expected an https:// (or http://) URL`);
    }
  }
  return found;
}

/** The storage settings: the checks a registration makes before it writes to storage (src/storage/validate.ts). */
async function storageChecks(loaded: LoadedConfig): Promise<string[]> {
  const [{ storageProblems }, { storageConfigFrom }] = await Promise.all([
    import("../../storage/validate.ts"),
    import("../../storage/from_config.ts"),
  ]);
  return storageProblems(storageConfigFrom(loaded.config), adminPlace(loaded.config));
}

/** What the rule of `storage.allow-local-fallback` depends on. */
function adminPlace(config: Config) {
  return { endpoint: config["admin.endpoint"], allowLocalFallback: config["storage.allow-local-fallback"] };
}

/** Whether storage was configured at all (its type, container, endpoint or stow kind set): then it is described. */
function storageConfigured(loaded: LoadedConfig): boolean {
  const keys = ["storage.type", "storage.container", "storage.connection.endpoint", "storage.stow.kind"] as const;
  return keys.some((key) => loaded.sources[key] !== "default");
}

/** The chosen flow's settings: its secret is readable, its time limits are not zero. */
async function authProblems(config: Config, io: Io): Promise<string[]> {
  const found: string[] = [];
  switch (config["admin.authType"]) {
    case "ClientSecret": {
      const variable = config["admin.clientSecretEnvVar"];
      const file = config["admin.clientSecretLocation"];
      if (variable) {
        if (!io.env[variable]) {
          found.push(`the environment variable ${quote(variable)} named by admin.clientSecretEnvVar is not set`);
        }
      } else {
        try {
          await io.readTextFile(file);
        } catch (err) {
          const reason = isNotFound(err) ? "no such file" : (err as Error).message;
          found.push(`cannot read the client secret file ${quote(file)} (admin.clientSecretLocation): ${reason}`);
        }
      }
      break;
    }
    case "Pkce":
      if (config["admin.pkceConfig.timeout"] <= 0) found.push("admin.pkceConfig.timeout is 0: Pkce could never finish");
      break;
    case "DeviceFlow":
      if (config["admin.deviceFlowConfig.timeout"] <= 0) {
        found.push("admin.deviceFlowConfig.timeout is 0: DeviceFlow could never finish");
      }
      break;
  }
  return found;
}

/** `config validate`. */
export const CONFIG_VALIDATE_COMMAND = leafCommand({
  name: "validate",
  description: "check the config file, environment and flags; exit 2 if anything is invalid",
  arguments: [],
  flags: [{ long: "strict", help: "also fail on unknown keys and deprecated options" }],
  globals: ["config"],
  examples: ["fctl config validate", "fctl config validate -c ~/.flyte/prod.yaml --strict"],
  // The warnings (unknown keys with the nearest valid key, deprecated options) are this command's own report,
  // written whatever logger.level and logger.mute say, rather than log records.
  reportsConfigWarnings: true,
  async run(ctx, _args, flags) {
    const found = await problems(ctx.loaded, ctx.io);
    // --strict: each warning is a problem; without it, each is listed after the problems, and does not fail.
    const strict = flags.strict === true;
    if (strict) found.push(...ctx.loaded.warnings);
    const warnings = strict ? [] : ctx.loaded.warnings;
    for (const problem of found) ctx.io.stderr.write(`invalid: ${problem}\n`);
    for (const warning of warnings) ctx.io.stderr.write(`warning: ${warning}\n`);
    if (found.length > 0) {
      throw new UsageError(`the configuration has ${found.length} problem${found.length === 1 ? "" : "s"}`);
    }
    if (storageConfigured(ctx.loaded)) {
      const [{ describeStorage }, { storageConfigFrom }] = await Promise.all([
        import("../../storage/validate.ts"),
        import("../../storage/from_config.ts"),
      ]);
      const config = ctx.loaded.config;
      ctx.io.stdout.write(`${describeStorage(storageConfigFrom(config), adminPlace(config))}\n`);
    }
    const where = ctx.loaded.file ? `config file ${quote(ctx.loaded.file)}` : "no config file";
    const withWarnings = warnings.length === 0
      ? ""
      : ` with ${warnings.length} warning${warnings.length === 1 ? "" : "s"}`;
    ctx.io.stdout.write(`configuration is valid${withWarnings} (${where}, environment and flags)\n`);
  },
});
