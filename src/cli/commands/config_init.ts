/**
 * `fctl config init [--host H] [--insecure] [--console URL] [--force] [--file PATH]`: writes a config file
 * flytectl reads too (`~/.flyte/config.yaml`, or `--file`, `-c`, `$FLYTECTL_CONFIG`), mode 0600, atomically,
 * never replacing one without `--force`. It reads no configuration: the file may not exist yet.
 *
 * @module
 */
import { fileErrorReason, OperationError, quote, UsageError } from "../../errors.ts";
import { refuseEmpty } from "../flag_values.ts";
import { printLine } from "../../output/print.ts";
import { leafCommand } from "../command.ts";

/** What `config init` takes: what the file says, where it goes, and whether it may replace one. */
export interface ConfigInitOptions {
  /** The file's settings (`initFileText` checks them). */
  init: { host?: string; insecure?: boolean; console?: string };
  /** `--file`, else `-c`: the file named on the command line; neither: `$FLYTECTL_CONFIG` or the default path. */
  file?: string;
  force: boolean;
}

/** `config init`. */
export const CONFIG_INIT_COMMAND = leafCommand({
  name: "init",
  description: "write a config file for an admin service (flytectl's format; without --host, the local sandbox's)",
  arguments: [],
  flags: [
    { long: "host", value: "<host>", help: "the admin service: flyte.example.com, host:port, dns:///host:port" },
    { long: "insecure", help: "plaintext gRPC, no TLS (implied by an http:// host and by the sandbox)" },
    { long: "console", value: "<url>", help: "the Flyte console's URL, for links" },
    { long: "force", help: "replace the file if it exists" },
    {
      long: "file",
      value: "<path>",
      help: "where to write (default -c, else $FLYTECTL_CONFIG, else ~/.flyte/config.yaml)",
    },
  ],
  globals: ["config"],
  readsConfig: false,
  examples: [
    "fctl config init  # the local sandbox: dns:///localhost:30080, insecure",
    "fctl config init --host flyte.example.com --console https://flyte.example.com",
    "fctl config init --host localhost:8089 --insecure --file ./fctl.yaml --force",
  ],
  options({ flags, globals: { commandLine } }): ConfigInitOptions {
    refuseEmpty(flags, { host: "a host name", file: "a file path" });
    const configFlag = commandLine["config"];
    const typedConfig = typeof configFlag === "string" && configFlag !== "" ? configFlag : undefined;
    return {
      init: { host: flags.host, insecure: flags.insecure, console: flags.console },
      file: flags.file || typedConfig,
      force: flags.force === true,
    };
  },
  async run(ctx, options) {
    const [{ initFileText }, { FileExistsError, writeFileAtomic }, { configFilePath }] = await Promise.all([
      import("../../config/init_file.ts"),
      import("../../fs/write_atomic.ts"),
      import("../../config/load.ts"),
    ]);
    const text = initFileText(options.init);
    const path = options.file || configFilePath({}, ctx.env).file;
    if (!path) throw new UsageError("no config file to write: HOME is not set; name one with --file");
    try {
      await writeFileAtomic(path, text, { replace: options.force, createParents: true });
    } catch (err) {
      if (err instanceof FileExistsError) {
        throw new OperationError(`config file ${quote(path)} already exists: add --force to replace it`);
      }
      throw new OperationError(`cannot write config file ${quote(path)}: ${fileErrorReason(err)}`, { cause: err });
    }
    printLine(ctx.io, `wrote config file ${path}`);
  },
});
