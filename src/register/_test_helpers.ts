/**
 * Shared helpers for the register tests.
 *
 * @module
 */
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { packTar, type TarEntry } from "modern-tar";
import { type DescMessage, fromBinary, toBinary } from "@bufbuild/protobuf";
import { type TaskSpec, TaskSpecSchema } from "../../proto/gen/flyteidl/admin/task_pb.ts";
import { type WorkflowSpec, WorkflowSpecSchema } from "../../proto/gen/flyteidl/admin/workflow_pb.ts";
import { type LaunchPlan, LaunchPlanSchema } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import {
  RegistrationLaunchPlanSchema,
  RegistrationTaskSpecSchema,
  RegistrationWorkflowSpecSchema,
} from "../../proto/gen/fctl/registration/entities_pb.ts";
import type { RegistrationEntity } from "./classify.ts";

/** Path of a file from flytectl's test data (see `../shared/fixtures/flytectl/README.md`). */
export function fixture(name: string): string {
  return fileURLToPath(new URL(`../../../shared/fixtures/flytectl/${name}`, import.meta.url));
}

/** Writes a tar archive of `entries` into a new temp dir and returns its path. */
export async function writeTar(name: string, entries: TarEntry[]): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "fctl-register-test-" });
  const path = `${dir}/${name}`;
  await Deno.writeFile(path, await packTar(entries));
  return path;
}

/** Removes what {@link writeTar} created. */
export async function removeTar(path: string): Promise<void> {
  await Deno.remove(dirname(path), { recursive: true });
}

/** Names of the extraction temp dirs currently in the system temp dir. */
export async function extractionDirs(): Promise<Set<string>> {
  const probe = await Deno.makeTempDir({ prefix: "fctl-probe-" });
  const root = dirname(probe);
  await Deno.remove(probe);
  const names = new Set<string>();
  for await (const entry of Deno.readDir(root)) {
    if (entry.name.startsWith("fctl-register-") && !entry.name.startsWith("fctl-register-test-")) {
      names.add(entry.name);
    }
  }
  return names;
}

/** An entity as flyteidl's whole message, for a test to read or change what registration does not declare. */
export type WholeEntity =
  | { kind: "task"; name: string; spec: TaskSpec }
  | { kind: "workflow"; name: string; spec: WorkflowSpec }
  | { kind: "launchPlan"; name: string; spec: LaunchPlan };

/** The message of each kind: flyteidl's whole one, and the one registration decodes into (same wire format). */
export const ENTITY_SCHEMAS: Readonly<
  Record<RegistrationEntity["kind"], { whole: DescMessage; registration: DescMessage }>
> = {
  task: { whole: TaskSpecSchema, registration: RegistrationTaskSpecSchema },
  workflow: { whole: WorkflowSpecSchema, registration: RegistrationWorkflowSpecSchema },
  launchPlan: { whole: LaunchPlanSchema, registration: RegistrationLaunchPlanSchema },
};

/** `entity` as flyteidl's whole message: what its bytes (with the fields registration does not declare) say. */
export function wholeEntity(entity: RegistrationEntity): WholeEntity {
  const { whole, registration } = ENTITY_SCHEMAS[entity.kind];
  return { ...entity, spec: fromBinary(whole, toBinary(registration, entity.spec)) } as WholeEntity;
}

/** A whole flyteidl entity as registration reads it: the entity of the same bytes. */
export function registrationEntity(entity: WholeEntity): RegistrationEntity {
  const { whole, registration } = ENTITY_SCHEMAS[entity.kind];
  return { ...entity, spec: fromBinary(registration, toBinary(whole, entity.spec)) } as RegistrationEntity;
}
