/**
 * The library's exported types serve a normal program without casts: each option of `OPTIONS` has every field an
 * `OptionSpec` declares (its `type` to compare, `secret`, `choices`, …) while keeping its literal key. This file
 * failing to type-check is the failure.
 */
import { deepEqual, ok as assert } from "node:assert/strict";
import { type AnyOption, type OptionKey, OPTIONS, type OptionSpec } from "../mod.ts";

Deno.test("OPTIONS: an option's optional fields and its type are read without a cast, its key stays an OptionKey", () => {
  const secrets: OptionKey[] = OPTIONS.filter((option) => option.secret).map((option) => option.key);
  deepEqual(secrets, ["storage.connection.secret-key"]);
  const durations = OPTIONS.filter((option) => option.type === "duration").map((option) => option.key);
  assert(durations.includes("admin.perRetryTimeout"));
  const enums = OPTIONS.filter((option) => option.choices !== undefined).map((option) => option.key);
  assert(enums.includes("storage.type"));
  const specs: readonly OptionSpec[] = OPTIONS;
  const endpoint: AnyOption | undefined = OPTIONS.find((option) => option.key === "admin.endpoint");
  assert(endpoint && specs.includes(endpoint));
});
