import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { base32 } from "./base32.ts";
import { fixedLengthUniqueId, uniqueNodeId } from "./node_execution_ids.ts";

Deno.test("node execution ids are flytepropeller's: <parent>-<attempt>-<node>, hashed beyond 20 characters", () => {
  // The expectations of flytepropeller's own tests (GenerateUniqueID, FixedLengthUniqueID).
  assertEquals(uniqueNodeId("u1", 2, "n1"), "u1-2-n1");
  assertEquals(uniqueNodeId("u1111111111323131231asdadasd", 2, "n1"), "fraibbty");
  assertEquals(fixedLengthUniqueId(["x".repeat(24)]), "fuaa3aji");
  assertEquals(fixedLengthUniqueId(["x", "y", "z"], 10), "x-y-z");
  assertEquals(fixedLengthUniqueId(["x", "y", "z", "m", "n", "y", "z", "m", "n", "y", "z", "m", "n"], 15), "fe63sz6y");
  // A top-level node has no parent: its own id, hashed too when it is long.
  assertEquals(uniqueNodeId(undefined, 0, "n0"), "n0");
  assertEquals(uniqueNodeId(undefined, 0, "x".repeat(24)), "fuaa3aji");
  // Exactly 20 characters is kept.
  assertEquals(uniqueNodeId("b-0-b-ib", 0, "b-ib-t000"), "b-0-b-ib-0-b-ib-t000");
});

Deno.test("base32 writes Go's encodings: standard with padding, another alphabet without", () => {
  const bytes = new TextEncoder().encode("foobar");
  assertEquals(base32(bytes), "MZXW6YTBOI======");
  assertEquals(base32(bytes, "abcdefghijklmnopqrstuvwxyz123456", false), "mzxw5ytboi");
  assertEquals(base32(new Uint8Array()), "");
});
