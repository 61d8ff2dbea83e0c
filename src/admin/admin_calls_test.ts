/**
 * fctl's own AdminService (proto/client/fctl/admin_calls.proto) against flyteidl's: the same gRPC paths
 * and messages, and the admin client loads only it.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { AdminService as FctlAdminService } from "../../proto/gen/fctl/admin_calls_pb.ts";
import { AdminService } from "../../proto/gen/flyteidl/service/admin_pb.ts";

Deno.test("fctl's AdminService declares flyteidl's service and methods, with the same messages", () => {
  equal(FctlAdminService.typeName, AdminService.typeName);
  ok(FctlAdminService.methods.length > 0);
  for (const method of FctlAdminService.methods) {
    const theirs = AdminService.methods.find((m) => m.name === method.name);
    ok(theirs, `flyteidl's AdminService has no ${method.name}`);
    deepEqual(
      [method.name, method.methodKind, method.input.typeName, method.output.typeName],
      [theirs.name, theirs.methodKind, theirs.input.typeName, theirs.output.typeName],
    );
    // The very message descriptors flyteidl's generated code exports, not copies of them.
    equal(method.input, theirs.input);
    equal(method.output, theirs.output);
  }
});

Deno.test("the admin client loads fctl's AdminService, not flyteidl's whole one", async () => {
  const client = new URL("./client.ts", import.meta.url).href;
  const out = await new Deno.Command(Deno.execPath(), { args: ["info", "--json", client], stderr: "inherit" }).output();
  const modules = (JSON.parse(new TextDecoder().decode(out.stdout)) as { modules: { specifier: string }[] }).modules
    .map((m) => m.specifier);
  ok(modules.some((s) => s.endsWith("/proto/gen/fctl/admin_calls_pb.ts")), "the walk sees the generated code");
  deepEqual(modules.filter((s) => s.endsWith("/proto/gen/flyteidl/service/admin_pb.ts")), []);
});
