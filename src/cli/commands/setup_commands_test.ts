/**
 * The options steps of `version`, `completion`, `config *` and `auth *`, through the runF seam
 * (`parseToOptions`): flags and global options to each command's options object, and its usage errors, with no
 * context, no config file and no server.
 */
import { deepEqual, equal, rejects } from "node:assert/strict";
import { parseToOptions } from "../run.ts";
import { optionsOf, usageError } from "./_test_seam.ts";

Deno.test("the seam stops after the options step: the command's names and its options, nothing run", async () => {
  deepEqual(await parseToOptions(["version"]), {
    command: ["version"],
    options: { format: "TABLE", endpoint: "" },
    warnings: [],
  });
  // -o takes any case and the schema's spelling; the endpoint is the global flag's, no config file is read.
  deepEqual(await parseToOptions(["version", "-o", "json", "--admin.endpoint", "dns:///flyte.example.com"]), {
    command: ["version"],
    warnings: [],
    options: { format: "JSON", endpoint: "dns:///flyte.example.com" },
  });
  // -c is not read: the seam reads no file.
  deepEqual((await parseToOptions(["version", "-c", "/nonexistent/config.yaml"])).options, {
    format: "TABLE",
    endpoint: "",
  });
  await rejects(parseToOptions(["version", "--help"]), /asks for help, not a run/);
  await rejects(parseToOptions(["--version"]), /asks for version, not a run/);
});

Deno.test("version and auth status refuse a graph format before anything is loaded", async () => {
  for (const command of [["version"], ["auth", "status"]]) {
    equal(
      await usageError([...command, "-o", "dot"]),
      "visualization is only supported on workflows: -o DOT cannot show this command's output; use TABLE, JSON or YAML",
    );
  }
  deepEqual((await parseToOptions(["auth", "status", "-o", "yaml"])).options, { format: "YAML" });
});

Deno.test("auth login and logout: the configured endpoint", async () => {
  deepEqual(await parseToOptions(["auth", "login"]), { command: ["auth", "login"], options: {}, warnings: [] });
  deepEqual((await parseToOptions(["auth", "logout", "--admin.endpoint", "localhost:8089"])).options, {
    endpoint: "localhost:8089",
  });
});

Deno.test("completion: the shell, checked against the shells there are scripts for", async () => {
  for (const shell of ["bash", "zsh", "fish", "powershell"]) {
    deepEqual(await parseToOptions(["completion", shell]), {
      command: ["completion"],
      options: { shell },
      warnings: [],
    });
  }
  equal(
    await usageError(["completion", "tcsh"]),
    'unknown shell "tcsh" for completion: expected one of bash, zsh, fish, powershell',
  );
  equal(await usageError(["completion"]), "missing required argument 'shell'");
});

Deno.test("config view and validate: --all, --wide, -o and --strict", async () => {
  deepEqual(await parseToOptions(["config", "view"]), {
    command: ["config", "view"],
    warnings: [],
    options: { all: false, format: "TABLE", wide: false },
  });
  deepEqual((await parseToOptions(["config", "view", "--all", "--wide", "-o", "yaml"])).options, {
    all: true,
    format: "YAML",
    wide: true,
  });
  deepEqual((await parseToOptions(["config", "validate"])).options, { strict: false });
  deepEqual((await parseToOptions(["config", "validate", "--strict"])).options, { strict: true });
  deepEqual((await parseToOptions(["config", "validate", "--strict=false"])).options, { strict: false });
});

Deno.test("config init: the file's settings, --file over -c, and an empty --host refused", async () => {
  deepEqual(await parseToOptions(["config", "init"]), {
    command: ["config", "init"],
    warnings: [],
    options: { init: { host: undefined, insecure: undefined, console: undefined }, file: undefined, force: false },
  });
  const options = (await parseToOptions([
    "config",
    "init",
    "--host",
    "flyte.example.com",
    "--console",
    "https://flyte.example.com",
    "--insecure",
    "--force",
    "-c",
    "typed.yaml",
  ])).options;
  deepEqual(options, {
    init: { host: "flyte.example.com", insecure: true, console: "https://flyte.example.com" },
    file: "typed.yaml",
    force: true,
  });
  equal((await optionsOf(["config", "init", "-c", "typed.yaml", "--file", "named.yaml"])).file, "named.yaml");
  // config init reads no configuration, but a global flag's bad value is refused as on every command.
  equal(
    await usageError(["config", "init", "--admin.maxRetries", "many"]),
    'invalid value "many" for --admin.maxRetries: expected a whole number of at least 1',
  );
  equal(await usageError(["config", "init", "--host", ""]), 'invalid value "" for --host: expected a host name');
});
