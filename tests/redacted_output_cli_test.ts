/**
 * Secrets in what a command writes, as a fresh fctl process under the declared permissions shows them: a table is
 * laid out from its text as shown (redacted), so a row holding a secret is aligned like the others and nothing tells
 * the secret's length; `-o json` and `-o yaml` hide it inside the document, which stays valid. Both for a secret
 * of the configuration (`config view`) and for an admin's text holding a registered secret (`get project` against a
 * production-shaped admin: TLS, OAuth client credentials).
 */
import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { parse } from "yaml";
import { SANDBOX_CLIENT, startSandbox } from "../src/sandbox/mod.ts";
import { ResourceType } from "../proto/gen/flyteidl/core/identifier_pb.ts";
import { SimpleType } from "../proto/gen/flyteidl/core/types_pb.ts";
import { primitive, simple } from "../src/_test_literals.ts";
import { sleepNode } from "../src/sandbox/_test_helpers.ts";
import { runProductionProcess, seedProjects, withFullAdmin } from "./entity_fixtures.ts";
import { runFctlProcess } from "./helpers.ts";

/** The widths of a table's lines (rules and rows): one width when it is aligned. */
function lineWidths(table: string): number[] {
  return [...new Set(table.split("\n").filter((line) => /^[ |]/.test(line)).map((line) => line.length))];
}

/** The cells of the table's row whose first cell is `first`. */
function rowOf(table: string, first: string): string[] | undefined {
  return table.split("\n").map((line) => line.split("|").slice(1, -1).map((cell) => cell.trim()))
    .find((cells) => cells[0] === first);
}

Deno.test("config view: a secret in the table leaves it aligned, its length nowhere; -o json and -o yaml stay valid", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fctl-redacted-output-" });
  try {
    const views: string[] = [];
    // Two secret keys of other lengths than `[redacted]`'s: the tables are the same, so nothing tells them apart.
    for (const secret of ["k3y", "a-secret-key-much-longer-than-its-marker"].map((s) => `${s}-0123`)) {
      const file = `${dir}/config.yaml`;
      await Deno.writeTextFile(
        file,
        `admin:\n  endpoint: dns:///flyte.example.org\nstorage:\n  connection:\n    secret-key: ${secret}\n` +
          `    endpoint: http://${secret}@minio.example.org:9000\n`,
      );
      const table = await runFctlProcess(["config", "view", "-c", file, "--logger.mute"]);
      equal(table.code, 0, table.stderr);
      assert(!table.stdout.includes(secret), table.stdout);
      equal(lineWidths(table.stdout).length, 1, table.stdout);
      deepEqual(rowOf(table.stdout, "storage.connection.secret-key")?.slice(0, 2), [
        "storage.connection.secret-key",
        "[redacted]",
      ]);
      views.push(table.stdout);
      for (const format of ["json", "yaml"]) {
        const doc = await runFctlProcess(["config", "view", "-c", file, "--logger.mute", "-o", format]);
        equal(doc.code, 0, doc.stderr);
        assert(!doc.stdout.includes(secret), doc.stdout);
        const rows: { key: string; value: unknown }[] = format === "json" ? JSON.parse(doc.stdout) : parse(doc.stdout);
        const values = Object.fromEntries(rows.map((row) => [row.key, row.value]));
        equal(values["storage.connection.secret-key"], "[redacted]");
        equal(values["storage.connection.endpoint"], "http://[redacted]@minio.example.org:9000");
      }
    }
    equal(views[0], views[1]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("config view: a secret of several lines (a key in storage.stow.config) is hidden in the table and in -o yaml's block", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fctl-redacted-output-" });
  try {
    const file = `${dir}/config.yaml`;
    await Deno.writeTextFile(
      file,
      "admin:\n  endpoint: dns:///flyte.example.org\nstorage:\n  type: stow\n  stow:\n    kind: google\n" +
        '    config:\n      json: "first-secret-line\\nsecond-secret-line"\n',
    );
    for (const format of ["table", "json", "yaml"]) {
      const view = await runFctlProcess(["config", "view", "-c", file, "--logger.mute", "-o", format]);
      equal(view.code, 0, view.stderr);
      for (const part of ["first-secret", "second-secret"]) assert(!view.stdout.includes(part), view.stdout);
      if (format === "table") {
        equal(lineWidths(view.stdout).length, 1, view.stdout);
        equal(rowOf(view.stdout, "storage.stow.config")?.[1], "json=[redacted]");
        continue;
      }
      const rows: { key: string; value: unknown }[] = format === "json" ? JSON.parse(view.stdout) : parse(view.stdout);
      deepEqual(rows.find((row) => row.key === "storage.stow.config")?.value, { json: "[redacted]" });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("production admin: get project whose description holds the client secret: the table aligned, the documents valid", async () => {
  const sandbox = await startSandbox({ production: true });
  try {
    await seedProjects(sandbox, [
      { id: "leaky", name: "Leaky", description: `echoes ${SANDBOX_CLIENT.secret} back` },
      { id: "plain", name: "Plain", description: "nothing secret" },
    ]);
    const table = await runProductionProcess(sandbox, ["get", "project"]);
    equal(table.code, 0, table.stderr);
    assert(!table.stdout.includes(SANDBOX_CLIENT.secret), table.stdout);
    equal(lineWidths(table.stdout).length, 1, table.stdout);
    assert(rowOf(table.stdout, "leaky")?.includes("echoes [redacted] back"), table.stdout);
    for (const format of ["json", "yaml"]) {
      const doc = await runProductionProcess(sandbox, ["get", "project", "leaky", "-o", format]);
      equal(doc.code, 0, doc.stderr);
      assert(!doc.stdout.includes(SANDBOX_CLIENT.secret), doc.stdout);
      const project = format === "json" ? JSON.parse(doc.stdout) : parse(doc.stdout);
      equal(project.description, "echoes [redacted] back");
    }
  } finally {
    await sandbox.close();
  }
});

Deno.test("the sandbox's access key minio, one of fctl's own words, is no secret: file names and messages keep it whole", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fctl-redacted-output-" });
  try {
    const file = `${dir}/sandbox_minio_storage.yaml`;
    await Deno.writeTextFile(
      file,
      "admin:\n  endpoint: dns:///localhost:30080\n  insecure: true\nstorage:\n  type: minio\n" +
        "  container: my-s3-bucket\n  connection:\n    access-key: minio\n    secret-key: miniostorage\n" +
        "    auth-type: accesskey\n    endpoint: http://localhost:30002\n    disable-ssl: true\n",
    );
    const validate = await runFctlProcess(["config", "validate", "-c", file, "--logger.mute"]);
    equal(validate.code, 0, validate.stderr);
    assert(validate.stdout.startsWith("storage: minio bucket my-s3-bucket"), validate.stdout);
    assert(validate.stdout.endsWith(`configuration is valid (config file "${file}", environment and flags)\n`));
    const view = await runFctlProcess(["config", "view", "-c", file, "--logger.mute"]);
    equal(view.code, 0, view.stderr);
    assert(!view.stdout.includes("miniostorage") && !view.stdout.includes("[redacted]_storage"), view.stdout);
    deepEqual(rowOf(view.stdout, "storage.connection.secret-key")?.slice(1, 2), ["[redacted]"]);
    deepEqual(rowOf(view.stdout, "storage.connection.access-key"), [
      "storage.connection.access-key",
      "minio",
      `file ${file} (storage.connection.access-key)`,
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("get execution --details -o json|yaml: a node's output holding a secret, a number too, leaves a valid document", async () => {
  let ms = Date.parse("2026-03-01T00:00:00Z");
  const sandbox = await startSandbox({ now: () => new Date(ms) });
  try {
    // A workflow whose start node echoes its inputs, given a secret of digits: hidden in the written text only, the
    // number 98765 would become `[redacted]`, which is no JSON or YAML value.
    const secret = "98765";
    const scope = { project: "flytesnacks", domain: "development" };
    const workflowId = { resourceType: ResourceType.WORKFLOW, ...scope, name: "echo", version: "v1" };
    const launchPlanId = { ...workflowId, resourceType: ResourceType.LAUNCH_PLAN };
    const variables = { n: { type: simple(SimpleType.INTEGER) }, s: { type: simple(SimpleType.STRING) } };
    sandbox.store.addWorkflow({
      id: workflowId,
      spec: { template: { id: workflowId, interface: { inputs: { variables } }, nodes: [sleepNode()] } },
    });
    sandbox.store.addLaunchPlan({ id: launchPlanId, spec: { workflowId } });
    await withFullAdmin(sandbox, async (admin) => {
      await admin.createExecution({
        ...scope,
        name: "leaky",
        spec: { launchPlan: launchPlanId },
        inputs: {
          literals: {
            n: primitive({ case: "integer", value: BigInt(secret) }),
            s: primitive({ case: "stringValue", value: `echoes ${secret} back` }),
          },
        },
      });
    });
    ms += 70_000;
    const flags = [
      ...["-p", "flytesnacks", "-d", "development", "--admin.endpoint", sandbox.endpoint],
      ...["--storage.connection.secret-key", secret],
    ];
    for (const format of ["json", "yaml"]) {
      const doc = await runFctlProcess(["get", "execution", "leaky", "--details", "-o", format, ...flags]);
      equal(doc.code, 0, doc.stderr);
      assert(!doc.stdout.includes(secret), doc.stdout);
      const nodes: { outputs?: Record<string, unknown> }[] = format === "json"
        ? JSON.parse(doc.stdout)
        : parse(doc.stdout);
      deepEqual(nodes.find((node) => node.outputs)?.outputs, { n: "[redacted]", s: "echoes [redacted] back" });
    }
  } finally {
    await sandbox.close();
  }
});
