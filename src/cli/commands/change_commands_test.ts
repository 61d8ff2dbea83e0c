/**
 * The options steps of `create execution|project`, `delete execution` and `update *`, through the runF seam
 * (`parseToOptions`): flytectl's flag spellings to each command's options object, and the usage errors found
 * before any file is read or anything connects.
 */
import { deepEqual, equal } from "node:assert/strict";
import { parseToOptions } from "../run.ts";
import { optionsOf, usageError } from "./_test_seam.ts";

const SCOPE = ["-p", "flytesnacks", "-d", "development"];

Deno.test("create execution: every flytectl flag to the library's options; --relaunch and --recover win over --execFile", async () => {
  deepEqual(
    await parseToOptions([
      "create",
      "execution",
      "my-run",
      ...SCOPE,
      "--execFile",
      "exec.yaml",
      "--version",
      "v2",
      "--targetProject",
      "other",
      "--targetDomain",
      "staging",
      "--kubeServiceAcct",
      "sa",
      "--iamRoleARN",
      "arn:aws:iam::1:role/r",
      "--clusterPool",
      "gpu",
      "--targetExecutionCluster",
      "c1",
      "--overwriteCache",
      "--envs",
      "A=1",
      "--envs",
      "B=x=y",
      "-o",
      "json",
      "--wait-timeout",
      "1h30m",
    ]),
    {
      command: ["create", "execution"],
      options: {
        create: {
          project: "flytesnacks",
          domain: "development",
          name: "my-run",
          relaunch: undefined,
          recover: undefined,
          version: "v2",
          targetProject: "other",
          targetDomain: "staging",
          kubeServiceAcct: "sa",
          iamRoleARN: "arn:aws:iam::1:role/r",
          clusterPool: "gpu",
          targetExecutionCluster: "c1",
          overwriteCache: true,
          envs: new Map([["A", "1"], ["B", "x=y"]]),
          dryRun: false,
        },
        execFile: "exec.yaml",
        wait: { timeoutMs: 5_400_000 },
        format: "JSON",
      },
      warnings: [],
    },
  );
  const relaunch = await optionsOf(["create", "execution", ...SCOPE, "--execFile", "x.yaml", "--relaunch", "e1"]);
  deepEqual([relaunch.execFile, (relaunch.create as { relaunch: string }).relaunch], [undefined, "e1"]);
  const recover = await optionsOf(["create", "execution", ...SCOPE, "--recover", "e2", "--dryRun", "--wait=false"]);
  deepEqual([recover.execFile, recover.wait, (recover.create as { dryRun: boolean }).dryRun], [
    undefined,
    undefined,
    true,
  ]);
  deepEqual((await optionsOf(["create", "execution", ...SCOPE, "--relaunch", "e1", "--wait"])).wait, {});
});

Deno.test("create execution: bad flags are usage errors before the spec file is read", async () => {
  const create = ["create", "execution", ...SCOPE];
  const cases: [string[], string][] = [
    [["--execFile", ""], 'invalid value "" for --execFile: expected a file path'],
    [["--relaunch", ""], 'invalid value "" for --relaunch: expected a execution name'],
    [["--recover", ""], 'invalid value "" for --recover: expected a execution name'],
    [
      [],
      "executionConfig, relaunch and recover can't be empty. Run the fctl get task/launchplan to generate the config",
    ],
    [["--execFile", "x.yaml", "--envs", "NOEQUALS"], 'invalid value "NOEQUALS" for --envs: expected key=value'],
    [["--execFile", "x.yaml", "--envs", "=v"], 'invalid value "=v" for --envs: expected key=value'],
    [
      ["--execFile", "x.yaml", "--wait", "--dryRun"],
      "--wait and --wait-timeout cannot be used with --dryRun: nothing is created",
    ],
    [
      ["--execFile", "x.yaml", "--wait-timeout", "0s"],
      'invalid value "0s" for --wait-timeout: expected a duration above 0 such as 30m or 1h30m',
    ],
    [
      ["--execFile", "x.yaml", "--wait-timeout", "soon"],
      'invalid value "soon" for --wait-timeout: expected a duration above 0 such as 30m or 1h30m',
    ],
    [
      ["--execFile", "x.yaml", "-o", "dot"],
      "output format DOT is not available for create execution; use TABLE, JSON or YAML",
    ],
  ];
  for (const [flags, message] of cases) equal(await usageError([...create, ...flags]), message, flags.join(" "));
  equal(
    await usageError(["create", "execution", "-p", "flytesnacks", "--execFile", "x.yaml"]),
    "project and domain are required parameters",
  );
});

Deno.test("create project: flags over the file, -p as the id's default, and -p typed beside --id refused", async () => {
  deepEqual(
    await parseToOptions([
      "create",
      "project",
      "--id",
      "ml",
      "--name",
      "Machine learning",
      "--description",
      "models",
      "--labels",
      "team=ml, cost = low",
      "--file",
      "project.yaml",
      "--dryRun",
    ]),
    {
      command: ["create", "project"],
      options: {
        fields: { id: "ml", name: "Machine learning", description: "models", labels: { team: "ml", cost: "low" } },
        file: "project.yaml",
        project: "",
        dryRun: true,
      },
      warnings: [],
    },
  );
  deepEqual(await optionsOf(["create", "project", "-p", "ml", "--name", "ML"]), {
    fields: { id: undefined, name: "ML", description: undefined, labels: undefined },
    file: undefined,
    project: "ml",
    dryRun: false,
  });
  // The same id twice is no conflict.
  equal((await optionsOf<{ project: string }>(["create", "project", "-p", "ml", "--id", "ml"])).project, "ml");
  equal(
    await usageError(["create", "project", "-p", "ml", "--id", "other"]),
    "both project and id are passed: give the project's id with --id or -p, not both",
  );
  equal(
    await usageError(["create", "project", "--id", "ml", "--labels", "team"]),
    'invalid value "team" for --labels: "team" is not key=value (expected k=v,k2=v2)',
  );
});

Deno.test("delete execution: the names, --cause and --dryRun; empty values refused", async () => {
  deepEqual(await parseToOptions(["delete", "executions", "e1", "e2", ...SCOPE, "--cause", "wrong inputs"]), {
    command: ["delete", "execution"],
    options: {
      project: "flytesnacks",
      domain: "development",
      names: ["e1", "e2"],
      cause: "wrong inputs",
      dryRun: false,
    },
    warnings: [],
  });
  equal((await optionsOf(["delete", "execution", "e1", ...SCOPE, "--dryRun"])).dryRun, true);
  equal(await usageError(["delete", "execution", "e1", " ", ...SCOPE]), 'invalid execution name " ": expected a name');
  equal(
    await usageError(["delete", "execution", "e1", ...SCOPE, "--cause", " "]),
    'invalid value "" for --cause: expected a reason, or leave --cause out',
  );
  equal(await usageError(["delete", "execution", ...SCOPE]), "missing required argument 'names'");
  equal(
    await usageError(["delete", "execution", "e1", "-d", "development"]),
    "project and domain are required parameters",
  );
});

Deno.test("update launchplan: --version, --activate|--deactivate, and the deprecated --archive warns", async () => {
  const update = ["update", "launchplan", "core.basic.wf", ...SCOPE, "--version", "v1"];
  deepEqual(await parseToOptions([...update, "--activate", "--force"]), {
    command: ["update", "launchplan"],
    options: {
      id: { project: "flytesnacks", domain: "development", name: "core.basic.wf", version: "v1" },
      deactivate: false,
      dryRun: false,
      force: true,
    },
    warnings: [],
  });
  const archive = await parseToOptions([...update, "--archive", "--dryRun"]);
  deepEqual([archive.options, archive.warnings], [
    {
      id: { project: "flytesnacks", domain: "development", name: "core.basic.wf", version: "v1" },
      deactivate: true,
      dryRun: true,
      force: false,
    },
    ["--archive is deprecated: use --deactivate"],
  ]);
  equal(await usageError([...update]), "invalid state passed. Specify either activate or deactivate");
  equal(
    await usageError([...update, "--activate", "--deactivate"]),
    "invalid state passed. Specify either activate or deactivate",
  );
  equal(
    await usageError(["update", "launchplan", "lp", ...SCOPE, "--activate"]),
    "launch plan version wasn't passed: add --version <version>",
  );
});

Deno.test("update execution: --archive or --activate, exactly one", async () => {
  deepEqual(await optionsOf(["update", "execution", "e1", ...SCOPE, "--archive"]), {
    id: { project: "flytesnacks", domain: "development", name: "e1" },
    archive: true,
    dryRun: false,
    force: false,
  });
  equal((await optionsOf(["update", "execution", "e1", ...SCOPE, "--activate", "--force"])).archive, false);
  for (const flags of [[], ["--archive", "--activate"]]) {
    equal(
      await usageError(["update", "execution", "e1", ...SCOPE, ...flags]),
      "invalid state passed. Specify either --archive or --activate",
    );
  }
});

Deno.test("update project: the id (default -p), the state in either spelling, and only the fields named", async () => {
  deepEqual(await parseToOptions(["update", "project", "ml", "--archiveProject", "--labels", "team=ml"]), {
    command: ["update", "project"],
    options: {
      id: "ml",
      project: "",
      file: undefined,
      state: "archive",
      fields: { name: undefined, description: undefined, labels: { team: "ml" } },
      dryRun: false,
      force: false,
    },
    warnings: ["--archiveProject is deprecated: use --archive"],
  });
  const fromP = await optionsOf(["update", "project", "-p", "ml", "--activate", "--description", "d", "--dryRun"]);
  deepEqual([fromP.id, fromP.project, fromP.state, fromP.dryRun], [undefined, "ml", "activate", true]);
  const byFlag = await optionsOf(["update", "project", "--id", "ml", "--file", "p.yaml"]);
  deepEqual([byFlag.id, byFlag.file, byFlag.state], ["ml", "p.yaml", undefined]);
  equal(
    await usageError(["update", "project", "ml", "--id", "web", "--archive"]),
    'both "ml" and --id "web" are passed: name one project',
  );
  equal((await optionsOf(["update", "project", "ml", "--name", "ML"])).state, undefined);
  equal(
    await usageError(["update", "project", "--archive"]),
    "project id wasn't passed: name the project, or add -p <id> (or id in --file)",
  );
  equal(
    await usageError(["update", "project", "ml", "--archive", "--activateProject"]),
    "invalid state passed. Specify either activate or archive",
  );
  equal(
    await usageError(["update", "project", "ml"]),
    "nothing to update: add --archive, --activate, --name, --description, --labels or --file",
  );
});

Deno.test("update task-meta, workflow-meta, launchplan-meta: the state and the description", async () => {
  for (const command of ["task-meta", "workflow-meta", "launchplan-meta"]) {
    deepEqual(await parseToOptions(["update", command, "n", ...SCOPE, "--archive", "--description", "d"]), {
      command: ["update", command],
      options: {
        id: { project: "flytesnacks", domain: "development", name: "n" },
        state: "archive",
        description: "d",
        dryRun: false,
        force: false,
      },
      warnings: [],
    });
    equal((await optionsOf(["update", command, "n", ...SCOPE, "--description", "d", "--force"])).state, undefined);
    equal(
      await usageError(["update", command, "n", ...SCOPE, "--archive", "--activate"]),
      "invalid state passed. Specify either --archive or --activate",
    );
    equal(
      await usageError(["update", command, "n", ...SCOPE]),
      "nothing to update: add --archive, --activate or --description",
    );
  }
});
