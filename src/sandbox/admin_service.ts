/**
 * The AdminService methods the sandbox implements, over a {@link SandboxStore}. Methods not listed here
 * answer UNIMPLEMENTED (Connect's router answers them).
 *
 * @module
 */
import type {
  NamedEntityIdentifierListRequest,
  ResourceListRequest,
} from "../../proto/gen/flyteidl/admin/common_pb.ts";
import type { AdminServiceImpl } from "./admin_service_impl.ts";
import type { EntityTable, Row } from "./filters.ts";
import { createExecutionMethods } from "./execution_service.ts";
import { requireFullId, requireIdOf } from "./identifiers.ts";
import { listPage, type ListQuery } from "./list.ts";
import type { SandboxStore } from "./store.ts";
import { splitWorkflowTerms } from "./launch_plan_filters.ts";
import { namedEntityMethods } from "./named_entities.ts";
import { projectMethods } from "./projects.ts";

export type { AdminServiceImpl };

function resourceQuery(request: ResourceListRequest): ListQuery {
  return {
    project: request.id?.project ?? "",
    domain: request.id?.domain ?? "",
    name: request.id?.name,
    limit: request.limit,
    token: request.token,
    filters: request.filters,
    sortBy: request.sortBy,
  };
}

/** Lists entity versions: returns the page's messages and next token. */
function listMessages<M>(entries: (Row & { message: M })[], request: ResourceListRequest, table: EntityTable) {
  const page = listPage(entries, resourceQuery(request), table);
  return { items: page.items.map((entry) => entry.message), token: page.token };
}

/** Lists entity names (one row per name, dated by its newest version), as the List*Ids methods do. */
function listNames(rows: Row[], request: NamedEntityIdentifierListRequest, table: EntityTable) {
  const newest = new Map<string, Row>();
  for (const row of rows) {
    const key = JSON.stringify([row.project, row.domain, row.name]);
    const seen = newest.get(key);
    if (!seen || seen.createdNs < row.createdNs) newest.set(key, { ...row, version: "" });
  }
  const page = listPage(newest.values(), request, table);
  const entities = page.items.map(({ project, domain, name }) => ({ project, domain, name, org: request.org }));
  return { entities, token: page.token };
}

/** Builds the AdminService implementation. */
export function createAdminService(store: SandboxStore): AdminServiceImpl {
  return {
    createTask: (request) => (store.addTask(request), {}),
    getTask: (request) => store.getTask(requireFullId(request.id)),
    listTasks: (request) => {
      const { items, token } = listMessages(store.taskEntries(), request, "task");
      return { tasks: items, token };
    },
    listTaskIds: (request) => listNames(store.taskEntries(), request, "task"),
    createWorkflow: (request) => (store.addWorkflow(request), {}),
    getWorkflow: (request) => store.getWorkflow(requireIdOf("workflow", request.id)),
    listWorkflows: (request) => {
      const { items, token } = listMessages(store.workflowEntries(), request, "workflow");
      return { workflows: items, token };
    },
    listWorkflowIds: (request) => listNames(store.workflowEntries(), request, "workflow"),
    createLaunchPlan: (request) => (store.addLaunchPlan(request), {}),
    getLaunchPlan: (request) => store.getLaunchPlan(requireIdOf("launch plan", request.id)),
    listLaunchPlans: (request) => {
      // FlyteAdmin joins launch plans to their workflow: `workflow.*` terms test the launch plan's workflow id.
      const { rest, matches } = splitWorkflowTerms(request.filters);
      const entries = store.launchPlanEntries().filter((entry) => matches(entry.message));
      const { items, token } = listMessages(entries, { ...request, filters: rest }, "launch_plan");
      return { launchPlans: items, token };
    },
    listLaunchPlanIds: (request) => listNames(store.launchPlanEntries(), request, "launch_plan"),
    updateLaunchPlan: (request) => (store.setLaunchPlanState(requireFullId(request.id), request.state), {}),
    getActiveLaunchPlan: (request) => store.activeLaunchPlan(request.id),
    ...namedEntityMethods(store),
    ...projectMethods(store.projects),
    ...createExecutionMethods(store.executions),
    getVersion: () => ({ controlPlaneVersion: { Version: "sandbox", Build: "fctl-sandbox", BuildTime: "" } }),
  };
}
