/**
 * The launch plan state RPCs answer as FlyteAdmin's launch plan manager does: GetActiveLaunchPlan's refusals and
 * ListActiveLaunchPlans.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { type Client, Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { Sort_Direction } from "../../proto/gen/flyteidl/admin/common_pb.ts";
import { LaunchPlanState } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import { ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { AdminService } from "../../proto/gen/flyteidl/service/admin_pb.ts";
import { DOMAIN, id, launchPlanInit, PROJECT, workflowInit } from "./_test_helpers.ts";
import { type Sandbox, startSandbox } from "./mod.ts";

async function withSandbox(fn: (sandbox: Sandbox, client: Client<typeof AdminService>) => Promise<void>) {
  const sandbox = await startSandbox();
  const sessionManager = new Http2SessionManager(sandbox.endpoint);
  try {
    await fn(sandbox, createClient(AdminService, createGrpcTransport({ baseUrl: sandbox.endpoint, sessionManager })));
  } finally {
    sessionManager.abort();
    await sandbox.close();
  }
}

/** The code and message a call is refused with. */
async function refusal(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (err) {
    if (err instanceof ConnectError) return `${Code[err.code]}: ${err.rawMessage}`;
    throw err;
  }
  return "accepted";
}

/** Launch plans `a` (v1, v2) and `b` (v1), each version's workflow stored. */
function seed(sandbox: Sandbox): void {
  for (const [name, version] of [["a", "v1"], ["a", "v2"], ["b", "v1"]]) {
    sandbox.store.addWorkflow(workflowInit(name, version));
    sandbox.store.addLaunchPlan(launchPlanInit(name, version));
  }
}

const activate = (client: Client<typeof AdminService>, name: string, version: string) =>
  client.updateLaunchPlan({ id: id(ResourceType.LAUNCH_PLAN, name, version), state: LaunchPlanState.ACTIVE });

Deno.test("GetActiveLaunchPlan: a missing name part by name (no id is a missing project), NOT_FOUND in FlyteAdmin's words", async () => {
  await withSandbox(async (sandbox, client) => {
    seed(sandbox);
    assertEquals(await refusal(client.getActiveLaunchPlan({})), "InvalidArgument: missing project");
    assertEquals(
      await refusal(client.getActiveLaunchPlan({ id: { project: PROJECT, domain: DOMAIN } })),
      "InvalidArgument: missing name",
    );
    assertEquals(
      await refusal(client.getActiveLaunchPlan({ id: { project: PROJECT, domain: DOMAIN, name: "a" } })),
      `NotFound: No active launch plan could be found: ${PROJECT}:${DOMAIN}:a`,
    );
  });
});

Deno.test("ListActiveLaunchPlans: the ACTIVE version of each name in a project and domain, sorted and paged", async () => {
  await withSandbox(async (sandbox, client) => {
    seed(sandbox);
    await activate(client, "a", "v1");
    await activate(client, "a", "v2");
    await activate(client, "b", "v1");
    const scope = { project: PROJECT, domain: DOMAIN };
    const listed = await client.listActiveLaunchPlans({
      ...scope,
      limit: 10,
      sortBy: { key: "name", direction: Sort_Direction.DESCENDING },
    });
    assertEquals(listed.launchPlans.map((lp) => `${lp.id?.name}@${lp.id?.version}`), ["b@v1", "a@v2"]);
    assertEquals(listed.token, "");
    const first = await client.listActiveLaunchPlans({ ...scope, limit: 1 });
    assertEquals([first.launchPlans.length, first.token], [1, "1"]);
    assertEquals(await refusal(client.listActiveLaunchPlans({ ...scope })), "InvalidArgument: invalid value for limit");
    assertEquals(
      await refusal(client.listActiveLaunchPlans({ project: PROJECT, limit: 1 })),
      "InvalidArgument: missing domain",
    );
    assertEquals(
      await refusal(client.listActiveLaunchPlans({ ...scope, limit: 1, token: "x" })),
      "InvalidArgument: invalid pagination token x for ListActiveLaunchPlans",
    );
    assertEquals(
      (await client.listActiveLaunchPlans({ project: PROJECT, domain: "staging", limit: 10 })).launchPlans,
      [],
    );
  });
});

Deno.test("UpdateLaunchPlan ACTIVE finds the version as FlyteAdmin's lookup does: a field missing matches any", async () => {
  await withSandbox(async (sandbox, client) => {
    seed(sandbox);
    // Without a version, the oldest version of the name is found and activated.
    await client.updateLaunchPlan({
      id: { ...id(ResourceType.LAUNCH_PLAN, "a", "v1"), version: "" },
      state: LaunchPlanState.ACTIVE,
    });
    const active = await client.getActiveLaunchPlan({ id: { project: PROJECT, domain: DOMAIN, name: "a" } });
    assertEquals(active.id?.version, "v1");
    assertEquals(
      await refusal(
        client.updateLaunchPlan({
          id: { ...id(ResourceType.LAUNCH_PLAN, "nope", "v1"), version: "" },
          state: LaunchPlanState.ACTIVE,
        }),
      ),
      `NotFound: missing entity of type LAUNCH_PLAN with identifier project:"${PROJECT}" domain:"${DOMAIN}" name:"nope"`,
    );
  });
});
