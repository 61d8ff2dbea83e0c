/**
 * A connection's uploads use the configuration's storage, as the command line's do: against an admin with no data
 * proxy, `registerFiles` puts the fast-registration source, and `createExecution` a local file input, into the
 * storage the `storage.*` options configure, given `flyte.uploads()`.
 */
import { equal, match, ok as assert } from "node:assert/strict";
import { connect, createExecution, type ExecutionSpec, inputValue, registerFiles } from "../mod.ts";
import { startSandbox } from "../testing.ts";
import { BlobType_BlobDimensionality } from "../types.ts";
import { taskSpec } from "./task_fixtures.ts";
import { fixture } from "./helpers.ts";

const SCOPE = { project: "flytesnacks", domain: "development" };

Deno.test("connect: uploads() gives registerFiles and createExecution the configured storage when the admin has no data proxy", async () => {
  const sandbox = await startSandbox({ dataProxy: false });
  const dir = await Deno.makeTempDir({ prefix: "fctl-library-uploads-" });
  try {
    await using flyte = await connect({
      flags: {
        "admin.endpoint": sandbox.endpoint,
        "admin.insecure": true,
        "storage.type": "mem",
        "storage.container": "library-bucket",
        "storage.allow-local-fallback": true,
      },
      env: {},
    });
    const uploads = flyte.uploads();
    const options = { paths: [fixture("flytesnacks-core.tgz")], archive: true, ...SCOPE, version: "v1" };
    const report = await registerFiles(flyte.client, options, undefined, uploads);
    equal(report.error, undefined);
    equal(report.failed, 0);
    equal(report.source?.via, "storage");
    match(report.source?.location ?? "", /^mem:\/\/library-bucket\//);

    const blob = { blob: { dimensionality: BlobType_BlobDimensionality.SINGLE } };
    const task = taskSpec({
      name: "lib.upload",
      version: "v1",
      inputs: { f: { literalType: { type: { case: "blob", value: blob.blob } } } },
    });
    sandbox.store.addTask({ id: task.template!.id!, spec: task });
    await Deno.writeTextFile(`${dir}/input.txt`, "hello");
    const spec: ExecutionSpec = {
      file: "made in code",
      task: "lib.upload",
      inputs: new Map([["f", inputValue(`${dir}/input.txt`)]]),
      envs: new Map(),
    };
    const created = await createExecution(flyte.client, { ...SCOPE, spec, upload: uploads });
    assert(created.id, "created");
    match(JSON.stringify(created.request), /"uri":"mem:\/\/library-bucket\/[^"]*input\.txt"/);
  } finally {
    await sandbox.close();
    await Deno.remove(dir, { recursive: true });
  }
});
