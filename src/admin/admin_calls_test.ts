/**
 * fctl's own AdminService (proto/client/fctl/admin_calls.proto) against flyteidl's: the same gRPC paths
 * and messages, and the admin client loads only it; its task calls (task_calls.proto) are the same methods
 * again, and the client loads each service file only with a call declared in it.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { moduleGraph } from "../../scripts/module_graph.ts";
import type { DescService } from "@bufbuild/protobuf";
import { AdminService as FctlAdminService } from "../../proto/gen/fctl/admin_calls_pb.ts";
import { AdminService as TaskCalls } from "../../proto/gen/fctl/task_calls_pb.ts";
import { AdminService as VersionCalls } from "../../proto/gen/fctl/version_calls_pb.ts";
import { AdminService } from "../../proto/gen/flyteidl/service/admin_pb.ts";
import { DataProxyService } from "../../proto/gen/flyteidl/service/dataproxy_pb.ts";
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

Deno.test("the task calls are fctl's AdminService's, and the client takes each method from a file declaring it", () => {
  assertPartOf(TaskCalls, FctlAdminService);
  assertPartOf(VersionCalls, FctlAdminService);
  const files: Record<string, DescService> = { tasks: TaskCalls, version: VersionCalls, all: FctlAdminService };
  deepEqual(Object.keys(ADMIN_METHOD_FILES).sort(), FctlAdminService.methods.map((m) => m.localName).sort());
  for (const [method, file] of Object.entries(ADMIN_METHOD_FILES)) {
    ok(files[file].methods.some((m) => m.localName === method), `${method} in ${file}`);
  }
  deepEqual(
    Object.entries(ADMIN_METHOD_FILES).filter(([, file]) => file === "tasks").map(([m]) => m).sort(),
    TaskCalls.methods.map((m) => m.localName).sort(),
    "every task call goes through the task calls' file",
  );
  deepEqual(
    Object.entries(ADMIN_METHOD_FILES).filter(([, file]) => file === "version").map(([m]) => m),
    VersionCalls.methods.map((m) => m.localName),
    "the version call goes through its own file",
  );
  deepEqual(Object.keys(DATA_PROXY_METHOD_FILES).sort(), DataProxyService.methods.map((m) => m.localName).sort());
});

Deno.test("the admin client loads fctl's AdminService, not flyteidl's whole one, and no descriptor before a call", async () => {
  const graph = await moduleGraph(new URL("./client.ts", import.meta.url));
  const [all, loaded] = [graph.all, graph.reachable()];
  const files = [
    "fctl/admin_calls_pb.ts",
    "fctl/task_calls_pb.ts",
    "fctl/version_calls_pb.ts",
    "flyteidl/service/dataproxy_pb.ts",
  ];
  for (const file of files) {
    ok(all.some((s) => s.endsWith(`/proto/gen/${file}`)), `the walk sees ${file}`);
  }
  deepEqual(all.filter((s) => s.endsWith("/proto/gen/flyteidl/service/admin_pb.ts")), []);
  deepEqual([...loaded].filter((s) => s.includes("/proto/gen/")), [], "descriptors load with the first call");
  ok([...loaded].some((s) => s.includes("@connectrpc/connect-node")), "the static walk follows client.ts's imports");
});
