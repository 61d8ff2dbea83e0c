/**
 * `create project` and `update project`: the RegisterProject and UpdateProject requests, a project file, `--dryRun`
 * sending nothing, an update never changing a field the user did not name, the errors, and a fresh process
 * against a production admin.
 */
import { deepEqual, equal } from "node:assert/strict";
import type { Project, ProjectRegisterRequest } from "../proto/gen/flyteidl/admin/project_pb.ts";
import { type Sandbox, startSandbox } from "../src/sandbox/mod.ts";
import { runFctl } from "./helpers.ts";
import { runProductionProcess, seedProjects } from "./entity_fixtures.ts";

function calls(sandbox: Sandbox): unknown[] {
  return sandbox.requests.map(({ method, request }) => {
    const p = method === "RegisterProject"
      ? (request as ProjectRegisterRequest).project!
      : method === "UpdateProject"
      ? request as Project
      : undefined;
    if (!p) return [method, (request as { id?: string }).id];
    return [method, p.id, p.name, p.description, { ...p.labels?.values }, p.state];
  });
}

async function withSandbox(fn: (sandbox: Sandbox, endpoint: string[]) => Promise<void>): Promise<void> {
  const sandbox = await startSandbox();
  try {
    await fn(sandbox, ["--admin.endpoint", sandbox.endpoint]);
  } finally {
    await sandbox.close();
  }
}

Deno.test("create project sends RegisterProject with the flags, or a file's fields; --dryRun sends nothing", async () => {
  await withSandbox(async (sandbox, endpoint) => {
    const created = await runFctl([
      "create",
      "project",
      "--id",
      "ml",
      "--name",
      "Machine learning",
      "--description",
      "models",
      "--labels",
      "team=ml,cost=low",
      ...endpoint,
    ]);
    deepEqual([created.code, created.stdout, created.stderr], [0, "project ml created successfully.\n", ""]);
    deepEqual(calls(sandbox), [[
      "RegisterProject",
      "ml",
      "Machine learning",
      "models",
      { team: "ml", cost: "low" },
      0,
    ]]);
    sandbox.clearRequests();
    const dir = await Deno.makeTempDir();
    try {
      const file = `${dir}/project.yaml`;
      await Deno.writeTextFile(file, "id: data\nname: Data\ndescription: tables\nlabels:\n  values:\n    team: data\n");
      const fromFile = await runFctl(["create", "project", "--file", file, ...endpoint]);
      deepEqual([fromFile.code, fromFile.stderr], [0, ""]);
      deepEqual(calls(sandbox), [["RegisterProject", "data", "Data", "tables", { team: "data" }, 0]]);
      sandbox.clearRequests();
      await Deno.writeTextFile(file, "id: x\nname: X\nowner: me\n");
      const unknown = await runFctl(["create", "project", "--file", file, ...endpoint]);
      deepEqual([unknown.code, unknown.stderr], [
        2,
        `Error: project file "${file}": unknown key "owner" (expected id, name, description, labels, state)\n`,
      ]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
    const dry = await runFctl(["create", "project", "--id", "dry", "--name", "Dry", "--dryRun", ...endpoint]);
    deepEqual([dry.code, dry.stdout], [0, "skipping RegisterProject request (dryRun): project dry not created\n"]);
    const errors: [string[], number, string][] = [
      [["--name", "N"], 2, "project id wasn't passed: add --id <id> (or -p, or id in --file)"],
      [["--id", "a"], 2, "project name is a required flag: add --name <name> (or name in --file)"],
      [
        ["--id", "a", "-p", "b", "--name", "N"],
        2,
        "both project and id are passed: give the project's id with --id or -p, not both",
      ],
      [
        ["--id", "a", "--name", "N", "--labels", "team"],
        2,
        'invalid value "team" for --labels: "team" is not key=value (expected k=v,k2=v2)',
      ],
    ];
    for (const [args, code, message] of errors) {
      const result = await runFctl(["create", "project", ...args, ...endpoint]);
      deepEqual([result.code, result.stderr], [code, `Error: ${message}\n`], args.join(" "));
    }
    deepEqual(sandbox.requests, []);
    // A default project (here from the environment) gives way to --id.
    const withDefault = await runFctl(["create", "project", "--id", "web", "--name", "Web", ...endpoint], {
      env: { FCTL_PROJECT: "flytesnacks" },
    });
    deepEqual([withDefault.code, withDefault.stderr], [0, ""]);
    deepEqual(calls(sandbox), [["RegisterProject", "web", "Web", "", {}, 0]]);
    const taken = await runFctl(["create", "project", "--id", "ml", "--name", "Again", ...endpoint]);
    deepEqual([taken.code, taken.stderr], [1, 'Error: project "ml" already exists\n']);
  });
});

Deno.test("update project changes only the fields named; both states or none is a usage error", async () => {
  await withSandbox(async (sandbox, endpoint) => {
    await seedProjects(sandbox, [{ id: "ml", name: "Machine learning", description: "models" }]);
    await runFctl(["update", "project", "ml", "--labels", "team=ml", "--force", ...endpoint]);
    sandbox.clearRequests();
    const archived = await runFctl(["update", "project", "ml", "--archive", "--force", ...endpoint]);
    equal(archived.code, 0, archived.stderr);
    equal(
      archived.stdout,
      "The following changes are to be applied.\n--- before\n+++ after\n-state: ACTIVE\n+state: ARCHIVED\n" +
        "project ml updated\n",
    );
    deepEqual(calls(sandbox), [
      ["GetProject", "ml"],
      ["UpdateProject", "ml", "Machine learning", "models", { team: "ml" }, 1],
    ]);
    sandbox.clearRequests();
    const described = await runFctl(["update", "project", "ml", "--description", "features", "--force", ...endpoint]);
    equal(described.code, 0, described.stderr);
    // Still archived: a description alone never un-archives.
    deepEqual(calls(sandbox).at(-1), ["UpdateProject", "ml", "Machine learning", "features", { team: "ml" }, 1]);
    sandbox.clearRequests();
    const same = await runFctl(["update", "project", "ml", "--archive", "--dryRun", ...endpoint]);
    deepEqual([same.code, same.stdout], [0, "No changes detected. Skipping the update.\n"]);
    const dry = await runFctl(["update", "project", "ml", "--activate", "--dryRun", ...endpoint]);
    equal(dry.stdout.endsWith("skipping UpdateProject request (dryRun)\n"), true);
    deepEqual(calls(sandbox), [["GetProject", "ml"], ["GetProject", "ml"]]);
    sandbox.clearRequests();
    for (
      const [args, message] of [
        [["ml", "--archive", "--activate"], "invalid state passed. Specify either activate or archive"],
        [["ml"], "nothing to update: add --archive, --activate, --name, --description, --labels or --file"],
      ] as const
    ) {
      const result = await runFctl(["update", "project", ...args, ...endpoint]);
      deepEqual([result.code, result.stderr], [2, `Error: ${message}\n`]);
    }
    deepEqual(sandbox.requests, []);
    // (The project is archived.) The deprecated spellings work, with the warning update launchplan's deprecated --archive gives.
    const oldActivate = await runFctl(["update", "project", "ml", "--activateProject", "--force", ...endpoint]);
    deepEqual([oldActivate.code, oldActivate.stderr], [
      0,
      "warning: --activateProject is deprecated: use --activate\n",
    ]);
    const oldArchive = await runFctl(["update", "project", "ml", "--archiveProject", "--force", ...endpoint]);
    deepEqual([oldArchive.code, oldArchive.stderr], [0, "warning: --archiveProject is deprecated: use --archive\n"]);
    const states = sandbox.requests.filter(({ method }) => method === "UpdateProject");
    deepEqual(states.map(({ request }) => (request as Project).state), [0, 1]);
    sandbox.clearRequests();
    const missing = await runFctl(["update", "project", "ghost", "--archive", "--force", ...endpoint]);
    deepEqual([missing.code, missing.stderr], [1, 'Error: project "ghost" not found\n']);
  });
});

Deno.test("create project refuses what FlyteAdmin would, before any call: a bad id, a long name or description", async () => {
  const sandbox = await startSandbox({ production: true });
  try {
    const idRule =
      "a project id is lowercase letters, digits and '-', starting and ending with a letter or digit, at " +
      "most 63 characters (an RFC 1123 label)";
    // The id goes in as -p, as the production runs pass a project (create project takes it for --id).
    const refusals: [string, string[], string][] = [
      // A dry run said "skipping RegisterProject request (dryRun)" for an id no admin accepts.
      ["Bad_Id", ["--name", "x", "--dryRun"], `invalid project id "Bad_Id": ${idRule}`],
      ["-ml", ["--name", "x"], `invalid project id "-ml": ${idRule}`],
      ["a".repeat(64), ["--name", "x"], `invalid project id "${"a".repeat(64)}": ${idRule}`],
      ["ml", ["--name", "n".repeat(65)], "project name of 65 characters: at most 64"],
      ["ml", ["--name", "x", "--description", "d".repeat(301)], "project description of 301 characters: at most 300"],
      // FlyteAdmin counts bytes: 40 letters é are 80.
      ["ml", ["--name", "é".repeat(40)], "project name of 80 bytes in UTF-8: at most 64"],
    ];
    for (const [id, args, message] of refusals) {
      const result = await runProductionProcess(sandbox, ["create", "project", ...args], id);
      deepEqual([result.code, result.stdout, result.stderr], [2, "", `Error: ${message}\n`]);
    }
    deepEqual(sandbox.requests.filter(({ method }) => method === "RegisterProject"), []);
    // At the limits, the admin takes it.
    const longest = await runProductionProcess(
      sandbox,
      ["create", "project", "--name", "n".repeat(64), "--description", "d".repeat(300)],
      `a${"-".repeat(61)}z`,
    );
    deepEqual([longest.code, longest.stderr], [0, ""]);
  } finally {
    await sandbox.close();
  }
});

Deno.test("production admin: create and update project as fresh processes (TLS, OAuth, declared permissions)", async () => {
  const sandbox = await startSandbox({ production: true });
  try {
    // The id comes from -p (a fresh admin already has flytesnacks, its seed).
    const created = await runProductionProcess(sandbox, ["create", "project", "--name", "Snacks"], "snacks");
    deepEqual([created.code, created.stdout, created.stderr], [0, "project snacks created successfully.\n", ""]);
    const piped = await runProductionProcess(sandbox, ["update", "project", "--archive"], "snacks");
    deepEqual([piped.code, piped.stderr], [
      2,
      'Error: update of project "snacks" not applied: stdin is not a terminal to answer "Continue? [y/n]"; ' +
      "add --force\n",
    ]);
    const forced = await runProductionProcess(sandbox, ["update", "project", "--archive", "--force"], "snacks");
    deepEqual([forced.code, forced.stderr], [0, ""]);
    deepEqual(calls(sandbox).at(-1), ["UpdateProject", "snacks", "Snacks", "", {}, 1]);
  } finally {
    await sandbox.close();
  }
});

Deno.test("project labels FlyteAdmin refuses are exit 2 before any call, from --labels or a file", async () => {
  const sandbox = await startSandbox({ production: true });
  const dir = await Deno.makeTempDir();
  try {
    const keyRule =
      "a label key is at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or " +
      "digit, after an optional DNS subdomain and '/' (team, example.com/team)";
    const valueRule = "a label value is empty, or at most 63 letters, digits, '-', '_' or '.', starting and ending " +
      "with a letter or digit";
    const file = async (name: string, text: string) => {
      await Deno.writeTextFile(`${dir}/${name}`, text);
      return `${dir}/${name}`;
    };
    const many = Array.from({ length: 17 }, (_, i) => `k${i}=v`).join(",");
    const noValues = await file("no_values.yaml", "id: ml\nname: ML\nlabels:\n  team: ml\n");
    const badValue = await file("bad_value.yaml", "id: ml\nname: ML\nlabels:\n  values:\n    team: ML team\n");
    const listValue = await file("list_value.yaml", "id: ml\nname: ML\nlabels:\n  values:\n    team: [a]\n");
    const refusals: [string[], string][] = [
      [
        ["create", "project", "--name", "x", "--labels", "team=ML team"],
        `invalid value "team=ML team" for --labels: the value "ML team" of label "team" is not a label value: ` +
        valueRule,
      ],
      [
        ["create", "project", "--name", "x", "--labels", "BAD KEY=x"],
        `invalid value "BAD KEY=x" for --labels: "BAD KEY" is not a label key: ${keyRule}`,
      ],
      [
        ["update", "project", "--labels", "a/b/c=x", "--force"],
        `invalid value "a/b/c=x" for --labels: "a/b/c" is not a label key: ${keyRule}`,
      ],
      [
        ["create", "project", "--name", "x", "--labels", "team=a,team=b"],
        `invalid value "team=a,team=b" for --labels: label "team" is given twice`,
      ],
      [
        ["create", "project", "--name", "x", "--labels", many],
        `invalid value "${many}" for --labels: 17 labels: at most 16`,
      ],
      [
        ["create", "project", "--file", noValues],
        `project file "${noValues}": labels has a key "team": labels are written labels: {values: {k: v}}`,
      ],
      [
        ["create", "project", "--file", badValue],
        `project file "${badValue}": the value "ML team" of label "team" is not a label value: ${valueRule}`,
      ],
      [
        ["create", "project", "--file", listValue],
        `project file "${listValue}": the value of label "team" is not a string`,
      ],
    ];
    for (const [args, message] of refusals) {
      const result = await runProductionProcess(sandbox, args);
      deepEqual([result.code, result.stdout, result.stderr], [2, "", `Error: ${message}\n`], args.join(" "));
    }
    deepEqual(sandbox.requests, []);
    // A file's labels are taken as written: YAML 1.1's yes, y and n stay words, 1.0 stays 1.0.
    const words = await file(
      "words.yaml",
      "id: words\nname: W\nlabels:\n  values:\n    n: yes\n    y: '1.0'\n    v: 1.0\n",
    );
    const created = await runProductionProcess(sandbox, ["create", "project", "--file", words]);
    deepEqual([created.code, created.stderr], [0, ""]);
    deepEqual(calls(sandbox).at(-1), ["RegisterProject", "words", "W", "", { n: "yes", y: "1.0", v: "1.0" }, 0]);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await sandbox.close();
  }
});

Deno.test("update project refuses a name or description FlyteAdmin would, before any call", async () => {
  const sandbox = await startSandbox({ production: true });
  try {
    const refusals: [string[], string][] = [
      [["--name", "n".repeat(65)], "project name of 65 characters: at most 64"],
      [["--description", "ü".repeat(151)], "project description of 302 bytes in UTF-8: at most 300"],
      // FlyteAdmin writes a project skipping its empty fields: "updated" would be a lie.
      [
        ["--description", ""],
        'invalid value "" for --description: FlyteAdmin keeps a project\'s description when sent an empty one, ' +
        "so it cannot be cleared; give a new description",
      ],
      [
        ["--name", ""],
        'invalid value "" for --name: FlyteAdmin keeps a project\'s name when sent an empty one, so it cannot be ' +
        "cleared; give a new name",
      ],
    ];
    for (const [args, message] of refusals) {
      const result = await runProductionProcess(sandbox, ["update", "project", ...args, "--force"]);
      deepEqual([result.code, result.stdout, result.stderr], [2, "", `Error: ${message}\n`]);
    }
    deepEqual(sandbox.requests, []);
    const longest = await runProductionProcess(sandbox, ["update", "project", "--name", "é".repeat(32), "--force"]);
    deepEqual([longest.code, longest.stderr], [0, ""]);
  } finally {
    await sandbox.close();
  }
});

Deno.test("update project --file: the file's fields under the flags', an empty one unchanged, its state counting", async () => {
  const sandbox = await startSandbox({ production: true });
  const dir = await Deno.makeTempDir();
  try {
    await seedProjects(sandbox, [{ id: "ml", name: "Machine learning", description: "models" }]);
    const file = `${dir}/project.yaml`;
    await Deno.writeTextFile(
      file,
      'id: ml\nname: ""\ndescription: features\nlabels:\n  values:\n    team: ml\nstate: 1\n',
    );
    // The id comes from the file; -p (flytesnacks here) gives way to it.
    const updated = await runProductionProcess(sandbox, ["update", "project", "--file", file, "--force"]);
    deepEqual([updated.code, updated.stderr], [0, ""]);
    equal(
      updated.stdout,
      "The following changes are to be applied.\n--- before\n+++ after\n-description: models\n+description: features\n" +
        "-labels:\n+labels: team=ml\n-state: ACTIVE\n+state: ARCHIVED\nproject ml updated\n",
    );
    deepEqual(calls(sandbox).at(-1), ["UpdateProject", "ml", "Machine learning", "features", { team: "ml" }, 1]);
    // A flag wins over the file: --activate over its state 1, --description over its description.
    const flags = await runProductionProcess(sandbox, [
      "update",
      "project",
      "--id",
      "ml",
      "--file",
      file,
      "--activate",
      "--description",
      "both",
      "--force",
    ]);
    deepEqual([flags.code, flags.stderr], [0, ""]);
    deepEqual(calls(sandbox).at(-1), ["UpdateProject", "ml", "Machine learning", "both", { team: "ml" }, 0]);
    sandbox.clearRequests();
    await Deno.writeTextFile(file, "id: ml\nname: ''\n");
    const empty = await runProductionProcess(sandbox, ["update", "project", "--file", file, "--force"]);
    deepEqual([empty.code, empty.stdout, empty.stderr], [
      2,
      "",
      `Error: nothing to update: project file "${file}" names no name, description, labels or state, and no flag does\n`,
    ]);
    deepEqual(sandbox.requests, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await sandbox.close();
  }
});

Deno.test("update's before/after shows a value's line breaks and terminal escapes escaped, never raw", async () => {
  const sandbox = await startSandbox({ production: true });
  try {
    // The admin's current description carries an escape sequence; the new one a line break.
    await seedProjects(sandbox, [{ id: "ml", name: "ML", description: "red\x1b[31m" }]);
    const result = await runProductionProcess(
      sandbox,
      ["update", "project", "--description", "a\nb", "--dryRun"],
      "ml",
    );
    deepEqual([result.code, result.stderr], [0, ""]);
    equal(
      result.stdout,
      "The following changes are to be applied.\n--- before\n+++ after\n-description: red\\x1b[31m\n" +
        "+description: a\\nb\nskipping UpdateProject request (dryRun)\n",
    );
  } finally {
    await sandbox.close();
  }
});

Deno.test("create project of an id an archived project has says so, and how to activate it", async () => {
  const sandbox = await startSandbox({ production: true });
  try {
    await seedProjects(sandbox, [{ id: "old", archived: true }]);
    const result = await runProductionProcess(sandbox, ["create", "project", "--name", "Old"], "old");
    deepEqual([result.code, result.stdout, result.stderr], [
      1,
      "",
      'Error: project "old" already exists, archived: activate it with: fctl update project old --activate\n',
    ]);
    const active = await runProductionProcess(sandbox, ["create", "project", "--name", "Snacks"], "flytesnacks");
    deepEqual([active.code, active.stderr], [1, 'Error: project "flytesnacks" already exists\n']);
  } finally {
    await sandbox.close();
  }
});
