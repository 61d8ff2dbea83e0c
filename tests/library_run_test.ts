/**
 * Registering and running, as a program writes it against the library: register a package, create an execution
 * of one of its launch plans, and wait for it with the id `createExecution` returns, without a non-null assertion
 * or a cast (a created execution always has an id; only a dry run has none); and naming the types of what it keeps.
 */
import { equal } from "node:assert/strict";
import {
  createAdminClient,
  createExecution,
  executionFailure,
  type ExecutionName,
  type ExecutionSpec,
  type LaunchPlanQuery,
  launchPlanQuery,
  registerFiles,
  runLaunchPlanQuery,
  runWorkflowQuery,
  waitForExecution,
  type WorkflowQuery,
  workflowQuery,
} from "../mod.ts";
import { startSandbox } from "../testing.ts";
import { WorkflowExecution_Phase } from "../types.ts";
import { fixture } from "./helpers.ts";

const SCOPE = { project: "flytesnacks", domain: "development" };

Deno.test("createExecution's id goes straight to waitForExecution; a dry run's result has none", async () => {
  await using sandbox = await startSandbox();
  using client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
  const options = { paths: [fixture("flytesnacks-core.tgz")], archive: true, ...SCOPE, version: "v1" };
  equal((await registerFiles(client, options)).failed, 0);
  const spec: ExecutionSpec = {
    file: "made in code",
    workflow: "core.flyte_basics.hello_world.my_wf",
    inputs: new Map(),
    envs: new Map(),
  };
  const created = await createExecution(client, { ...SCOPE, spec });
  const id: ExecutionName = created.id;
  const execution = await waitForExecution(client, id);
  equal(execution.closure?.phase, WorkflowExecution_Phase.SUCCEEDED);
  equal(executionFailure(execution), undefined);

  const dry = await createExecution(client, { ...SCOPE, spec, dryRun: true });
  equal(dry.id, undefined);
  equal(dry.rpc, "CreateExecution");
});

Deno.test("a checked workflow or launch plan query has a type a program can name, as a task's and an execution's have", async () => {
  await using sandbox = await startSandbox();
  using client = createAdminClient({ endpoint: sandbox.endpoint, insecure: true });
  const options = { paths: [fixture("flytesnacks-core.tgz")], archive: true, ...SCOPE, version: "v1" };
  equal((await registerFiles(client, options)).failed, 0);
  const name = "core.flyte_basics.hello_world.my_wf";
  const workflows: WorkflowQuery = workflowQuery({ ...SCOPE, name, latest: true });
  const launchPlans: LaunchPlanQuery = launchPlanQuery({ ...SCOPE, name, latest: true });
  const workflow = await runWorkflowQuery(client, workflows);
  const launchPlan = await runLaunchPlanQuery(client, launchPlans);
  equal(workflow.kind === "one" && workflow.workflow.id?.version, "v1");
  equal(launchPlan.kind === "one" && launchPlan.launchPlan.id?.version, "v1");
});
