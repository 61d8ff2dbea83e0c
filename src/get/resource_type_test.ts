import { equal } from "node:assert/strict";
import { ResourceType } from "../../proto/gen/flyteidl/core/identifier_pb.ts";
import { RESOURCE_TYPE } from "./resource_type.ts";

Deno.test("resource types: each constant is flyteidl's enum value of the same name", () => {
  for (const [name, value] of Object.entries(RESOURCE_TYPE)) {
    equal(value, ResourceType[name as keyof typeof ResourceType], name);
  }
});
