/**
 * The inputs an execution must be given, and those it may not: a spec that leaves out a required one, or sets one
 * its launch plan fixes, is refused before anything is uploaded or created, a dry run too. FlyteAdmin would refuse
 * the execution itself (`expected_inputs <name> missing`, `fixed_inputs <name> cannot be overridden`), in its own
 * words, after the uploads.
 *
 * @module
 */
import { quote } from "../errors.ts";
import { RESOURCE_TYPE } from "../get/resource_type.ts";
import type { InputValue } from "./input_value.ts";
import { keyPath } from "./input_value.ts";
import { LiteralValueError } from "./literals.ts";

/** The task or launch plan an execution runs, and the inputs it has no value for unless given. */
export interface RequiredInputs {
  id: { resourceType: number; name: string };
  version: string;
  /** A task's every input (FlyteAdmin runs it through a launch plan that requires them all); a launch plan's inputs marked required. */
  required: readonly string[];
}

/**
 * Refuses `inputs` when they leave out one of `entity.required`, on one line naming what is missing and `file`.
 *
 * @throws {LiteralValueError} naming the inputs not set
 */
export function checkRequiredInputs(
  inputs: ReadonlyMap<string, InputValue>,
  file: string,
  entity: RequiredInputs,
): void {
  const missing = entity.required.filter((name) => !inputs.has(name)).sort();
  if (missing.length === 0) return;
  const why = entity.id.resourceType === RESOURCE_TYPE.TASK
    ? `every input of task ${quote(entity.id.name)} version ${entity.version} is required`
    : `launch plan ${quote(entity.id.name)} version ${entity.version} has no default for ${
      missing.length === 1 ? "it" : "them"
    }`;
  if (missing.length === 1) {
    throw new LiteralValueError(
      keyPath("inputs", missing[0]),
      `required input not set: ${why}; give it a value in ${quote(file)}`,
    );
  }
  throw new LiteralValueError(
    "inputs",
    `required inputs not set: ${missing.join(", ")}: ${why}; give them values in ${quote(file)}`,
  );
}

/**
 * Refuses `inputs` when they set one of `fixed` (the inputs the launch plan fixes), on one line naming it and the
 * inputs that can be set.
 *
 * @throws {LiteralValueError} naming the fixed input
 */
export function checkFixedInputs(
  inputs: ReadonlyMap<string, InputValue>,
  entity: RequiredInputs & { types: Readonly<Record<string, unknown>> },
  fixed: readonly string[],
): void {
  const name = [...inputs.keys()].find((key) => fixed.includes(key));
  if (name === undefined) return;
  const names = Object.keys(entity.types).sort();
  const valid = names.length > 0 ? `valid inputs: ${names.join(", ")}` : "it takes no inputs";
  throw new LiteralValueError(
    keyPath("inputs", name),
    `fixed by launch plan ${quote(entity.id.name)} version ${entity.version}, it cannot be set; ${valid}`,
  );
}
