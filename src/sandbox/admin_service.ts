/**
 * The AdminService methods the sandbox implements, over a {@link SandboxStore}. Methods not listed here
 * answer UNIMPLEMENTED (Connect's router answers them).
 *
 * @module
 */
import type { NamedEntityIdentifierListRequest } from "../../proto/gen/flyteidl/admin/common_pb.ts";
import type { AdminServiceImpl } from "./admin_service_impl.ts";
import { LAUNCH_PLAN_COLUMNS, TASK_COLUMNS, WORKFLOW_COLUMNS } from "./execution_filters.ts";
import { listed, type Row, TASK_VERSIONS, WORKFLOW_VERSIONS } from "./filters.ts";
import { createExecutionMethods } from "./execution_service.ts";
import { requireFullId, requireIdOf } from "./identifiers.ts";
import { listNames, listVersions, namesTable } from "./list.ts";
import type { SandboxStore } from "./store.ts";
import { LAUNCH_PLAN_SCHEMA, listedLaunchPlans } from "./launch_plan_filters.ts";
import { listActiveLaunchPlans, updateLaunchPlanState } from "./launch_plan_state.ts";
import { namedEntityMethods } from "./named_entities.ts";
import { projectMethods } from "./projects.ts";

export type { AdminServiceImpl };

const TASK_NAMES = namesTable("t", "task", TASK_COLUMNS);
const WORKFLOW_NAMES = namesTable("w", "workflow", WORKFLOW_COLUMNS);
const LAUNCH_PLAN_NAMES = namesTable("l", "launch_plan", LAUNCH_PLAN_COLUMNS);

/** Lists entity names (one row per name, dated by its newest version), as the List*Ids methods do. */
function names(
  rows: Row[],
  request: NamedEntityIdentifierListRequest,
  table: typeof TASK_NAMES,
  method: Parameters<typeof listNames>[3],
) {
  const newest = new Map<string, Row>();
  for (const row of rows) {
    const key = JSON.stringify([row.project, row.domain, row.name]);
    const seen = newest.get(key);
    if (!seen || seen.createdNs < row.createdNs) newest.set(key, { ...row, version: "" });
  }
  const page = listNames([...newest.values()], request, table, method);
  const entities = page.items.map(({ project, domain, name }) => ({ project, domain, name, org: request.org }));
  return { entities, token: page.token };
}

/** Builds the AdminService implementation. */
export function createAdminService(store: SandboxStore): AdminServiceImpl {
  return {
    createTask: (request) => (store.addTask(request), {}),
    getTask: (request) => store.getTask(requireFullId(request.id)),
    listTasks: (request) => {
      const page = listVersions(
        listed(store.taskEntries()),
        request,
        { primary: TASK_VERSIONS, joins: [] },
        "ListTasks",
        store.nowNs(),
      );
      return { tasks: page.items.map((row) => row.entry.message), token: page.token };
    },
    listTaskIds: (request) => names(store.taskEntries(), request, TASK_NAMES, "ListUniqueTaskIdentifiers"),
    createWorkflow: (request) => (store.addWorkflow(request), {}),
    getWorkflow: (request) => store.getWorkflow(requireIdOf("workflow", request.id)),
    listWorkflows: (request) => {
      const schema = { primary: WORKFLOW_VERSIONS, joins: [] };
      const page = listVersions(listed(store.workflowEntries()), request, schema, "ListWorkflows", store.nowNs());
      return { workflows: page.items.map((row) => row.entry.message), token: page.token };
    },
    listWorkflowIds: (request) => names(store.workflowEntries(), request, WORKFLOW_NAMES, "ListWorkflowIdentifiers"),
    createLaunchPlan: (request) => (store.addLaunchPlan(request), {}),
    getLaunchPlan: (request) => store.getLaunchPlan(requireIdOf("launch plan", request.id)),
    listLaunchPlans: (request) => {
      const rows = listedLaunchPlans(store.launchPlanEntries(), store.workflowEntries());
      const page = listVersions(rows, request, LAUNCH_PLAN_SCHEMA, "ListLaunchPlans", store.nowNs());
      return { launchPlans: page.items.map((row) => row.entry.message), token: page.token };
    },
    listLaunchPlanIds: (request) => names(store.launchPlanEntries(), request, LAUNCH_PLAN_NAMES, "ListLaunchPlanIds"),
    updateLaunchPlan: (request) => (updateLaunchPlanState(store, request), {}),
    getActiveLaunchPlan: (request) => store.activeLaunchPlan(request.id),
    listActiveLaunchPlans: (request) => listActiveLaunchPlans(store, request),
    ...namedEntityMethods(store),
    ...projectMethods(store.projects),
    ...createExecutionMethods(store.executions),
    getVersion: () => ({ controlPlaneVersion: { Version: "sandbox", Build: "fctl-sandbox", BuildTime: "" } }),
  };
}
