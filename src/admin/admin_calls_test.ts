/**
 * fctl's own AdminService (proto/client/fctl/admin_calls.proto) against flyteidl's: the same gRPC paths
 * and messages, and the admin client loads only it; its calls of each kind (task_calls.proto,
 * workflow_calls.proto, ...) are the same methods again, and the client loads each service file only with a
 * call declared in it, never the whole admin_calls.proto.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { moduleGraph } from "../../scripts/module_graph.ts";
import type { DescMessage, DescService } from "@bufbuild/protobuf";
import { AdminService as FctlAdminService } from "../../proto/gen/fctl/admin_calls_pb.ts";
import { AdminService as TaskCalls } from "../../proto/gen/fctl/task_calls_pb.ts";
import { AdminService as WorkflowCalls } from "../../proto/gen/fctl/workflow_calls_pb.ts";
import { AdminService as NamedEntityCalls } from "../../proto/gen/fctl/named_entity_calls_pb.ts";
import { AdminService as LaunchPlanCalls } from "../../proto/gen/fctl/launch_plan_calls_pb.ts";
import { AdminService as ExecutionCalls } from "../../proto/gen/fctl/execution_calls_pb.ts";
import { AdminService as NodeExecutionCalls } from "../../proto/gen/fctl/node_execution_calls_pb.ts";
import { AdminService as ProjectCalls } from "../../proto/gen/fctl/project_calls_pb.ts";
import { AdminService as VersionCalls } from "../../proto/gen/fctl/version_calls_pb.ts";
import { AdminService } from "../../proto/gen/flyteidl/service/admin_pb.ts";
import { DataProxyService } from "../../proto/gen/flyteidl/service/dataproxy_pb.ts";
import { DataProxyService as UploadLocationCalls } from "../../proto/gen/fctl/upload_location_calls_pb.ts";
import { ADMIN_METHOD_FILES, DATA_PROXY_METHOD_FILES } from "./client.ts";

/** `part`'s methods are `whole`'s: same service, names, kinds and the very message descriptors. */
function assertPartOf(part: DescService, whole: DescService): void {
  equal(part.typeName, whole.typeName);
  ok(part.methods.length > 0);
  for (const method of part.methods) {
    const theirs = whole.methods.find((m) => m.name === method.name);
    ok(theirs, `${whole.typeName} has no ${method.name}`);
    deepEqual(
      [method.name, method.methodKind, method.input.typeName, method.output.typeName],
      [theirs.name, theirs.methodKind, theirs.input.typeName, theirs.output.typeName],
    );
    // The very message descriptors flyteidl's generated code exports, not copies of them.
    equal(method.input, theirs.input);
    equal(method.output, theirs.output);
  }
}

Deno.test("fctl's AdminService declares flyteidl's service and methods, with the same messages", () => {
  assertPartOf(FctlAdminService, AdminService);
});

/** Each file the client loads AdminService methods from (ADMIN_METHOD_FILES's values), by its key. */
const CALL_FILES: Record<string, DescService> = {
  tasks: TaskCalls,
  workflows: WorkflowCalls,
  namedEntities: NamedEntityCalls,
  launchPlans: LaunchPlanCalls,
  executions: ExecutionCalls,
  nodeExecutions: NodeExecutionCalls,
  projects: ProjectCalls,
  version: VersionCalls,
};

Deno.test("each kind's calls are fctl's AdminService's, and the client takes each method from the file of its kind", () => {
  deepEqual(Object.keys(ADMIN_METHOD_FILES).sort(), FctlAdminService.methods.map((m) => m.localName).sort());
  deepEqual(
    new Set(Object.values(ADMIN_METHOD_FILES)),
    new Set(Object.keys(CALL_FILES)),
    "no call goes through admin_calls",
  );
  for (const [file, calls] of Object.entries(CALL_FILES)) {
    assertPartOf(calls, FctlAdminService);
    deepEqual(
      Object.entries(ADMIN_METHOD_FILES).filter(([, f]) => f === file).map(([m]) => m).sort(),
      calls.methods.map((m) => m.localName).sort(),
      `every call ${file} declares goes through it, and only those`,
    );
  }
  deepEqual(Object.keys(DATA_PROXY_METHOD_FILES).sort(), DataProxyService.methods.map((m) => m.localName).sort());
});

/** A message's fields as the wire and TypeScript see them: number, name, kind, type, and the message held. */
function fieldsOf(message: DescMessage): unknown[] {
  return message.fields.map((f) => [
    f.number,
    f.name,
    f.localName,
    f.fieldKind,
    f.scalar,
    f.message?.typeName,
    f.fieldKind === "map" ? [f.mapKey, f.mapKind] : undefined,
    f.fieldKind === "list" ? f.listKind : undefined,
    f.oneof?.name,
  ]);
}

Deno.test("the upload call is flyteidl's CreateUploadLocation: the same path and its messages declared again whole", () => {
  equal(UploadLocationCalls.typeName, DataProxyService.typeName);
  deepEqual(UploadLocationCalls.methods.map((m) => m.name), ["CreateUploadLocation"]);
  const [ours, theirs] = [UploadLocationCalls.methods[0], DataProxyService.method.createUploadLocation];
  equal(ours.methodKind, theirs.methodKind);
  for (const [mine, flyteidl] of [[ours.input, theirs.input], [ours.output, theirs.output]]) {
    equal(mine.typeName, flyteidl.typeName);
    deepEqual(fieldsOf(mine), fieldsOf(flyteidl), mine.typeName);
  }
  // Told apart from another message: the check compares fields, not names.
  ok(JSON.stringify(fieldsOf(ours.input)) !== JSON.stringify(fieldsOf(theirs.output)));
  equal(DATA_PROXY_METHOD_FILES.createUploadLocation, "uploadLocation");
  deepEqual(
    Object.entries(DATA_PROXY_METHOD_FILES).filter(([, file]) => file === "uploadLocation").map(([m]) => m),
    ["createUploadLocation"],
  );
});

Deno.test("a kind's calls load the descriptors of its messages, not those of the other kinds", async () => {
  const href = (file: string) => new URL(`../../proto/gen/fctl/${file}`, import.meta.url);
  const loads = async (file: string) => [...(await moduleGraph(href(file))).reachable()];
  // What the old single file made every command but `get task` load: executions, node executions and events.
  const heavy = /flyteidl\/(admin\/(execution|node_execution|task_execution|launch_plan)|event\/event)_pb\.ts$/;
  for (const file of ["project_calls_pb.ts", "workflow_calls_pb.ts", "named_entity_calls_pb.ts"]) {
    deepEqual((await loads(file)).filter((s) => heavy.test(s)), [], file);
  }
  // Workflow names (and any entity's metadata) are common.proto's messages: no workflow, task or compiler ones.
  const names = await loads("named_entity_calls_pb.ts");
  ok(names.some((s) => s.endsWith("/admin/common_pb.ts")), "the walk follows the file's imports");
  deepEqual(names.filter((s) => /\/(admin\/(workflow|task)|core\/(workflow|tasks|compiler))_pb\.ts$/.test(s)), []);
  const launchPlans = await loads("launch_plan_calls_pb.ts");
  ok(launchPlans.some((s) => s.endsWith("/admin/launch_plan_pb.ts")), "the walk follows the file's imports");
  deepEqual(launchPlans.filter((s) => heavy.test(s) && !s.endsWith("/admin/launch_plan_pb.ts")), []);
  const executions = await loads("execution_calls_pb.ts");
  ok(executions.some((s) => s.endsWith("/admin/execution_pb.ts")), "the walk follows the file's imports");
  deepEqual(executions.filter((s) => heavy.test(s) && !s.endsWith("/admin/execution_pb.ts")), []);
});

Deno.test("the admin client loads fctl's AdminService, not flyteidl's whole one, and no descriptor before a call", async () => {
  const graph = await moduleGraph(new URL("./client.ts", import.meta.url));
  const [all, loaded] = [graph.all, graph.reachable()];
  const files = [
    ...Object.values(CALL_FILES).map((service) => `${service.file.name}_pb.ts`),
    "flyteidl/service/dataproxy_pb.ts",
    "fctl/upload_location_calls_pb.ts",
  ];
  for (const file of files) {
    ok(all.some((s) => s.endsWith(`/proto/gen/${file}`)), `the walk sees ${file}`);
  }
  deepEqual(all.filter((s) => s.endsWith("/proto/gen/flyteidl/service/admin_pb.ts")), []);
  deepEqual([...loaded].filter((s) => s.includes("/proto/gen/")), [], "descriptors load with the first call");
  ok([...loaded].some((s) => s.includes("@connectrpc/connect-node")), "the static walk follows client.ts's imports");
});
