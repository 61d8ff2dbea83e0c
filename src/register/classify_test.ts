import { deepStrictEqual as assertEquals, ok as assert, throws as assertThrows } from "node:assert/strict";
import { OperationError } from "../errors.ts";
import { decodeEntity } from "./classify.ts";
import { entityId } from "./entity_id.ts";
import { memberRole } from "./member_role.ts";
import { withExtractedArchive } from "./package/archive.ts";
import { fixture, wholeEntity } from "./_test_helpers.ts";

Deno.test("memberRole reads pyflyte's suffixes, the fast source and everything else", () => {
  assertEquals(memberRole("014_a.b.t1_1.pb"), { role: "entity", expected: "task" });
  assertEquals(memberRole("dir/016_a.b.wf_2.pb"), { role: "entity", expected: "workflow" });
  assertEquals(memberRole("017_a.b.wf_3.pb"), { role: "entity", expected: "launchPlan" });
  assertEquals(memberRole("thing.pb"), { role: "entity", expected: undefined });
  assertEquals(memberRole("core/fasted4a62b5c4359e9aed745fa1197a9ea0.tar.gz"), { role: "fastSource" });
  assertEquals(memberRole("core/._014_a_1.pb"), { role: "other" });
  assertEquals(memberRole(".DS_Store"), { role: "other" });
});

Deno.test("decodes the greet TaskSpec fixture", async () => {
  const name = "69_core.flyte_basics.lp.greet_1.pb";
  const entity = decodeEntity(name, await Deno.readFile(fixture(name)));
  assert(entity.kind === "task");
  assertEquals(entity.name, name);
  assertEquals(entityId(entity)?.name, "core.flyte_basics.lp.greet");
  assertEquals(entityId(entity)?.version, "{{ registration.version }}");
  const whole = wholeEntity(entity);
  assert(whole.kind === "task");
  assertEquals(Object.keys(whole.spec.template?.interface?.inputs?.variables ?? {}).sort(), [
    "am",
    "day_of_week",
    "number",
  ]);
});

Deno.test("decodes the scheduled LaunchPlan fixture", async () => {
  const name = "152_my_cron_scheduled_lp_3.pb";
  const entity = decodeEntity(name, await Deno.readFile(fixture(name)));
  assert(entity.kind === "launchPlan");
  assertEquals(entity.spec.id?.name, "my_cron_scheduled_lp");
  assertEquals(entity.spec.spec?.workflowId?.name, "core.scheduled_workflows.lp_schedules.date_formatter_wf");
  assertEquals(entity.spec.spec?.entityMetadata?.schedule?.kickoffTimeInputArg, "kickoff_time");
  const whole = wholeEntity(entity);
  assert(whole.kind === "launchPlan");
  assertEquals(whole.spec.spec?.entityMetadata?.schedule?.ScheduleExpression.case, "cronSchedule");
});

Deno.test("the content decides when the suffix is wrong or missing", async () => {
  const bytes = await Deno.readFile(fixture("152_my_cron_scheduled_lp_3.pb"));
  assertEquals(decodeEntity("misnamed_1.pb", bytes).kind, "launchPlan");
  assertEquals(decodeEntity("no_suffix.pb", bytes).kind, "launchPlan");
  const task = await Deno.readFile(fixture("69_core.flyte_basics.lp.greet_1.pb"));
  assertEquals(decodeEntity("misnamed_3.pb", task).kind, "task");
});

Deno.test("decodes all four members of valid-register.tgz as task, task, workflow, launch plan", async () => {
  const kinds = await withExtractedArchive(fixture("valid-register.tgz"), async ({ files }) => {
    const kinds = [];
    for (const file of files) kinds.push(decodeEntity(file.name, await Deno.readFile(file.path)).kind);
    return kinds;
  });
  assertEquals(kinds, ["task", "task", "workflow", "launchPlan"]);
});

Deno.test("an undecodable file is an error naming it and saying why each message kind failed", async () => {
  const text = await Deno.readFile(fixture("invalid.tar"));
  assertThrows(() => decodeEntity("bad_1.pb", text), (err: Error) => {
    assert(err instanceof OperationError);
    assert(err.message.startsWith(`cannot decode "bad_1.pb": not a TaskSpec: `), err.message);
    assert(err.message.includes("not a WorkflowSpec: ") && err.message.includes("not a LaunchPlan: "));
    return true;
  });
  assertThrows(() => decodeEntity("empty_2.pb", new Uint8Array()), /not a WorkflowSpec: it has no template.id/);
});

async function kindCounts(archive: string): Promise<Record<string, number>> {
  return await withExtractedArchive(fixture(archive), async ({ files }) => {
    const counts: Record<string, number> = {};
    for (const file of files) {
      const role = memberRole(file.name);
      const kind = role.role === "entity" ? decodeEntity(file.name, await Deno.readFile(file.path)).kind : role.role;
      if (role.role === "entity") assertEquals(kind, role.expected, file.name);
      counts[kind] = (counts[kind] ?? 0) + 1;
    }
    return counts;
  });
}

Deno.test("flytesnacks-core.tgz: 39 tasks, 21 workflows, 24 launch plans and one fast source", async () => {
  assertEquals(await kindCounts("flytesnacks-core.tgz"), { task: 39, workflow: 21, launchPlan: 24, fastSource: 1 });
});

Deno.test("failure-node.tgz: 4 tasks, 6 workflows, 6 launch plans", async () => {
  assertEquals(await kindCounts("failure-node.tgz"), { task: 4, workflow: 6, launchPlan: 6 });
});
