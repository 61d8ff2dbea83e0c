/**
 * `fctl config view` and `fctl config validate`.
 *
 * @module
 */
import { parseEndpoint } from "../admin/endpoint.ts";
import { proxyFor } from "../http/proxy_env.ts";
import { type ConfigRow, describeConfig } from "../config/describe.ts";
import { FctlError, quote, UsageError } from "../errors.ts";
import { render } from "../output/render.ts";
import type { CommandContext } from "./context.ts";

/** Prints the effective configuration (only what differs from the defaults unless `all`). */
export async function runConfigView(ctx: CommandContext, options: { all: boolean }): Promise<void> {
  const rows = describeConfig(ctx.loaded).filter((row) => options.all || row.source !== "default");
  await render(ctx.io, ctx.config.output, {
    columns: [
      { header: "KEY", cell: (row: ConfigRow) => row.key },
      { header: "VALUE", cell: (row: ConfigRow) => row.value },
      { header: "SOURCE", cell: (row: ConfigRow) => row.source },
    ],
    toJson: (row) => ({ key: row.key, value: row.json, source: row.source }),
    value: { list: rows },
  });
  if (rows.length === 0) {
    ctx.io.stderr.write("every option has its default value; `fctl config view --all` lists them\n");
  }
}

/** Problems the loader cannot see: values that are only wrong together or against the outside world. */
async function problems(ctx: CommandContext): Promise<string[]> {
  const config = ctx.config;
  const found: string[] = [];
  const check = async (fn: () => unknown) => {
    try {
      await fn();
    } catch (err) {
      if (!(err instanceof FctlError)) throw err;
      found.push(err.message);
    }
  };
  await check(() => {
    const endpoint = parseEndpoint(config["admin.endpoint"]);
    proxyFor(endpoint.host, endpoint.port, ctx.io.env);
  });
  const ca = config["admin.caCertFilePath"];
  if (ca) {
    await check(async () => {
      try {
        const pem = await ctx.io.readTextFile(ca);
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

/** Checks the configuration; one line per problem on stderr, then a usage error (exit 2) if any. */
export async function runConfigValidate(ctx: CommandContext, options: { strict: boolean }): Promise<void> {
  const found = await problems(ctx);
  if (options.strict) found.push(...ctx.loaded.warnings);
  for (const problem of found) ctx.io.stderr.write(`invalid: ${problem}\n`);
  if (found.length > 0) {
    throw new UsageError(`the configuration has ${found.length} problem${found.length === 1 ? "" : "s"}`);
  }
  const where = ctx.loaded.file ? `config file ${quote(ctx.loaded.file)}` : "no config file";
  ctx.io.stdout.write(`configuration is valid (${where}, environment and flags)\n`);
}
