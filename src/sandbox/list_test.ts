/**
 * Every entity listing refuses a bad filter or sort key with FlyteAdmin's code and message, and accepts the
 * columns FlyteAdmin's tables and joins have; the names listings (List*Ids) read no filters.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { Sort_Direction } from "../../proto/gen/flyteidl/admin/common_pb.ts";
import { LaunchPlanState } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import { ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { type Client, Code, ConnectError } from "@connectrpc/connect";
import type { AdminService } from "../../proto/gen/flyteidl/service/admin_pb.ts";
import { withFullAdmin } from "../../tests/entity_fixtures.ts";
import { DOMAIN, id, launchPlanInit, PROJECT, taskInit, workflowInit } from "./_test_helpers.ts";
import { type Sandbox, startSandbox } from "./mod.ts";

/** A client of the whole AdminService: fctl's own has no List*Ids. */
type FullAdmin = Client<typeof AdminService>;

async function withAdmin(fn: (sandbox: Sandbox, admin: FullAdmin) => Promise<void>): Promise<void> {
  const sandbox = await startSandbox();
  try {
    await withFullAdmin(sandbox, (admin) => fn(sandbox, admin));
  } finally {
    await sandbox.close();
  }
}

const scope = { project: PROJECT, domain: DOMAIN };

/** One call of each listing, with the filters and sort key given. */
type ListCall = (admin: FullAdmin, filters: string, sortKey?: string) => Promise<unknown>;

const sort = (key?: string) => key === undefined ? undefined : { key, direction: Sort_Direction.ASCENDING };

const LISTINGS: Record<string, { entity: string; call: ListCall }> = {
  ListTasks: {
    entity: "t",
    call: (admin, filters, key) => admin.listTasks({ id: scope, limit: 10, filters, sortBy: sort(key) }),
  },
  ListWorkflows: {
    entity: "w",
    call: (admin, filters, key) => admin.listWorkflows({ id: scope, limit: 10, filters, sortBy: sort(key) }),
  },
  ListLaunchPlans: {
    entity: "l",
    call: (admin, filters, key) => admin.listLaunchPlans({ id: scope, limit: 10, filters, sortBy: sort(key) }),
  },
  ListNamedEntities: {
    entity: "nen",
    call: (admin, filters, key) =>
      admin.listNamedEntities({
        ...scope,
        resourceType: ResourceType.WORKFLOW,
        limit: 10,
        filters,
        sortBy: sort(key),
      }),
  },
  ListProjects: {
    entity: "p",
    call: (admin, filters, key) => admin.listProjects({ limit: 10, filters, sortBy: sort(key) }),
  },
};

function seed(sandbox: Sandbox): void {
  sandbox.store.addTask(taskInit("t1", "v1"));
  sandbox.store.addWorkflow(workflowInit("wf", "v1"));
  sandbox.store.addWorkflow(workflowInit("other", "v1"));
  sandbox.store.addLaunchPlan(launchPlanInit("wf", "v1"));
  sandbox.store.addLaunchPlan(launchPlanInit("lp-of-other", "v1", "other"));
}

/** The status and message a call is refused with. */
async function refusal(promise: Promise<unknown>): Promise<[string, string]> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ConnectError) return [Code[err.code], err.rawMessage];
    throw err;
  }
  throw new Error("expected the call to be refused");
}

for (const [method, { entity, call }] of Object.entries(LISTINGS)) {
  Deno.test(`${method} refuses a filter on a column its table does not have, as FlyteAdmin does`, async () => {
    await withAdmin(async (sandbox, admin) => {
      seed(sandbox);
      assertEquals(await refusal(call(admin, "eq(owner,me)")), [
        "InvalidArgument",
        `'${entity}.owner' is invalid filter`,
      ]);
      // The column is looked up in the table the prefix names (or the listing's own, without one).
      assertEquals(await refusal(call(admin, "eq(colour,red)+eq(name,x)")), [
        "InvalidArgument",
        `'${entity}.colour' is invalid filter`,
      ]);
    });
  });

  Deno.test(`${method} refuses an unknown filter function and a malformed term, as FlyteAdmin does`, async () => {
    await withAdmin(async (sandbox, admin) => {
      seed(sandbox);
      assertEquals(await refusal(call(admin, "regex(name,a.*)")), [
        "InvalidArgument",
        "unrecognized filter function: regex",
      ]);
      assertEquals(await refusal(call(admin, "name=a")), ["InvalidArgument", "invalid value for filters"]);
      // FlyteAdmin splits terms on every "+": a time offset breaks its term.
      assertEquals(await refusal(call(admin, "gte(created_at,2021-05-24T23:43:12+02:00)")), [
        "InvalidArgument",
        "invalid value for filters",
      ]);
    });
  });

  Deno.test(`${method} refuses a sort key that is not a column, as FlyteAdmin does`, async () => {
    await withAdmin(async (sandbox, admin) => {
      seed(sandbox);
      assertEquals(await refusal(call(admin, "", "colour")), ["InvalidArgument", "invalid sort key 'colour'"]);
      assertEquals(await refusal(call(admin, "", "")), ["InvalidArgument", "invalid sort key ''"]);
    });
  });
}

Deno.test("the versioned listings accept every column of their table, and refuse other entities", async () => {
  await withAdmin(async (sandbox, admin) => {
    seed(sandbox);
    const tasks = (filters: string, key?: string) =>
      admin.listTasks({ id: scope, limit: 10, filters, sortBy: sort(key) });
    assertEquals((await tasks("eq(type,python-task)+ne(task.short_description,x)", "type")).tasks.length, 1);
    assertEquals((await tasks("gte(id,1)+lte(updated_at,2999-01-01T00:00:00Z)", "id")).tasks.length, 1);
    assertEquals(await refusal(tasks("eq(workflow.name,wf)")), [
      "InvalidArgument",
      "'w' entity is not allowed in filters",
    ]);
    const workflows = (filters: string, key?: string) =>
      admin.listWorkflows({ id: scope, limit: 10, filters, sortBy: sort(key) });
    assertEquals((await workflows("value_not_in(name,other;x)", "short_description")).workflows.length, 1);
    assertEquals(await refusal(workflows("eq(task.name,t1)")), [
      "InvalidArgument",
      "'t' entity is not allowed in filters",
    ]);
  });
});

Deno.test("ListLaunchPlans joins each launch plan to its workflow: workflow.* names a workflows column", async () => {
  await withAdmin(async (sandbox, admin) => {
    seed(sandbox);
    const names = async (filters: string) =>
      (await admin.listLaunchPlans({ id: scope, limit: 10, filters })).launchPlans.map((lp) => lp.id?.name);
    assertEquals(await names("eq(workflow.name,other)"), ["lp-of-other"]);
    assertEquals(await names("gte(workflow.created_at,2000-01-01T00:00:00Z)+ne(workflow.name,other)"), ["wf"]);
    assertEquals(await names("eq(workflow_id,2)"), ["lp-of-other"], "workflow_id is the workflow's row id");
    assertEquals(await names("eq(schedule_type,NONE)+eq(launch_plan.state,0)"), ["lp-of-other", "wf"]);
    await admin.updateLaunchPlan({
      id: id(ResourceType.LAUNCH_PLAN, "wf", "v1"),
      state: LaunchPlanState.ACTIVE,
    });
    assertEquals(await names("eq(state,1)"), ["wf"]);
    assertEquals(
      await refusal(admin.listLaunchPlans({ id: scope, limit: 1, filters: "eq(workflow.owner,x)" })),
      [
        "InvalidArgument",
        "'w.owner' is invalid filter",
      ],
    );
    assertEquals(await refusal(admin.listLaunchPlans({ id: scope, limit: 1, filters: "eq(task.name,x)" })), [
      "InvalidArgument",
      "'t' entity is not allowed in filters",
    ]);
  });
});

Deno.test("ListNamedEntities filters on its metadata's table, and refuses sort keys its query cannot sort on", async () => {
  await withAdmin(async (sandbox, admin) => {
    seed(sandbox);
    const request = { ...scope, resourceType: ResourceType.WORKFLOW, limit: 10 };
    const names = async (filters: string) =>
      (await admin.listNamedEntities({ ...request, filters })).entities.map((e) => e.id?.name);
    assertEquals(await names("eq(entities.name,wf)"), ["wf"]);
    assertEquals(await names("eq(state,0)"), ["other", "wf"], "a name without metadata is ACTIVE");
    assertEquals(await names("eq(named_entity_metadata.state,0)"), ["other", "wf"]);
    assertEquals(await names("ne(named_entity_metadata.description,x)"), [], "missing metadata is NULL");
    await admin.updateNamedEntity({
      resourceType: ResourceType.WORKFLOW,
      id: { ...scope, name: "wf" },
      metadata: { description: "the one", state: 1 },
    });
    assertEquals(await names("contains(named_entity_metadata.description,one)"), ["wf"]);
    assertEquals(await names("eq(description,the one)+eq(entities.state,1)"), ["wf"]);
    assertEquals(await refusal(admin.listNamedEntities({ ...request, filters: "eq(created_at,x)" })), [
      "InvalidArgument",
      "'nen.created_at' is invalid filter",
    ]);
    assertEquals(await refusal(admin.listNamedEntities({ ...request, filters: "eq(workflow.name,wf)" })), [
      "InvalidArgument",
      "'w' entity is not allowed in filters",
    ]);
    const sorted = (key: string, resourceType = ResourceType.WORKFLOW) =>
      admin.listNamedEntities({ ...request, resourceType, sortBy: sort(key) });
    assertEquals((await sorted("name")).entities.map((e) => e.id?.name), ["other", "wf"]);
    assertEquals(await refusal(sorted("created_at")), ["InvalidArgument", "invalid sort key 'created_at'"]);
    // Named-entity columns the names' query (grouped by project, domain and name) has no value for.
    assertEquals(await refusal(sorted("state")), [
      "Unknown",
      `failed database operation with column "state" does not exist`,
    ]);
    assertEquals(await refusal(sorted("state", ResourceType.LAUNCH_PLAN)), [
      "Unknown",
      `failed database operation with column "launch_plans.state" must appear in the GROUP BY clause or be used in ` +
      "an aggregate function",
    ]);
    assertEquals(await refusal(admin.listNamedEntities({ ...request, filters: "eq(resource_type,2)" })), [
      "Unknown",
      "failed database operation with column entities.resource_type does not exist",
    ]);
    assertEquals(await refusal(admin.listNamedEntities({ ...request, resourceType: ResourceType.DATASET })), [
      "InvalidArgument",
      "Cannot list entity names for resource type: DATASET",
    ]);
  });
});

Deno.test("ListProjects filters and sorts on every column of its table", async () => {
  await withAdmin(async (sandbox, admin) => {
    sandbox.store.addProject({ id: "ml", name: "Machine learning", description: "models" });
    const ids = async (filters: string, key?: string) =>
      (await admin.listProjects({ limit: 10, filters, sortBy: sort(key) })).projects.map((p) => p.id);
    assertEquals(await ids("contains(project.description,model)"), ["ml"]);
    // The seed project is dated at the epoch (see ProjectTable).
    assertEquals(await ids("gte(created_at,1970-01-01T00:00:00Z)", "id"), ["flytesnacks", "ml"]);
    assertEquals(await ids("gt(created_at,1970-01-01T00:00:00Z)", "id"), ["ml"]);
    assertEquals(await ids("ne(identifier,x)", "created_at"), ["flytesnacks", "ml"]);
    assertEquals(await ids("eq(state,0)+value_in(name,flytesnacks;Machine learning)", "identifier"), [
      "flytesnacks",
      "ml",
    ]);
    assertEquals(await refusal(admin.listProjects({ limit: 1, filters: "eq(task.name,x)" })), [
      "InvalidArgument",
      "'t' entity is not allowed in filters",
    ]);
    assertEquals(await refusal(admin.listProjects({ limit: 1, token: "x" })), [
      "InvalidArgument",
      "invalid pagination token x for ListProjects",
    ]);
  });
});

Deno.test("the versioned listings check scope, limit, filters, sort key and token in FlyteAdmin's order", async () => {
  await withAdmin(async (_sandbox, admin) => {
    const bad = { limit: 10, filters: "eq(owner,x)", sortBy: sort("colour"), token: "x" };
    assertEquals(await refusal(admin.listTasks({ ...bad })), ["InvalidArgument", "missing id"]);
    assertEquals(await refusal(admin.listTasks({ ...bad, id: { project: PROJECT } })), [
      "InvalidArgument",
      "missing domain",
    ]);
    assertEquals(await refusal(admin.listTasks({ ...bad, id: scope, limit: 0 })), [
      "InvalidArgument",
      "invalid value for limit",
    ]);
    assertEquals(await refusal(admin.listWorkflows({ ...bad, id: scope })), [
      "InvalidArgument",
      "'w.owner' is invalid filter",
    ]);
    assertEquals(await refusal(admin.listWorkflows({ ...bad, id: scope, filters: "" })), [
      "InvalidArgument",
      "invalid sort key 'colour'",
    ]);
    assertEquals(await refusal(admin.listLaunchPlans({ id: scope, limit: 1, token: "x" })), [
      "InvalidArgument",
      "invalid pagination token x for ListLaunchPlans",
    ]);
  });
});

Deno.test("the names listings read no filters; a sort key must be a column, and one they group by", async () => {
  await withAdmin(async (sandbox, admin) => {
    seed(sandbox);
    const names = (page: { entities: { name: string }[] }) => page.entities.map((e) => e.name);
    const request = { ...scope, limit: 10, filters: "regex(nothing)", sortBy: sort("name") };
    assertEquals(names(await admin.listTaskIds(request)), ["t1"]);
    assertEquals(names(await admin.listWorkflowIds(request)), ["other", "wf"]);
    assertEquals(names(await admin.listLaunchPlanIds(request)), ["lp-of-other", "wf"]);
    assertEquals(await refusal(admin.listTaskIds({ ...request, sortBy: sort("colour") })), [
      "InvalidArgument",
      "invalid sort key 'colour'",
    ]);
    assertEquals(await refusal(admin.listWorkflowIds({ ...request, sortBy: sort("created_at") })), [
      "Unknown",
      `failed database operation with column "workflows.created_at" must appear in the GROUP BY clause or be used ` +
      "in an aggregate function",
    ]);
    assertEquals(await refusal(admin.listLaunchPlanIds({ ...request, sortBy: sort("version") })), [
      "Unknown",
      `failed database operation with column "launch_plans.version" must appear in the GROUP BY clause or be ` +
      "used in an aggregate function",
    ]);
    assertEquals(await refusal(admin.listTaskIds({ ...request, token: "x" })), [
      "InvalidArgument",
      "invalid pagination token x for ListUniqueTaskIdentifiers",
    ]);
    assertEquals(await refusal(admin.listLaunchPlanIds({ ...request, token: "x" })), [
      "InvalidArgument",
      "invalid pagination token x",
    ]);
    assertEquals(await refusal(admin.listLaunchPlanIds({ ...request, limit: 0 })), [
      "InvalidArgument",
      "missing and/or invalid parameters: limit",
    ]);
  });
});

Deno.test("every listing reads a filter's time words (yesterday, today, now) on the sandbox's clock", async () => {
  // A clock far from today, moved on a week after the entities are made: the machine's clock would see none of it.
  let clock = new Date("2001-02-03T12:00:00Z");
  const sandbox = await startSandbox({ now: () => clock });
  try {
    await withFullAdmin(sandbox, async (admin) => {
      sandbox.store.addProject({ id: "ml", name: "ml" });
      sandbox.store.addTask(taskInit("t", "v1"));
      sandbox.store.addWorkflow(workflowInit("wf", "v1"));
      sandbox.store.addLaunchPlan(launchPlanInit("wf", "v1"));
      const listings = async (filters: string) => ({
        tasks: (await admin.listTasks({ id: scope, limit: 10, filters })).tasks.map((t) => t.id?.name),
        workflows: (await admin.listWorkflows({ id: scope, limit: 10, filters })).workflows.map((w) => w.id?.name),
        launchPlans: (await admin.listLaunchPlans({ id: scope, limit: 10, filters })).launchPlans.map((l) =>
          l.id?.name
        ),
        projects: (await admin.listProjects({ limit: 10, filters })).projects.map((p) => p.id),
      });
      // The seed project, flytesnacks, is dated at the epoch, before anything the sandbox makes.
      const all = { tasks: ["t"], workflows: ["wf"], launchPlans: ["wf"], projects: ["ml"] };
      const none = { tasks: [], workflows: [], launchPlans: [], projects: [] };
      assertEquals(await listings("gte(created_at,yesterday)+lt(created_at,tomorrow)"), all);
      const made = { ...all, projects: ["flytesnacks", "ml"] };
      assertEquals(await listings("lte(created_at,now)"), made, "now is never before what was made");
      clock = new Date("2001-02-10T12:00:00Z");
      assertEquals(await listings("gte(created_at,yesterday)"), none);
      assertEquals(await listings("lt(created_at,today)"), made);
    });
  } finally {
    await sandbox.close();
  }
});
