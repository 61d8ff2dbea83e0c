import { deepStrictEqual as assertEquals, ok as assert, rejects as assertRejects } from "node:assert/strict";
import { SimpleType } from "../proto/gen/flyteidl/core/types_pb.ts";
import { decodeEntity, type RegistrationEntity } from "../src/register/classify.ts";
import { wholeEntity } from "../src/register/_test_helpers.ts";
import { entityId } from "../src/register/entity_id.ts";
import { withExtractedArchive } from "../src/register/package/archive.ts";
import { buildExamplePackage } from "./example_package.ts";

async function withTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "fctl-example-test-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function readPackage(path: string): Promise<RegistrationEntity[]> {
  return await withExtractedArchive(path, async ({ files }) => {
    const entities = [];
    for (const file of files) entities.push(decodeEntity(file.name, await Deno.readFile(file.path)));
    return entities;
  });
}

Deno.test("the example package is laid out like pyflyte's: 3 tasks, 1 workflow, 1 launch plan", async () => {
  await withTempDir(async (dir) => {
    await buildExamplePackage(`${dir}/weather.tgz`);
    const entities = await readPackage(`${dir}/weather.tgz`);
    assertEquals(entities.map((e) => [e.name, e.kind]), [
      ["00_example.weather.fetch_reading_1.pb", "task"],
      ["01_example.weather.to_fahrenheit_1.pb", "task"],
      ["02_example.weather.summarize_1.pb", "task"],
      ["03_example.weather.daily_report_2.pb", "workflow"],
      ["04_example.weather.daily_report_3.pb", "launchPlan"],
    ]);
    for (const entity of entities) {
      const id = entityId(entity);
      assertEquals([id?.project, id?.domain, id?.version], [
        "{{ registration.project }}",
        "{{ registration.domain }}",
        "{{ registration.version }}",
      ]);
    }
    // What registration does not read, read from flyteidl's whole messages of the same bytes.
    const [fetch, convert, , workflow, launchPlan] = entities.map(wholeEntity);
    assert(fetch.kind === "task" && convert.kind === "task");
    const inputs = fetch.spec.template?.interface?.inputs?.variables ?? {};
    assertEquals(inputs.day?.type?.type, { case: "simple", value: SimpleType.INTEGER });
    assert(fetch.spec.description?.shortDescription);
    assertEquals(convert.spec.template?.metadata?.discoverable, true);
    assertEquals(convert.spec.template?.metadata?.discoveryVersion, "1.0");
    assert(workflow.kind === "workflow");
    assertEquals(workflow.spec.template?.nodes.map((n) => n.id), ["n0", "n1", "n2"]);
    assert(launchPlan.kind === "launchPlan");
    assertEquals(launchPlan.spec.spec?.workflowId?.name, "example.weather.daily_report");
  });
});

Deno.test("the example package is reproducible and written atomically", async () => {
  await withTempDir(async (dir) => {
    await buildExamplePackage(`${dir}/a.tgz`);
    await buildExamplePackage(`${dir}/b.tgz`);
    assertEquals(await Deno.readFile(`${dir}/a.tgz`), await Deno.readFile(`${dir}/b.tgz`));
    const names = [];
    for await (const entry of Deno.readDir(dir)) names.push(entry.name);
    assertEquals(names.sort(), ["a.tgz", "b.tgz"], "no temp files left behind");
    await assertRejects(buildExamplePackage(`${dir}/missing/c.tgz`), Deno.errors.NotFound);
  });
});
