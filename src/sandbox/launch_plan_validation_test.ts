import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { Code, ConnectError } from "@connectrpc/connect";
import { create as createMessage, type MessageInitShape } from "@bufbuild/protobuf";
import { type Literal, LiteralSchema } from "../../proto/gen/flyteidl/core/literals_pb.ts";
import type { LaunchPlanSpecSchema } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import type { ParameterSchema } from "../../proto/gen/flyteidl/core/interface_pb.ts";
import { type LiteralType, SimpleType } from "../../proto/gen/flyteidl/core/types_pb.ts";
import { WorkflowExecution_Phase } from "../../proto/gen/flyteidl/core/execution_pb.ts";
import { ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { FixedRateUnit } from "../../proto/gen/flyteidl/admin/schedule_pb.ts";
import { id, sleepNode } from "./_test_helpers.ts";
import {
  collection,
  collectionOf,
  datetime as datetimeLiteral,
  enumOf,
  int,
  primitive,
  simple,
  str,
  unionOf,
} from "../_test_literals.ts";
import { SandboxStore } from "./store.ts";

type Spec = Omit<MessageInitShape<typeof LaunchPlanSpecSchema>, "workflowId">;

const integer = simple(SimpleType.INTEGER);
const datetime = simple(SimpleType.DATETIME);
const defaulted = (value: number): MessageInitShape<typeof ParameterSchema> => ({
  var: { type: integer },
  behavior: { case: "default", value: int(value) },
});

/** A float, an enum, a union and a list input: what `typed` takes. */
const typedInputs = {
  f: { type: simple(SimpleType.FLOAT) },
  e: { type: enumOf("a", "b") },
  u: { type: unionOf(integer, simple(SimpleType.STRING)) },
  l: { type: collectionOf(integer) },
};

/**
 * Workflow `wf` (inputs `x: int`, `at: datetime`), `none` (no inputs) and `typed` ({@link typedInputs}), in the test
 * project.
 */
function seeded(): SandboxStore {
  const store = new SandboxStore();
  const workflows = [["wf", { x: { type: integer }, at: { type: datetime } }], ["none", {}], ["typed", typedInputs]];
  for (const [name, variables] of workflows as [string, Record<string, { type: LiteralType }>][]) {
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
    // A fixed datetime is a valid Timestamp too (validateLiteralMap), before any check against the workflow.
    assertEquals(
      create(store, { fixedInputs: { literals: { x: datetimeLiteral(-62_135_596_801n) } } }),
      "InvalidArgument: proto: timestamp (seconds:-62135596801) before 0001-01-01",
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

Deno.test("CreateLaunchPlan refuses inputs whose types the workflow's do not take, as FlyteAdmin does", () => {
  const store = seeded();
  {
    const param = (type: LiteralType, value: Literal) => ({
      var: { type },
      behavior: { case: "default" as const, value },
    });
    const defaults = (parameters: Record<string, ReturnType<typeof param>>): Spec => ({
      defaultInputs: { parameters },
    });
    // A fixed input's literal is cast to the workflow's type by the compiler's rules: an integer is no float.
    assertEquals(
      create(store, { fixedInputs: { literals: { x: str("1") } } }),
      "InvalidArgument: invalid fixed_input wrong type x, expected simple:INTEGER, got simple:STRING instead",
    );
    assertEquals(
      create(store, { fixedInputs: { literals: { f: int(1) } } }, "typed"),
      "InvalidArgument: invalid fixed_input wrong type f, expected simple:FLOAT, got simple:INTEGER instead",
    );
    assertEquals(
      create(store, { fixedInputs: { literals: { l: collection(str("a")) } } }, "typed"),
      "InvalidArgument: invalid fixed_input wrong type l, expected collection_type:{simple:INTEGER}, got " +
        "collection_type:{simple:STRING} instead",
    );
    // A default's literal is cast to its own declared type first (FlyteAdmin words it the other way round)...
    assertEquals(
      create(store, defaults({ x: param(integer, str("1")) })),
      "InvalidArgument: Type mismatch for Parameter x in default_inputs has type simple:INTEGER, expected simple:STRING",
    );
    // ...then its declared type to the workflow's.
    assertEquals(
      create(store, defaults({ x: param(simple(SimpleType.STRING), str("1")) })),
      "InvalidArgument: invalid default_input wrong type x, expected simple:STRING, got simple:INTEGER instead",
    );
    // All the defaults are checked against the workflow before any fixed input.
    assertEquals(
      create(store, {
        ...defaults({ x: param(simple(SimpleType.STRING), str("1")) }),
        fixedInputs: { literals: { a: int(1) } },
      }),
      "InvalidArgument: invalid default_input wrong type x, expected simple:STRING, got simple:INTEGER instead",
    );
    // A literal whose type the compiler cannot infer (no value at all).
    assertEquals(
      create(store, defaults({ x: param(integer, createMessage(LiteralSchema)) })),
      "InvalidArgument: Failed to validate literal type for [x] with err: got unknown literal type: [<nil>].\n" +
        "Suggested solution: Please update all your Flyte deployment images to the latest version and try again",
    );
    assertEquals(
      create(store, {
        fixedInputs: { literals: { x: createMessage(LiteralSchema, { value: { case: "scalar", value: {} } }) } },
      }),
      "InvalidArgument: Failed to validate literal type for [x] with err: got unknown literal type: [<nil>].\n" +
        "Suggested solution: Please update all your Flyte deployment images to the latest version and try again",
    );
    // A datetime default must be a Timestamp Go accepts; one in a union is none to it.
    assertEquals(
      create(store, defaults({ at: param(datetime, datetimeLiteral(-62_135_596_801n)) })),
      "InvalidArgument: proto: timestamp (seconds:-62135596801) before 0001-01-01",
    );
    assertEquals(
      create(store, defaults({ at: param(datetime, datetimeLiteral(0n, 1_000_000_000)) })),
      "InvalidArgument: proto: timestamp (nanos:1000000000) has out-of-range nanos",
    );
    const inUnion = createMessage(LiteralSchema, {
      value: {
        case: "scalar",
        value: { value: { case: "union", value: { value: datetimeLiteral(0n), type: datetime } } },
      },
    });
    assertEquals(
      create(store, defaults({ at: param(datetime, inUnion) })),
      "InvalidArgument: proto: invalid nil Timestamp",
    );
    // FlyteAdmin's check of the defaults ends at a datetime one: a default after it (in the order its map yields them,
    // name order here) is not checked against its own declared type, only the declared type against the workflow's.
    assertEquals(
      create(store, defaults({ at: param(datetime, datetimeLiteral(0n)), x: param(integer, str("1")) })),
      "OK",
    );
    // What the compiler casts is accepted: a string for an enum, an integer for a union with one integer variant, a
    // list of integers for one.
    assertEquals(
      create(store, {
        ...defaults({ e: param(simple(SimpleType.STRING), str("a")), u: param(typedInputs.u.type, int(1)) }),
        fixedInputs: { literals: { f: primitive({ case: "floatValue", value: 1.5 }), l: collection(int(1), int(2)) } },
      }, "typed"),
      "OK",
    );
    assertEquals(create(store, { fixedInputs: { literals: { e: str("b"), u: str("s") } } }, "typed"), "OK");
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
    // `x` is free, but an integer; `at` has a default.
    assertEquals(
      create(store, {
        defaultInputs: { parameters: { at: { var: { type: datetime }, behavior: { case: "default", value: noon } } } },
        entityMetadata: cronSchedule("0 * * * *", "x").entityMetadata,
      }),
      "InvalidArgument: KickoffTimeInputArg must reference a datetime input. [x] is a [simple:INTEGER]",
    );
    // A default declared as a union of a datetime casts to the workflow's datetime, but is no datetime to the schedule.
    const datetimeUnion = unionOf(datetime);
    const noonInUnion = createMessage(LiteralSchema, {
      value: { case: "scalar", value: { value: { case: "union", value: { value: noon, type: datetime } } } },
    });
    assertEquals(
      create(store, {
        defaultInputs: {
          parameters: { at: { var: { type: datetimeUnion }, behavior: { case: "default", value: noonInUnion } } },
        },
        fixedInputs: { literals: { x: int(1) } },
        entityMetadata: cronSchedule("0 * * * *", "at").entityMetadata,
      }),
      "InvalidArgument: KickoffTimeInputArg must reference a datetime input. [at] is a " +
        "[union_type:{variants:{simple:DATETIME}}]",
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
      "InvalidArgument: invalid label key [bad key!]: [name part must consist of alphanumeric characters, '-', " +
        "'_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or " +
        "'123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')]",
    );
    assertEquals(
      create(store, {
        entityMetadata: { launchConditions: { typeUrl: "type.googleapis.com/x.Condition", value: new Uint8Array() } },
      }),
      "InvalidArgument: Launch condition must be empty, found type.googleapis.com/x.Condition",
    );
  }
});
