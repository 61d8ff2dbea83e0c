/**
 * The sandbox's projects and named entities keep FlyteAdmin's rules: project validation, archived projects hidden
 * only from a listing without filters, the identifier order by default; named entities without `.flytegen` names
 * unless filtered, with no `created_at` sort key, and their metadata state.
 */
import { deepEqual, equal, rejects } from "node:assert/strict";
import { Code, ConnectError } from "@connectrpc/connect";
import { startSandbox } from "./mod.ts";
import { withFullAdmin } from "../../tests/entity_fixtures.ts";
import { taskInit } from "./_test_helpers.ts";

const code = (expected: Code) => (err: unknown) => err instanceof ConnectError && err.code === expected;

Deno.test("projects: registered, validated, archived by update, hidden from a listing only when it has no filters", async () => {
  const sandbox = await startSandbox();
  try {
    await withFullAdmin(sandbox, async (admin) => {
      await admin.registerProject({ project: { id: "b-proj", name: "B" } });
      await admin.registerProject({ project: { id: "a-proj", name: "A", description: "first" } });
      await rejects(admin.registerProject({ project: { id: "a-proj", name: "A" } }), code(Code.AlreadyExists));
      await rejects(admin.registerProject({ project: { id: "Bad_Id", name: "x" } }), code(Code.InvalidArgument));
      await rejects(admin.registerProject({ project: { id: "c", name: "" } }), code(Code.InvalidArgument));
      await rejects(
        admin.registerProject({ project: { id: "d", name: "d", domains: [{ id: "x", name: "x" }] } }),
        code(Code.InvalidArgument),
      );
      await rejects(admin.updateProject({ id: "nope", name: "n" }), code(Code.NotFound));
      await admin.updateProject({ id: "b-proj", name: "B", state: 1 });
      const ids = async (filters = "", key?: string) =>
        (await admin.listProjects({ limit: 10, filters, sortBy: key ? { key, direction: 1 } : undefined })).projects
          .map((p) => p.id);
      deepEqual(await ids(), ["a-proj"], "the archived project is hidden");
      deepEqual(await ids("eq(state,1)"), ["b-proj"]);
      deepEqual(await ids("ne(identifier,x)"), ["a-proj", "b-proj"], "any filter shows archived ones too");
      deepEqual(await ids("contains(project.name,A)"), ["a-proj"]);
      await rejects(admin.listProjects({ limit: 1, sortBy: { key: "nope" } }), code(Code.InvalidArgument));
      const page = await admin.listProjects({ limit: 1, filters: "ne(identifier,x)" });
      deepEqual([page.projects.length, page.token], [1, "1"]);
      const one = await admin.getProject({ id: "b-proj" });
      deepEqual([one.state, one.domains.map((d) => d.id)], [1, ["development", "staging", "production"]]);
      await rejects(admin.getProject({ id: "nope" }), code(Code.NotFound));
    });
  } finally {
    await sandbox.close();
  }
});

Deno.test("named entities: one row per name, .flytegen names hidden without filters, no created_at sort key", async () => {
  const sandbox = await startSandbox();
  try {
    for (const [name, version] of [["b.task", "v1"], ["b.task", "v2"], ["a.task", "v1"], [".flytegen.x", "v1"]]) {
      sandbox.store.addTask(taskInit(name, version));
    }
    await withFullAdmin(sandbox, async (admin) => {
      const scope = { resourceType: 1, project: "flytesnacks", domain: "development", limit: 10 };
      const names = async (filters = "", direction = 1) =>
        (await admin.listNamedEntities({ ...scope, filters, sortBy: { key: "name", direction } })).entities
          .map((e) => e.id?.name);
      deepEqual(await names(), ["a.task", "b.task"]);
      deepEqual(await names("", 0), ["b.task", "a.task"]);
      deepEqual(await names("contains(name,flytegen)"), [".flytegen.x"]);
      await rejects(
        admin.listNamedEntities({ ...scope, sortBy: { key: "created_at" } }),
        code(Code.InvalidArgument),
      );
      await rejects(admin.listNamedEntities({ ...scope, resourceType: 0 }), code(Code.InvalidArgument));
      await admin.updateNamedEntity({
        resourceType: 1,
        id: { project: "flytesnacks", domain: "development", name: "a.task" },
        metadata: { description: "archived one", state: 1 },
      });
      deepEqual(await names("eq(state,1)"), ["a.task"]);
      const [a] = (await admin.listNamedEntities({ ...scope, filters: "eq(name,a.task)" })).entities;
      equal(a.metadata?.description, "archived one");
    });
  } finally {
    await sandbox.close();
  }
});
