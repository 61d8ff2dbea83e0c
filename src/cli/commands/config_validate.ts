/**
 * `fctl config validate [--strict]`: checks what the loader cannot see (values only wrong together or
 * against the outside world), one line per problem, exit 2 if any.
 *
 * @module
 */
import type { Config } from "../../config/schema.ts";
import { FctlError, quote, UsageError } from "../../errors.ts";
import type { Io } from "../../output/io.ts";
import { leafCommand } from "../command.ts";

/** Problems the loader cannot see: values that are only wrong together or against the outside world. */
async function problems(config: Config, io: Io): Promise<string[]> {
  const found: string[] = [];
  const check = async (fn: () => unknown) => {
    try {
      await fn();
    } catch (err) {
      if (!(err instanceof FctlError)) throw err;
      found.push(err.message);
    }
  };
  const [{ parseEndpoint }, { proxyFor }] = await Promise.all([
    import("../../admin/endpoint.ts"),
    import("../../http/proxy_env.ts"),
  ]);
  await check(() => {
    const endpoint = parseEndpoint(config["admin.endpoint"]);
    proxyFor(endpoint.host, endpoint.port, io.env);
  });
  const ca = config["admin.caCertFilePath"];
  if (ca) {
    await check(async () => {
      try {
        const pem = await io.readTextFile(ca);
        if (!pem.includes("-----BEGIN CERTIFICATE-----")) {
          throw new UsageError(`admin.caCertFilePath ${quote(ca)} holds no PEM certificate`);
        }
      } catch (err) {
        if (err instanceof FctlError) throw err;
        throw new UsageError(`cannot read admin.caCertFilePath ${quote(ca)}: ${(err as Error).message}`);
      }
    });
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
  return found;
}

/** `config validate`. */
export const CONFIG_VALIDATE_COMMAND = leafCommand({
  name: "validate",
  description: "check the config file, environment and flags; exit 2 if anything is invalid",
  arguments: [],
  flags: [{ long: "strict", help: "also fail on unknown keys and deprecated options" }],
  async run(ctx, _args, flags) {
    const found = await problems(ctx.config, ctx.io);
    if (flags.strict === true) found.push(...ctx.loaded.warnings);
    for (const problem of found) ctx.io.stderr.write(`invalid: ${problem}\n`);
    if (found.length > 0) {
      throw new UsageError(`the configuration has ${found.length} problem${found.length === 1 ? "" : "s"}`);
    }
    const where = ctx.loaded.file ? `config file ${quote(ctx.loaded.file)}` : "no config file";
    ctx.io.stdout.write(`configuration is valid (${where}, environment and flags)\n`);
  },
});
