import { deepEqual, equal, ok as assert } from "node:assert/strict";
import { ExitCode } from "../errors.ts";
import { filesNotRegistered, projectRefusalOf, ProjectRefusedError, refusalInfo } from "./project_refusal.ts";

const id = { project: "ml", domain: "qa" };
const due = (message: string) => `Error registering file due to ${message}`;

Deno.test("projectRefusalOf reads FlyteAdmin's three refusals, taking what the message leaves out from the id", () => {
  const notFound = "failed to validate that project [nope] and domain [development] are registered, " +
    "err: [project [nope] not found]";
  deepEqual(projectRefusalOf(due(notFound), id), {
    reason: "projectNotFound",
    project: "nope",
    domain: "development",
  });
  deepEqual(projectRefusalOf(due("project [old] is not active"), id), {
    reason: "projectNotActive",
    project: "old",
    domain: "qa",
  });
  deepEqual(projectRefusalOf(due("domain [qa] is unrecognized by system"), id), {
    reason: "unknownDomain",
    project: "ml",
    domain: "qa",
  });
});

Deno.test("projectRefusalOf: a hostile admin's long message is read in one pass, a refusal at its end still found", () => {
  // Repeated starts of the refusal, never finished: with `.*` between its parts this took seconds per message.
  const hostile = "failed to validate that project [" +
    "] and domain [x] are registered, err: [project [".repeat(1_500) + "x";
  const started = performance.now();
  equal(projectRefusalOf(due(hostile), id), undefined);
  const refusal = "project [old] is not active";
  deepEqual(projectRefusalOf(due(hostile + ": " + refusal), id), {
    reason: "projectNotActive",
    project: "old",
    domain: "qa",
  });
  assert(performance.now() - started < 2_000, "matched in one pass");
});

Deno.test("projectRefusalOf: a project the admin could not read for another reason, or another failure, is no refusal", () => {
  const dbDown = "failed to validate that project [ml] and domain [qa] are registered, err: [connection refused]";
  equal(projectRefusalOf(due(dbDown), id), undefined);
  equal(projectRefusalOf(due("task with different structure already exists"), id), undefined);
});

Deno.test("ProjectRefusedError: one line of what was refused, how much was not registered, and what to do (exit 1)", () => {
  const missing = new ProjectRefusedError(
    { reason: "projectNotFound", project: "ml", domain: "qa" },
    filesNotRegistered(3, 3),
  );
  equal(
    missing.message,
    'project "ml" does not exist on the admin: none of the 3 files was registered; ' +
      "create it with: fctl create project --id ml --name ml",
  );
  equal(missing.exitCode, ExitCode.Failed);
  const domain = new ProjectRefusedError(
    { reason: "unknownDomain", project: "ml", domain: "qa" },
    filesNotRegistered(2, 5),
    ["dev"],
  );
  equal(
    domain.message,
    'domain "qa" is not one the admin has (dev): 2 of 5 files were not registered; register into one of its domains with -d',
  );
  equal(refusalInfo(domain.refusal), "Not registered: the admin has no domain qa");
  // A project id the admin would refuse to create: no command that cannot work, what a project id is instead.
  equal(
    new ProjectRefusedError({ reason: "projectNotFound", project: "My Proj", domain: "qa" }, filesNotRegistered(2, 2))
      .message,
    'project "My Proj" does not exist on the admin: none of the 2 files was registered; ' +
      "check -p: a project id is lower case letters, digits and '-' (not first or last), at most 63 characters",
  );
  // A package of one file, and one file of several, in plain English.
  const archived = { reason: "projectNotActive", project: "ml", domain: "qa" } as const;
  equal(
    new ProjectRefusedError(archived, filesNotRegistered(1, 1)).message,
    'project "ml" is not active (archived) on the admin: the file was not registered; ' +
      "activate it with: fctl update project ml --activate",
  );
  equal(
    new ProjectRefusedError(archived, filesNotRegistered(1, 4)).message,
    'project "ml" is not active (archived) on the admin: 1 of 4 files was not registered; ' +
      "activate it with: fctl update project ml --activate",
  );
});
