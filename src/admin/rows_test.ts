/**
 * Rows (proto/client/fctl/rows/) against the flyteidl messages they mirror. Each row call is a method of
 * flyteidl's AdminService with the same name; its response row has, field by field and down every message it
 * contains, flyteidl's numbers, names and wire types, so the admin's bytes decode into it as into flyteidl's
 * message, and an enum it declares again names each number as flyteidl's does; its request row is flyteidl's request
 * whole, so what fctl sends is the same bytes. Then, on real entities in the sandbox, each kind's tables show the
 * same cells from rows as from whole messages.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { create, type DescService, type MessageInitShape } from "@bufbuild/protobuf";
import { AdminService } from "../../proto/gen/flyteidl/service/admin_pb.ts";
import { AdminService as TaskRowCalls } from "../../proto/gen/fctl/task_row_calls_pb.ts";
import { AdminService as LaunchPlanRowCalls } from "../../proto/gen/fctl/launch_plan_row_calls_pb.ts";
import { AdminService as WorkflowRowCalls } from "../../proto/gen/fctl/workflow_row_calls_pb.ts";
import { AdminService as ExecutionRowCalls } from "../../proto/gen/fctl/execution_row_calls_pb.ts";
import { ObjectGetRequestRowSchema, ResourceListRequestRowSchema } from "../../proto/gen/fctl/rows/common_rows_pb.ts";
import { TaskRowSchema } from "../../proto/gen/fctl/rows/task_rows_pb.ts";
import { FixedRateUnitRowSchema, LaunchPlanStateRowSchema } from "../../proto/gen/fctl/rows/launch_plan_rows_pb.ts";
import { WorkflowExecutionRow_PhaseSchema } from "../../proto/gen/fctl/rows/execution_rows_pb.ts";
import { WorkflowExecution_PhaseSchema } from "../../proto/gen/flyteidl/core/execution_pb.ts";
import {
  LaunchPlanSpecSchema,
  LaunchPlanState,
  LaunchPlanStateSchema,
} from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import { FixedRateUnit, FixedRateUnitSchema, type ScheduleSchema } from "../../proto/gen/flyteidl/admin/schedule_pb.ts";
import { ObjectGetRequestSchema } from "../../proto/gen/flyteidl/admin/common_pb.ts";
import { TaskSchema } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import { IdentifierSchema } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { SimpleType } from "../../proto/gen/flyteidl/core/types_pb.ts";
import { TASK_COLUMNS } from "../tasks/task_columns.ts";
import { LAUNCH_PLAN_COLUMNS, LAUNCH_PLAN_LIST_COLUMNS } from "../launchplans/launch_plan_columns.ts";
import { WORKFLOW_COLUMNS, WORKFLOW_VERSION_COLUMNS } from "../workflows/workflow_columns.ts";
import { EXECUTION_COLUMNS } from "../executions/execution_columns.ts";
import type { Column } from "../output/table.ts";
import { startSandbox } from "../sandbox/mod.ts";
import { sleepNode } from "../sandbox/_test_helpers.ts";
import { datetime as datetimeLiteral, int, simple, str } from "../_test_literals.ts";
import { registerCore, withFullAdmin } from "../../tests/entity_fixtures.ts";
import { createAdminClient, ROW_METHOD_FILES } from "./client.ts";
import { enumProblems, mirrorProblems } from "./_test_mirror.ts";

/** Every row calls file, by its key in ROW_METHOD_FILES. */
const ROW_CALL_FILES: Record<string, DescService> = {
  tasks: TaskRowCalls,
  launchPlans: LaunchPlanRowCalls,
  workflows: WorkflowRowCalls,
  executions: ExecutionRowCalls,
};

Deno.test("each row call is flyteidl's method of that name, its request whole, its response read as flyteidl's", () => {
  deepEqual(
    Object.keys(ROW_METHOD_FILES).sort(),
    Object.values(ROW_CALL_FILES).flatMap((calls) => calls.methods.map((m) => m.localName)).sort(),
  );
  for (const [file, calls] of Object.entries(ROW_CALL_FILES)) {
    equal(calls.typeName, AdminService.typeName);
    for (const method of calls.methods) {
      equal(ROW_METHOD_FILES[method.localName as keyof typeof ROW_METHOD_FILES], file);
      const theirs = AdminService.methods.find((m) => m.name === method.name);
      ok(theirs, `flyteidl's AdminService has no ${method.name}`);
      equal(method.methodKind, theirs.methodKind);
      deepEqual(mirrorProblems(method.input, theirs.input, true), [], `${method.name}'s request`);
      deepEqual(mirrorProblems(method.output, theirs.output, false), [], `${method.name}'s response`);
    }
  }
});

Deno.test("the mirror check finds a field flyteidl has elsewhere or not at all, and a request that leaves one out", () => {
  // Read against a message it does not mirror, a row's fields are at numbers that message lacks or names otherwise.
  ok(mirrorProblems(ResourceListRequestRowSchema, IdentifierSchema, false).length > 0);
  // A whole request row passes as a request; a response row, which leaves fields out, does not.
  deepEqual(mirrorProblems(ObjectGetRequestRowSchema, ObjectGetRequestSchema, true), []);
  ok(mirrorProblems(TaskRowSchema, TaskSchema, true).some((problem) => problem.includes("short_description")));
  deepEqual(mirrorProblems(TaskRowSchema, TaskSchema, false), []);
  // An enum declared again names each number as flyteidl's does; another enum's names are found.
  deepEqual(enumProblems(LaunchPlanStateRowSchema, LaunchPlanStateSchema, "state"), []);
  deepEqual(enumProblems(FixedRateUnitRowSchema, FixedRateUnitSchema, "unit"), []);
  deepEqual(enumProblems(WorkflowExecutionRow_PhaseSchema, WorkflowExecution_PhaseSchema, "phase"), []);
  ok(enumProblems(LaunchPlanStateRowSchema, FixedRateUnitSchema, "state").length > 0);
});

/** Every cell of a table, row by row. */
function cells<Row>(columns: readonly Column<Row>[], rows: readonly Row[]): unknown[][] {
  return rows.map((row) => columns.map((column) => column.cell(row)));
}

Deno.test("the task table shows the same cells from rows as from whole tasks, for a real package", async () => {
  const sandbox = await startSandbox();
  const client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
  try {
    await registerCore(sandbox, ["v1"]);
    const request = { id: { project: "flytesnacks", domain: "development" }, limit: 100 };
    const [whole, rows] = [await client.admin.listTasks(request), await client.rows.listTasks(request)];
    ok(whole.tasks.length > 10, `${whole.tasks.length} tasks registered`);
    deepEqual(cells(TASK_COLUMNS, rows.tasks), cells(TASK_COLUMNS, whole.tasks));
    // Some of them have inputs with descriptions, so that column is compared on more than empty cells.
    ok(cells(TASK_COLUMNS, rows.tasks).some((row) => String(row[3]).length > 0));
    const id = whole.tasks[0].id!;
    deepEqual(
      cells(TASK_COLUMNS, [await client.rows.getTask({ id })]),
      cells(TASK_COLUMNS, [await client.admin.getTask({ id })]),
    );
  } finally {
    client.close();
    await sandbox.close();
  }
});

Deno.test("the launch plan tables show the same cells from rows as from whole launch plans, schedules included", async () => {
  const sandbox = await startSandbox();
  const client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
  try {
    await registerCore(sandbox, ["v1"]);
    const scope = { project: "flytesnacks", domain: "development" };
    // Every kind of schedule, and an active version, through the admin's own API: the core package has neither.
    const schedules: MessageInitShape<typeof ScheduleSchema>[] = [
      { ScheduleExpression: { case: "cronSchedule", value: { schedule: "0 * * * *", offset: "P1D" } } },
      { ScheduleExpression: { case: "rate", value: { value: 5, unit: FixedRateUnit.HOUR } }, kickoffTimeInputArg: "t" },
      { ScheduleExpression: { case: "cronExpression", value: "*/5 * * * *" } },
    ];
    const name = "core.flyte_basics.basic_workflow.my_wf";
    // The schedules run a workflow whose one input, `t`, a datetime, has a default and can be the kickoff time:
    // FlyteAdmin refuses a schedule that leaves a required input unbound or names a kickoff input of another type.
    const datetime = simple(SimpleType.DATETIME);
    const workflowId = { resourceType: 2, ...scope, name: "scheduled_wf", version: "v1" };
    sandbox.store.addWorkflow({
      id: workflowId,
      spec: {
        template: {
          id: workflowId,
          interface: { inputs: { variables: { t: { type: datetime } } } },
          nodes: [sleepNode()],
        },
      },
    });
    const noon = datetimeLiteral(43_200n);
    await withFullAdmin(sandbox, async (admin) => {
      const id = { resourceType: 3, ...scope, name, version: "v1" };
      await admin.updateLaunchPlan({ id, state: LaunchPlanState.ACTIVE });
      for (const [i, schedule] of schedules.entries()) {
        const spec = create(LaunchPlanSpecSchema, {
          workflowId,
          defaultInputs: { parameters: { t: { var: { type: datetime }, behavior: { case: "default", value: noon } } } },
          entityMetadata: { schedule },
        });
        await admin.createLaunchPlan({ id: { ...id, name: `scheduled_${i}` }, spec });
      }
    });
    const request = { id: scope, limit: 100 };
    const [whole, rows] = [await client.admin.listLaunchPlans(request), await client.rows.listLaunchPlans(request)];
    ok(whole.launchPlans.length > 10, `${whole.launchPlans.length} launch plans registered`);
    for (const columns of [LAUNCH_PLAN_LIST_COLUMNS, LAUNCH_PLAN_COLUMNS]) {
      deepEqual(cells(columns, rows.launchPlans), cells(columns, whole.launchPlans));
    }
    // STATE, SCHEDULE, INPUTS and OUTPUTS are compared on more than their empty or first value.
    const shown = cells(LAUNCH_PLAN_COLUMNS, rows.launchPlans);
    ok(shown.some((row) => row[2] === "ACTIVE"));
    deepEqual(shown.map((row) => row[3]).filter(Boolean).sort(), [
      "cron(*/5 * * * *)",
      "cron(0 * * * *) offset P1D",
      "rate(5 HOUR) kickoff input t",
    ]);
    ok(shown.some((row) => String(row[4]).length > 0) && shown.some((row) => String(row[5]).length > 0));
    for (const lp of whole.launchPlans.filter((lp) => lp.id?.name.startsWith("scheduled_") || lp.id?.name === name)) {
      const id = lp.id!;
      deepEqual(
        cells(LAUNCH_PLAN_COLUMNS, [await client.rows.getLaunchPlan({ id })]),
        cells(LAUNCH_PLAN_COLUMNS, [await client.admin.getLaunchPlan({ id })]),
      );
    }
  } finally {
    client.close();
    await sandbox.close();
  }
});

Deno.test("the workflow tables show the same cells from rows as from whole workflows, listed and read one by one", async () => {
  const sandbox = await startSandbox();
  const client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
  try {
    await registerCore(sandbox, ["v1", "v2"]);
    const request = { id: { project: "flytesnacks", domain: "development" }, limit: 100 };
    const [whole, rows] = [await client.admin.listWorkflows(request), await client.rows.listWorkflows(request)];
    ok(whole.workflows.length > 10, `${whole.workflows.length} workflows registered`);
    for (const columns of [WORKFLOW_VERSION_COLUMNS, WORKFLOW_COLUMNS]) {
      deepEqual(cells(columns, rows.workflows), cells(columns, whole.workflows));
    }
    // One workflow read whole holds its compiled graph; its row, the interface only: the same cells, inputs and
    // outputs among them.
    const [ones, wholes] = [[], []] as [unknown[][], unknown[][]];
    for (const { id } of whole.workflows) {
      ones.push(...cells(WORKFLOW_COLUMNS, [await client.rows.getWorkflow({ id })]));
      wholes.push(...cells(WORKFLOW_COLUMNS, [await client.admin.getWorkflow({ id })]));
    }
    deepEqual(ones, wholes);
    ok(ones.some((row) => String(row[2]).length > 0) && ones.some((row) => String(row[3]).length > 0));
  } finally {
    client.close();
    await sandbox.close();
  }
});

Deno.test("the execution table shows the same cells from rows as from whole executions: succeeded, failed, aborted, running", async () => {
  let now = Date.parse("2026-03-01T00:00:00Z");
  const sandbox = await startSandbox({ now: () => new Date(now) });
  const client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
  try {
    await registerCore(sandbox, ["v1"]);
    const scope = { project: "flytesnacks", domain: "development" };
    sandbox.store.executions.plan({ execution: "good" }, { startAfter: 1000, after: 63_000 });
    sandbox.store.executions.plan({ execution: "bad" }, { outcome: "FAILED", after: 4000, message: "OOMKilled" });
    sandbox.store.executions.plan({ execution: "stuck" }, { outcome: "never" });
    sandbox.store.executions.plan({ execution: "later" }, { outcome: "never" });
    // The workflow's required inputs.
    const literals = { a: int(3), b: str("hi") };
    await withFullAdmin(sandbox, async (admin) => {
      for (const name of ["good", "bad", "stuck", "later"]) {
        const launchPlan = { resourceType: 3, ...scope, name: "core.flyte_basics.basic_workflow.my_wf", version: "v1" };
        // One was scheduled, so that SCHEDULED TIME is compared on more than empty cells.
        const metadata = name === "later" ? { scheduledAt: { seconds: BigInt(now / 1000) + 3600n } } : undefined;
        await admin.createExecution({ ...scope, name, spec: { launchPlan, metadata }, inputs: { literals } });
      }
      now += 70_000;
      await admin.terminateExecution({ id: { ...scope, name: "stuck" }, cause: "stopped by the test" });
    });
    const request = { id: scope, limit: 100 };
    const [whole, rows] = [await client.admin.listExecutions(request), await client.rows.listExecutions(request)];
    deepEqual(cells(EXECUTION_COLUMNS, rows.executions), cells(EXECUTION_COLUMNS, whole.executions));
    const shown = cells(EXECUTION_COLUMNS, rows.executions);
    deepEqual(shown.map((row) => [row[0], row[4]]).sort(), [
      ["bad", "FAILED"],
      ["good", "SUCCEEDED"],
      ["later", "RUNNING"],
      ["stuck", "ABORTED"],
    ]);
    // The error, the abort cause and the scheduled time are each compared on a cell that shows one; the outputs of
    // the one that succeeded, in the oneof with them, are left out of its row.
    ok(shown.some((row) => String(row[9]).includes("OOMKilled")));
    ok(shown.some((row) => row[8] === "stopped by the test"));
    ok(shown.some((row) => row[5] !== ""));
    const outputs = whole.executions.filter((e) => /^output/.test(e.closure?.outputResult.case ?? ""));
    deepEqual(outputs.map((e) => e.id?.name), ["good"]);
    for (const { id } of whole.executions) {
      deepEqual(
        cells(EXECUTION_COLUMNS, [await client.rows.getExecution({ id })]),
        cells(EXECUTION_COLUMNS, [await client.admin.getExecution({ id })]),
      );
    }
  } finally {
    client.close();
    await sandbox.close();
  }
});
