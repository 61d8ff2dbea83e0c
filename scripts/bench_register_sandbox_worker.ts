/**
 * Worker for `bench_register.ts`: runs the in-process admin on its own thread, as a real admin runs
 * on its own machine, so the client's timings are not inflated by the server's CPU work.
 *
 * Messages in: `{ start: latencyMs }`, `{ state: true }`, `{ close: true }`; `start` again after `close`
 * starts a fresh sandbox on the same, already warmed-up thread.
 * Messages out: `{ endpoint }`, `{ state }`, `{ closed: true }`.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { toJson } from "@bufbuild/protobuf";
import { type Sandbox, startSandbox } from "../src/sandbox/mod.ts";
import { LaunchPlanSchema } from "../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import { TaskSchema } from "../proto/gen/flyteidl/admin/task_pb.ts";
import { WorkflowSchema } from "../proto/gen/flyteidl/admin/workflow_pb.ts";

/** The admin's entities and uploads without times, as one comparable string. */
export function adminState(sandbox: Sandbox): string {
  const strip = (json: unknown) =>
    JSON.stringify(json, (k, v) => (k === "createdAt" || k === "updatedAt" ? undefined : v));
  return [
    ...sandbox.store.tasks().map((t) => strip(toJson(TaskSchema, t))),
    ...sandbox.store.workflows().map((w) => strip(toJson(WorkflowSchema, w))),
    ...sandbox.store.launchPlans().map((l) => strip(toJson(LaunchPlanSchema, l))),
    ...[...sandbox.uploads.keys()],
  ].sort().join("\n");
}

let sandbox: Sandbox | undefined;
self.onmessage = async (event: MessageEvent<{ start?: number; state?: boolean; close?: boolean }>) => {
  if (event.data.start !== undefined) {
    sandbox = await startSandbox({ latencyMs: event.data.start });
    self.postMessage({ endpoint: sandbox.endpoint });
  } else if (event.data.state) {
    self.postMessage({ state: sandbox ? adminState(sandbox) : "" });
  } else if (event.data.close) {
    await sandbox?.close();
    self.postMessage({ closed: true });
  }
};
