/**
 * The options steps of `register files` and `register examples`, through the runF seam (`parseToOptions`):
 * flytectl's flags and their `--files.*` twins to the register settings, with no package read and no server.
 */
import { deepEqual, equal } from "node:assert/strict";
import { parseToOptions } from "../run.ts";
import { optionsOf, usageError } from "./_test_seam.ts";

const SCOPE = ["-p", "flytesnacks", "-d", "development"];

/** The settings when nothing is given. */
const DEFAULTS = {
  archive: false,
  force: false,
  dryRun: false,
  continueOnError: false,
  enableSchedule: false,
  version: undefined,
  assumableIamRole: undefined,
  k8sServiceAccount: undefined,
  outputLocationPrefix: undefined,
  sourceUploadPath: undefined,
  destinationDirectory: undefined,
  concurrency: undefined,
};

Deno.test("register files: the paths, every flytectl flag, and the report's width", async () => {
  deepEqual(await parseToOptions(["register", "files", "a.pb", "b.pb", ...SCOPE]), {
    command: ["register", "files"],
    options: {
      paths: ["a.pb", "b.pb"],
      project: "flytesnacks",
      domain: "development",
      settings: DEFAULTS,
      concurrencyText: undefined,
      wide: false,
    },
    warnings: [],
  });
  const args = [
    "register",
    "file",
    "pkg.tgz",
    ...SCOPE,
    "--archive",
    "--version",
    "v1",
    "--force",
    "--dryRun",
    "--continueOnError",
    "--enableSchedule",
    "--assumableIamRole",
    "arn:aws:iam::1:role/r",
    "--k8sServiceAccount",
    "sa",
    "--outputLocationPrefix",
    "s3://out",
    "--sourceUploadPath",
    "s3://src",
    "--destinationDirectory",
    "/root",
    "--concurrency",
    "8",
    "--wide",
  ];
  deepEqual(await optionsOf(args), {
    paths: ["pkg.tgz"],
    project: "flytesnacks",
    domain: "development",
    settings: {
      archive: true,
      force: true,
      dryRun: true,
      continueOnError: true,
      enableSchedule: true,
      version: "v1",
      assumableIamRole: "arn:aws:iam::1:role/r",
      k8sServiceAccount: "sa",
      outputLocationPrefix: "s3://out",
      sourceUploadPath: "s3://src",
      destinationDirectory: "/root",
      concurrency: 8,
    },
    concurrencyText: "8",
    wide: true,
  });
});

Deno.test("register: a local flag wins over its --files.* twin; the deprecated spelling is the lowest of its source", async () => {
  const settings = async (...flags: string[]) =>
    (await optionsOf<{ settings: typeof DEFAULTS }>(["register", "files", "a.pb", ...SCOPE, ...flags])).settings;
  equal((await settings("--files.version", "v9")).version, "v9");
  equal((await settings("--files.version", "v9", "--version", "v1")).version, "v1");
  equal((await settings("--files.archive", "--archive=false")).archive, false);
  equal((await settings("--files.dryRun")).dryRun, true);
  equal((await settings("--k8ServiceAccount", "old")).k8sServiceAccount, "old");
  equal((await settings("--k8ServiceAccount", "old", "--k8sServiceAccount", "new")).k8sServiceAccount, "new");
  equal((await settings("--files.k8sServiceAccount", "cfg", "--k8ServiceAccount", "old")).k8sServiceAccount, "old");
  // An empty text is "not set": the twin's value stays.
  equal((await settings("--files.version", "v9", "--version", "")).version, "v9");
});

Deno.test("register: --concurrency is converted, the library refuses it naming the flag as typed", async () => {
  const options = await optionsOf<{ settings: typeof DEFAULTS; concurrencyText: string }>(
    ["register", "examples", ...SCOPE, "--concurrency", "many"],
  );
  deepEqual([options.settings.concurrency, options.concurrencyText], [NaN, "many"]);
});

Deno.test("register examples: the release tag, the settings, and project and domain required", async () => {
  deepEqual(await parseToOptions(["register", "flytesnacks", ...SCOPE, "--version", "v0.3.4", "--continueOnError"]), {
    command: ["register", "examples"],
    options: {
      project: "flytesnacks",
      domain: "development",
      settings: { ...DEFAULTS, version: "v0.3.4", continueOnError: true },
      concurrencyText: undefined,
      wide: false,
    },
    warnings: [],
  });
  equal(await usageError(["register", "examples", "-p", "flytesnacks"]), "project and domain are required parameters");
  equal(
    await usageError(["register", "files", "-d", "development", "a.pb"]),
    "project and domain are required parameters",
  );
  equal(await usageError(["register", "files", ...SCOPE]), "missing required argument 'paths'");
});
