import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { Code, ConnectError } from "@connectrpc/connect";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { LaunchPlanSpecSchema } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import type { ParameterSchema } from "../../proto/gen/flyteidl/core/interface_pb.ts";
import { SimpleType } from "../../proto/gen/flyteidl/core/types_pb.ts";
import { WorkflowExecution_Phase } from "../../proto/gen/flyteidl/core/execution_pb.ts";
import { ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { FixedRateUnit } from "../../proto/gen/flyteidl/admin/schedule_pb.ts";
import { id, sleepNode } from "./_test_helpers.ts";
import { datetime as datetimeLiteral, int, simple } from "../_test_literals.ts";
import { SandboxStore } from "./store.ts";

type Spec = Omit<MessageInitShape<typeof LaunchPlanSpecSchema>, "workflowId">;

const integer = simple(SimpleType.INTEGER);
const datetime = simple(SimpleType.DATETIME);
const defaulted = (value: number): MessageInitShape<typeof ParameterSchema> => ({
  var: { type: integer },
  behavior: { case: "default", value: int(value) },
});

/** Workflow `wf` (inputs `x: int`, `at: datetime`) and `none` (no inputs), in the test project. */
function seeded(): SandboxStore {
  const store = new SandboxStore();
  for (const [name, variables] of [["wf", { x: { type: integer }, at: { type: datetime } }], ["none", {}]] as const) {
    const wfId = id(ResourceType.WORKFLOW, name, "v1");
    store.addWorkflow({
      id: wfId,
      spec: { template: { id: wfId, interface: { inputs: { variables } }, nodes: [sleepNode()] } },
    });
  }
  return store;
}

/** What CreateLaunchPlan answers for a new launch plan `lp` of `workflow` with `spec`: "OK" or "Code: message". */
function create(store: SandboxStore, spec: Spec, workflow = "wf"): string {
  try {
    store.addLaunchPlan({
      id: id(ResourceType.LAUNCH_PLAN, "lp", `v${crypto.randomUUID()}`),
      spec: { ...spec, workflowId: id(ResourceType.WORKFLOW, workflow, "v1") },
    });
    return "OK";
  } catch (err) {
    if (err instanceof ConnectError) return `${Code[err.code]}: ${err.rawMessage}`;
    throw err;
  }
}

/** A cron schedule whose kickoff time is `kickoff`, with `x` fixed unless `fixed` is false. */
const cronSchedule = (expression: string, kickoff = "at", fixed = true): Spec => ({
  fixedInputs: { literals: fixed ? { x: int(1) } : {} },
  entityMetadata: {
    schedule: {
      ScheduleExpression: { case: "cronSchedule", value: { schedule: expression } },
      kickoffTimeInputArg: kickoff,
    },
  },
});

Deno.test("CreateLaunchPlan refuses inputs the workflow does not have, as FlyteAdmin does", () => {
  const store = seeded();
  {
    assertEquals(
      create(store, { defaultInputs: { parameters: { y: defaulted(1) } } }),
      "InvalidArgument: unexpected default_input y",
    );
    assertEquals(
      create(store, { fixedInputs: { literals: { y: int(1) } } }),
      "InvalidArgument: unexpected fixed_input y",
    );
    assertEquals(
      create(store, { defaultInputs: { parameters: { x: defaulted(1) } } }, "none"),
      "InvalidArgument: invalid launch plan default inputs, expected none but found 1",
    );
    assertEquals(
      create(store, { fixedInputs: { literals: { x: int(1), y: int(2) } } }, "none"),
      "InvalidArgument: invalid launch plan fixed inputs, expected none but found 2",
    );
    assertEquals(
      create(store, { fixedInputs: { literals: { x: {} } } }),
      "InvalidArgument: missing valid literal in fixed_inputs x",
    );
    assertEquals(
      create(store, { defaultInputs: { parameters: { x: { var: { type: integer } } } } }),
      "InvalidArgument: Invalid variable x in default_inputs - variable has neither default, nor is required. " +
        "One must be specified",
    );
    assertEquals(
      create(store, { defaultInputs: { parameters: { x: { behavior: { case: "required", value: true } } } } }),
      "InvalidArgument: The Variable component of the Parameter x in default_inputs either is missing, or has a " +
        "missing Type",
    );
    assertEquals(
      create(store, {
        defaultInputs: {
          parameters: { x: { var: { type: integer }, behavior: { case: "artifactQuery", value: {} } } },
        },
      }),
      "InvalidArgument: artifact mode not enabled but query found default_inputs x",
    );
    assertEquals(create(store, { fixedInputs: { literals: { x: int(1) } } }), "OK");
  }
});

Deno.test("CreateLaunchPlan refuses a schedule FlyteAdmin cannot run", () => {
  const store = seeded();
  {
    // `x` is required and bound by nothing: no scheduled run could give it.
    assertEquals(
      create(store, cronSchedule("0 * * * *", "at", false)),
      "InvalidArgument: Cannot create a launch plan with a schedule if there is an unbound required input. [x] is " +
        "required",
    );
    // `x` is fixed, so not free; `at` has a default, so nothing is left unbound.
    const noon = datetimeLiteral(43_200n);
    assertEquals(
      create(store, {
        ...cronSchedule("0 * * * *", "x"),
        defaultInputs: { parameters: { at: { var: { type: datetime }, behavior: { case: "default", value: noon } } } },
      }),
      "InvalidArgument: Cannot create a schedule with a KickoffTimeInputArg that does not point to a free input. " +
        "[x] is not free or does not exist.",
    );
    assertEquals(
      create(store, {
        defaultInputs: { parameters: { at: { var: { type: integer }, behavior: { case: "default", value: int(1) } } } },
        fixedInputs: { literals: { x: int(1) } },
        entityMetadata: cronSchedule("0 * * * *", "at").entityMetadata,
      }),
      "InvalidArgument: KickoffTimeInputArg must reference a datetime input. [at] is a [simple:INTEGER]",
    );
    assertEquals(
      create(store, cronSchedule("0 10 * * ? *")),
      "InvalidArgument: Invalid cron expression: expected exactly 5 fields, found 6: [0 10 * * ? *]",
    );
    assertEquals(
      create(store, cronSchedule("*/5 25 * * *")),
      "InvalidArgument: Invalid cron expression: end of range (25) above maximum (23): 25",
    );
    for (const accepted of ["*/5 * * * *", "0 9 * JAN-MAR MON-FRI", "@daily", "@every 90s", "CRON_TZ=UTC 0 0 1 * ?"]) {
      assertEquals(create(store, cronSchedule(accepted)), "OK", accepted);
    }
    // An empty cron expression is no schedule: nothing is checked against it.
    const empty: Spec = { entityMetadata: { schedule: { ScheduleExpression: { case: "cronExpression", value: "" } } } };
    assertEquals(create(store, empty), "OK");
    const rate: Spec = {
      fixedInputs: { literals: { x: int(1) } },
      entityMetadata: {
        schedule: { ScheduleExpression: { case: "rate", value: { value: 5, unit: FixedRateUnit.MINUTE } } },
      },
    };
    assertEquals(
      create(store, rate),
      "InvalidArgument: Cannot create a launch plan with a schedule if there is an unbound required input. [at] is " +
        "required",
    );
  }
});

Deno.test("CreateLaunchPlan refuses bad notifications, labels and launch conditions", () => {
  const store = seeded();
  {
    const notify = (notification: NonNullable<Spec["entityMetadata"]>["notifications"]): Spec => ({
      entityMetadata: { notifications: notification },
    });
    assertEquals(
      create(store, notify([{ phases: [WorkflowExecution_Phase.FAILED] }])),
      "InvalidArgument: invalid value for notification type",
    );
    assertEquals(
      create(store, notify([{ type: { case: "email", value: { recipientsEmail: [] } } }])),
      "InvalidArgument: missing recipients",
    );
    assertEquals(
      create(
        store,
        notify([{
          phases: [WorkflowExecution_Phase.RUNNING],
          type: { case: "slack", value: { recipientsEmail: ["a@example.com"] } },
        }]),
      ),
      "InvalidArgument: invalid value for phase",
    );
    assertEquals(
      create(store, { labels: { values: { "bad key!": "v" } } }),
      "InvalidArgument: invalid label key [bad key!]: [name part must be at most 63 alphanumeric characters, '-', " +
        "'_' or '.', starting and ending with an alphanumeric character]",
    );
    assertEquals(
      create(store, {
        entityMetadata: { launchConditions: { typeUrl: "type.googleapis.com/x.Condition", value: new Uint8Array() } },
      }),
      "InvalidArgument: Launch condition must be empty, found type.googleapis.com/x.Condition",
    );
  }
});
