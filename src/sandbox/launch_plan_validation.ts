/**
 * FlyteAdmin's checks of a launch plan's spec at CreateLaunchPlan, after its identifiers, project and domain: its
 * labels, the fixed and default inputs against each other and the workflow's interface (each default's literal cast to
 * its declared type, each declared type and fixed literal cast to the workflow's, by the compiler's rules), the
 * schedule (no unbound required input, a datetime kickoff input, a cron expression its cron parser accepts), the
 * notifications and the launch conditions. Each refusal is INVALID_ARGUMENT with FlyteAdmin's message; where
 * FlyteAdmin would name whichever bad input its map iteration meets first, the sandbox names the first in name order.
 *
 * @module
 */
import { create } from "@bufbuild/protobuf";
import type { LaunchPlanSpec } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import type { Literal } from "../../proto/gen/flyteidl/core/literals_pb.ts";
import { type LiteralType, LiteralTypeSchema, SimpleType } from "../../proto/gen/flyteidl/core/types_pb.ts";
import type { Parameter, VariableMap } from "../../proto/gen/flyteidl/core/interface_pb.ts";
import { cronSpecError } from "./cron_spec.ts";
import { literalTypeOf } from "./execution_inputs.ts";
import { goText } from "./go_text.ts";
import { validateLabels } from "./labels.ts";
import { areTypesCastable } from "./type_casting.ts";
import {
  invalidArgument as invalid,
  invalidLiteralType,
  sortedEntries,
  validateDatetime,
  validateLiteralMap,
  validateNotifications,
} from "./shared_validation.ts";

/**
 * Checks what FlyteAdmin's ValidateLaunchPlan checks of `spec` beyond identifiers (in its order), given the
 * workflow's inputs; `expected` is what {@link expectedInputs} makes of them (the default inputs augmented with
 * the workflow's unbound inputs, as required), which the schedule is checked against.
 *
 * @throws {ConnectError} INVALID_ARGUMENT with FlyteAdmin's message
 */
export function validateLaunchPlanSpec(
  spec: LaunchPlanSpec,
  workflowInputs: VariableMap | undefined,
  expected: Readonly<Record<string, Parameter>>,
): void {
  validateLabels(spec.labels?.values ?? {});
  validateLiteralMap(spec.fixedInputs?.literals ?? {}, "fixed_inputs");
  checkDefaultInputs(spec);
  checkAgainstWorkflow(spec, workflowInputs);
  checkSchedule(spec, expected);
  const metadata = spec.entityMetadata;
  if (metadata) {
    validateNotifications(metadata.notifications);
    if (metadata.launchConditions) {
      throw invalid(`Launch condition must be empty, found ${metadata.launchConditions.typeUrl}`);
    }
  }
}

function checkDefaultInputs(spec: LaunchPlanSpec): void {
  const parameters = sortedEntries(spec.defaultInputs?.parameters ?? {});
  // Artifacts are a feature FlyteAdmin leaves off by default: any query refuses the map before the rest is checked.
  for (const [name, parameter] of parameters) {
    if (parameter.behavior.case === "artifactQuery") {
      throw invalid(`artifact mode not enabled but query found default_inputs ${name}`);
    }
  }
  for (const [name, parameter] of parameters) {
    if (name === "") throw invalid("missing key in default_inputs");
    if (!parameter.var?.type) {
      throw invalid(
        `The Variable component of the Parameter ${name} in default_inputs either is missing, or has a missing Type`,
      );
    }
    const { behavior } = parameter;
    if (behavior.case !== "default" && !(behavior.case === "required" && behavior.value)) {
      throw invalid(
        `Invalid variable ${name} in default_inputs - variable has neither default, nor is required. ` +
          "One must be specified",
      );
    }
    if (behavior.case !== "default") continue;
    const declared = parameter.var.type;
    const literalType = typeOfLiteral(name, behavior.value);
    if (!areTypesCastable(literalType, declared)) {
      // FlyteAdmin's words: the declared type is the one it "has", the literal's the one "expected".
      throw invalid(
        `Type mismatch for Parameter ${name} in default_inputs has type ${typeString(declared)}, expected ${
          typeString(literalType)
        }`,
      );
    }
    if (declared.type.case === "simple" && declared.type.value === SimpleType.DATETIME) {
      validateDatetime(behavior.value);
      // FlyteAdmin returns from its loop with the datetime's verdict: the parameters after it are not checked here.
      return;
    }
  }
}

/** The type of a literal as the compiler infers it, or INVALID_ARGUMENT where it infers none, as FlyteAdmin's
 * ValidateLiteralType refuses that. */
function typeOfLiteral(name: string, literal: Literal): LiteralType {
  const type = literalTypeOf(literal);
  if (!type) throw invalidLiteralType(name);
  return type;
}

/** A type as Go's `String()` prints it (`<nil>` for none). */
const typeString = (type: LiteralType | undefined) => type ? goText(LiteralTypeSchema, type) : "<nil>";

/**
 * Every default and fixed input names a workflow input whose type takes it (a default's declared type, a fixed
 * input's literal's type, cast by the compiler's rules); a workflow without inputs takes none. FlyteAdmin's
 * checkAndFetchExpectedInputForLaunchPlan: all the defaults, then all the fixed inputs.
 */
function checkAgainstWorkflow(spec: LaunchPlanSpec, workflowInputs: VariableMap | undefined): void {
  const defaults = sortedEntries(spec.defaultInputs?.parameters ?? {});
  const fixed = sortedEntries(spec.fixedInputs?.literals ?? {});
  const variables = workflowInputs?.variables ?? {};
  if (Object.keys(variables).length === 0) {
    if (defaults.length > 0) {
      throw invalid(`invalid launch plan default inputs, expected none but found ${defaults.length}`);
    }
    if (fixed.length > 0) throw invalid(`invalid launch plan fixed inputs, expected none but found ${fixed.length}`);
    return;
  }
  const workflowType = (name: string) => variables[name].type ?? create(LiteralTypeSchema);
  for (const [name, parameter] of defaults) {
    if (!Object.hasOwn(variables, name)) throw invalid(`unexpected default_input ${name}`);
    const declared = parameter.var?.type ?? create(LiteralTypeSchema);
    if (!areTypesCastable(declared, workflowType(name))) {
      throw invalid(
        `invalid default_input wrong type ${name}, expected ${typeString(parameter.var?.type)}, got ${
          typeString(variables[name].type)
        } instead`,
      );
    }
  }
  for (const [name, literal] of fixed) {
    if (!Object.hasOwn(variables, name)) throw invalid(`unexpected fixed_input ${name}`);
    const literalType = typeOfLiteral(name, literal);
    if (!areTypesCastable(literalType, workflowType(name))) {
      throw invalid(
        `invalid fixed_input wrong type ${name}, expected ${typeString(variables[name].type)}, got ${
          typeString(literalType)
        } instead`,
      );
    }
  }
}

function checkSchedule(spec: LaunchPlanSpec, expected: Readonly<Record<string, Parameter>>): void {
  const schedule = spec.entityMetadata?.schedule;
  const expression = schedule?.ScheduleExpression;
  // An empty cron expression is no schedule, as FlyteAdmin reads it.
  if (!schedule || expression?.case === undefined || (expression.case === "cronExpression" && !expression.value)) {
    return;
  }
  const kickoff = schedule.kickoffTimeInputArg;
  for (const [name, parameter] of sortedEntries(expected)) {
    if (parameter.behavior.case === "required" && parameter.behavior.value && name !== kickoff) {
      throw invalid(
        `Cannot create a launch plan with a schedule if there is an unbound required input. [${name}] is required`,
      );
    }
  }
  if (kickoff !== "") {
    const parameter = Object.hasOwn(expected, kickoff) ? expected[kickoff] : undefined;
    if (!parameter) {
      throw invalid(
        "Cannot create a schedule with a KickoffTimeInputArg that does not point to a free input. " +
          `[${kickoff}] is not free or does not exist.`,
      );
    }
    const type = parameter.var?.type;
    if (!(type?.type.case === "simple" && type.type.value === SimpleType.DATETIME)) {
      throw invalid(`KickoffTimeInputArg must reference a datetime input. [${kickoff}] is a [${typeString(type)}]`);
    }
  }
  const cron = expression.case === "cronExpression"
    ? expression.value
    : expression.case === "cronSchedule"
    ? expression.value.schedule
    : "";
  if (cron !== "") {
    const error = cronSpecError(cron);
    if (error !== undefined) throw invalid(`Invalid cron expression: ${error}`);
  }
}
