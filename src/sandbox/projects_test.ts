/**
 * The sandbox's projects and named entities keep FlyteAdmin's rules: project validation, archived projects hidden
 * only from a listing without filters, the identifier order by default; named entities without `.flytegen` names
 * unless filtered, with no `created_at` sort key, and their metadata state.
 */
import { deepEqual, equal, rejects } from "node:assert/strict";
import { Code, ConnectError } from "@connectrpc/connect";
import { startSandbox } from "./mod.ts";
import { withFullAdmin } from "../../tests/entity_fixtures.ts";
import { launchPlanInit, taskInit, workflowInit } from "./_test_helpers.ts";
import { InactiveProjectSchema } from "../../proto/gen/flyteidl/admin/project_pb.ts";

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
      deepEqual(await ids(), ["a-proj", "flytesnacks"], "the archived project is hidden");
      deepEqual(await ids("eq(state,1)"), ["b-proj"]);
      deepEqual(
        await ids("ne(identifier,x)"),
        ["a-proj", "b-proj", "flytesnacks"],
        "any filter shows archived ones too",
      );
      deepEqual(await ids("contains(project.name,A)"), ["a-proj"]);
      // Without a limit FlyteAdmin lists everything, and gives a token exactly when the page holds `limit` (0) projects.
      const none = await admin.listProjects({ filters: "eq(identifier,none)", token: "3" });
      deepEqual([none.projects.length, none.token], [0, "3"]);
      equal((await admin.listProjects({})).token, "");
      // The state is an integer column: Postgres refuses a word for it, and FlyteAdmin passes that on as UNKNOWN.
      await rejects(
        admin.listProjects({ limit: 10, filters: "eq(state,archived)" }),
        (err) =>
          err instanceof ConnectError && err.code === Code.Unknown &&
          err.rawMessage === 'failed database operation with invalid input syntax for type integer: "archived"',
      );
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

Deno.test("projects: a fresh sandbox has the demo cluster's flytesnacks, ACTIVE, with the system's domains", async () => {
  const sandbox = await startSandbox();
  try {
    await withFullAdmin(sandbox, async (admin) => {
      const { projects } = await admin.listProjects({ limit: 10 });
      deepEqual(
        projects.map((p) => [p.id, p.name, p.description, p.state, p.domains.map((d) => d.id)]),
        [["flytesnacks", "flytesnacks", "Default project setup.", 0, ["development", "staging", "production"]]],
      );
    });
  } finally {
    await sandbox.close();
  }
});

/** The error a call or a seeding fails with, as code and message (fails the test when it does not fail). */
async function refusal(attempt: () => unknown): Promise<[Code, string]> {
  try {
    await attempt();
  } catch (err) {
    const error = ConnectError.from(err);
    return [error.code, error.rawMessage];
  }
  throw new Error("expected a refusal");
}

Deno.test("projects: creates in an unknown or archived project or an unknown domain are refused as FlyteAdmin refuses them", async () => {
  const sandbox = await startSandbox();
  try {
    await withFullAdmin(sandbox, async (admin) => {
      await admin.registerProject({ project: { id: "old", name: "old" } });
      await admin.updateProject({ id: "old", name: "old", state: 1 });
      const into = <T extends { id?: object }>(init: T, project: string, domain: string): T => ({
        ...init,
        id: { ...init.id, project, domain },
      });
      const unknown = "failed to validate that project [nope] and domain [development] are registered, " +
        "err: [project [nope] not found]";
      deepEqual(await refusal(() => admin.createTask(into(taskInit("t", "v1"), "nope", "development"))), [
        Code.InvalidArgument,
        unknown,
      ]);
      deepEqual(await refusal(() => admin.createWorkflow(into(workflowInit("wf", "v1"), "nope", "development"))), [
        Code.InvalidArgument,
        unknown,
      ]);
      deepEqual(await refusal(() => admin.createTask(into(taskInit("t", "v1"), "flytesnacks", "dev"))), [
        Code.InvalidArgument,
        "domain [dev] is unrecognized by system",
      ]);
      // An archived project is "not active", with FlyteAdmin's InactiveProject detail.
      const archived = await admin.createTask(into(taskInit("t", "v1"), "old", "development")).catch((err) =>
        ConnectError.from(err)
      );
      if (!(archived instanceof ConnectError)) throw new Error("expected a refusal");
      deepEqual([archived.code, archived.rawMessage], [Code.InvalidArgument, "project [old] is not active"]);
      deepEqual(archived.findDetails(InactiveProjectSchema).map((detail) => detail.id), ["old"]);
      // A launch plan's workflow is looked up first; then its own project and domain are checked.
      sandbox.store.addWorkflow(workflowInit("wf", "v1"));
      deepEqual(await refusal(() => admin.createLaunchPlan(into(launchPlanInit("wf", "v1"), "nope", "development"))), [
        Code.InvalidArgument,
        unknown,
      ]);
      deepEqual(await refusal(() => admin.createLaunchPlan(into(launchPlanInit("wf", "v1"), "old", "staging"))), [
        Code.InvalidArgument,
        "project [old] is not active",
      ]);
      sandbox.store.addLaunchPlan(launchPlanInit("wf", "v1"));
      const launchPlan = launchPlanInit("wf", "v1").id;
      const execution = (project: string, domain: string) => ({ project, domain, spec: { launchPlan } });
      deepEqual(await refusal(() => admin.createExecution(execution("nope", "development"))), [
        Code.InvalidArgument,
        unknown,
      ]);
      deepEqual(await refusal(() => admin.createExecution(execution("flytesnacks", "qa"))), [
        Code.InvalidArgument,
        "domain [qa] is unrecognized by system",
      ]);
      // Nothing refused was stored; the seed project takes every domain.
      deepEqual(sandbox.store.tasks().length + sandbox.store.launchPlans().length, 1);
      await admin.createTask(into(taskInit("t", "v1"), "flytesnacks", "production"));
      await admin.createExecution(execution("flytesnacks", "development"));
    });
    // Seeding through the store keeps the same rules, and addProject makes a project as RegisterProject does.
    deepEqual(await refusal(() => sandbox.store.addTask({ ...taskInit("s", "v1"), id: { project: "ml" } })), [
      Code.InvalidArgument,
      'unexpected resource type unspecified for identifier [project:"ml"], expected task instead',
    ]);
    const ml = { ...taskInit("s", "v1").id, project: "ml" };
    deepEqual(
      (await refusal(() => sandbox.store.addTask({ ...taskInit("s", "v1"), id: ml })))[0],
      Code.InvalidArgument,
    );
    deepEqual(sandbox.store.addProject({ id: "ml", name: "ml" }).domains.length, 3);
    equal(sandbox.store.addTask({ ...taskInit("s", "v1"), id: ml }).id?.project, "ml");
    deepEqual(await refusal(() => sandbox.store.addProject({ id: "ml", name: "ml" })), [
      Code.AlreadyExists,
      // FlyteAdmin's words for Postgres refusing the row: the id is the primary key.
      'value with matching already exists (duplicate key value violates unique constraint "projects_pkey")',
    ]);
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

Deno.test("projects: a bad id or label is refused in Kubernetes' own words, as FlyteAdmin prints its list of them", async () => {
  const sandbox = await startSandbox();
  try {
    await withFullAdmin(sandbox, async (admin) => {
      const message = async (call: Promise<unknown>) => {
        try {
          await call;
        } catch (err) {
          if (err instanceof ConnectError && err.code === Code.InvalidArgument) return err.rawMessage;
          throw err;
        }
        return "accepted";
      };
      const labelRule = "(e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
      equal(
        await message(admin.registerProject({ project: { id: "Bad_Id", name: "x" } })),
        "invalid project id [Bad_Id]: [a lowercase RFC 1123 label must consist of lower case alphanumeric " +
          `characters or '-', and must start and end with an alphanumeric character ${labelRule}]`,
      );
      equal(
        await message(admin.registerProject({ project: { id: "a".repeat(64), name: "x" } })),
        `invalid project id [${"a".repeat(64)}]: [must be no more than 63 characters]`,
      );
      const nameRule = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an " +
        "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is " +
        "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
      const labelled = (values: Record<string, string>) =>
        message(admin.registerProject({ project: { id: "ml", name: "ml", labels: { values } } }));
      // UpdateProject looks the project up before it validates, and FlyteAdmin's lookup of an empty id finds one.
      equal(await message(admin.updateProject({ id: "", name: "x" })), "missing project_id");
      equal(await labelled({ "BAD KEY": "x" }), `invalid label key [BAD KEY]: [name part ${nameRule}]`);
      equal(
        await labelled({ "a/b/c": "x" }),
        `invalid label key [a/b/c]: [a qualified name ${nameRule} with an optional DNS subdomain prefix and '/' ` +
          "(e.g. 'example.com/MyName')]",
      );
      equal(await labelled({ "/team": "x" }), "invalid label key [/team]: [prefix part must be non-empty]");
      equal(
        await labelled({ "Example.com/team": "x" }),
        "invalid label key [Example.com/team]: [prefix part a lowercase RFC 1123 subdomain must consist of lower " +
          "case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. " +
          "'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')]",
      );
      equal(
        await labelled({ team: `-${"x".repeat(63)}` }),
        `invalid label value [-${"x".repeat(63)}]: [must be no more than 63 characters a valid label must be an ` +
          "empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an " +
          "alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is " +
          "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')]",
      );
    });
  } finally {
    await sandbox.close();
  }
});

Deno.test("projects: labels FlyteAdmin refuses (a bad key or value, more than 16) and names over 64 bytes are refused", async () => {
  const sandbox = await startSandbox();
  try {
    await withFullAdmin(sandbox, async (admin) => {
      const refused = async (call: Promise<unknown>, message: string) => {
        await rejects(call, (err) =>
          err instanceof ConnectError && err.code === Code.InvalidArgument &&
          err.rawMessage.startsWith(message));
      };
      const project = (values: Record<string, string>) => ({ id: "ml", name: "ml", labels: { values } });
      await refused(admin.registerProject({ project: project({ "BAD KEY": "x" }) }), "invalid label key [BAD KEY]: ");
      await refused(
        admin.registerProject({ project: project({ team: "ML team" }) }),
        "invalid label value [ML team]: ",
      );
      await refused(admin.registerProject({ project: project({ "a/b/c": "x" }) }), "invalid label key [a/b/c]: ");
      const many = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, "v"]));
      await refused(admin.registerProject({ project: project(many) }), "labels map cannot exceed 16 entries");
      await refused(
        admin.updateProject({ id: "flytesnacks", name: "flytesnacks", labels: { values: { team: "-x" } } }),
        "invalid label value [-x]: ",
      );
      // What the rules allow: a prefixed key, an empty value, 16 labels.
      const sixteen = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, "v"]));
      await admin.registerProject({ project: project({ ...sixteen }) });
      await admin.updateProject({
        id: "ml",
        name: "ml",
        labels: { values: { "example.com/team": "", "a_b.c": "X-1" } },
      });
      deepEqual((await admin.getProject({ id: "ml" })).labels?.values, { "example.com/team": "", "a_b.c": "X-1" });
      // Lengths are Go's: bytes of UTF-8.
      await refused(
        admin.updateProject({ id: "ml", name: "é".repeat(33) }),
        "project_name cannot exceed 64 characters",
      );
      await admin.updateProject({ id: "ml", name: "é".repeat(32) });
    });
  } finally {
    await sandbox.close();
  }
});

Deno.test("named entities: an update names the missing id field, fails a description over 300 characters, keeps one sent empty", async () => {
  const sandbox = await startSandbox();
  try {
    sandbox.store.addTask(taskInit("a.task", "v1"));
    await withFullAdmin(sandbox, async (admin) => {
      const id = { project: "flytesnacks", domain: "development", name: "a.task" };
      const refused = async (call: Promise<unknown>, status: Code, message: string) => {
        await rejects(call, (err) => err instanceof ConnectError && err.code === status && err.rawMessage === message);
      };
      for (const field of ["project", "domain", "name"] as const) {
        const metadata = { description: "", state: 0 };
        const blank = { ...id, [field]: "" };
        await refused(
          admin.updateNamedEntity({ resourceType: 1, id: blank, metadata }),
          Code.InvalidArgument,
          `missing ${field}`,
        );
        await refused(admin.getNamedEntity({ resourceType: 1, id: blank }), Code.InvalidArgument, `missing ${field}`);
      }
      // A name without versions is gorm's not-found; a resource type with no versions to name is refused by name.
      await refused(
        admin.getNamedEntity({ resourceType: 1, id: { ...id, name: "ghost" } }),
        Code.NotFound,
        "entry not found",
      );
      await refused(
        admin.getNamedEntity({ resourceType: 4, id }),
        Code.InvalidArgument,
        "Cannot get NamedEntityMetadata for resource type: DATASET",
      );
      await refused(
        admin.updateNamedEntity({ resourceType: 4, id, metadata: { state: 1 } }),
        Code.InvalidArgument,
        "Resource [DATASET] cannot have its state updated",
      );
      // The metadata column is a varchar(300): the database refuses more, and FlyteAdmin passes that on as UNKNOWN.
      await refused(
        admin.updateNamedEntity({ resourceType: 1, id, metadata: { description: "d".repeat(301) } }),
        Code.Unknown,
        "failed database operation with value too long for type character varying(300)",
      );
      // 300 characters fit, however many bytes they are.
      await admin.updateNamedEntity({ resourceType: 1, id, metadata: { description: "é".repeat(300) } });
      equal((await admin.getNamedEntity({ resourceType: 1, id })).metadata?.description, "é".repeat(300));
      // Written with gorm's Assign, which skips empty fields: a description sent empty stays; the state is written.
      await admin.updateNamedEntity({ resourceType: 1, id, metadata: { description: "", state: 1 } });
      const kept = (await admin.getNamedEntity({ resourceType: 1, id })).metadata;
      deepEqual([kept?.description, kept?.state], ["é".repeat(300), 1]);
    });
  } finally {
    await sandbox.close();
  }
});

Deno.test("projects: UpdateProject keeps a name or description sent empty, and labels sent without a labels message", async () => {
  const sandbox = await startSandbox();
  try {
    await withFullAdmin(sandbox, async (admin) => {
      await admin.registerProject({
        project: { id: "ml", name: "ML", description: "models", labels: { values: { a: "b" } } },
      });
      // FlyteAdmin's repository writes the project with gorm's Updates, which skips a struct's empty fields.
      await admin.updateProject({ id: "ml", name: "", description: "", state: 1 });
      const kept = await admin.getProject({ id: "ml" });
      deepEqual([kept.name, kept.description, kept.labels?.values, kept.state], ["ML", "models", { a: "b" }, 1]);
      // A labels message, even an empty one, replaces them; the state is always written.
      await admin.updateProject({ id: "ml", name: "ML2", labels: { values: {} } });
      const changed = await admin.getProject({ id: "ml" });
      deepEqual([changed.name, changed.description, changed.labels?.values, changed.state], ["ML2", "models", {}, 0]);
    });
  } finally {
    await sandbox.close();
  }
});
