import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { base32 } from "./base32.ts";
import { dns1123Name, fixedLengthUniqueId, taskExecutionName, uniqueNodeId } from "./node_execution_ids.ts";

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

Deno.test("task execution names are flytepropeller's: <execution>-<node>-<attempt>, hashed past 50, a valid pod name", () => {
  // The expectations of flytepropeller's own tests (ComputeRawOutputPrefix, ConvertToDNS1123SubdomainCompatibleString).
  assertEquals(taskExecutionName("name", "n1", 0), "name-n1-0");
  assertEquals(fixedLengthUniqueId(["name", "n1", "0"], 8), "fpqmhlei");
  assertEquals(taskExecutionName("name", "n0-2-n1", 1), "name-n0-2-n1-1");
  // 50 characters are kept; 51 are hashed.
  assertEquals(taskExecutionName("a".repeat(45), "n1", 1), `${"a".repeat(45)}-n1-1`);
  assertEquals(taskExecutionName("a".repeat(46), "n1", 1), "fl1kdl2i");
  assertEquals(dns1123Name("orgflyteexamplesHelloWorldTask-0"), "orgflyteexamples-hello-world-task-0");
  assertEquals(dns1123Name("t7v.yqh.zju1-fib-5-0"), "t7v.yqh.zju1-fib-5-0");
  assertEquals(dns1123Name("-t7vyqhzju1-fib-5-0."), "t7vyqhzju1-fib-5-0");
  assertEquals(dns1123Name("---..t7vyqhzjJcI==u1-HelloWorldTask[].-.-."), "t7vyqhzj-jc-iu1-hello-world-task");
  assertEquals(taskExecutionName("run", "Train_Model", 0), "run-trainmodel-0");
});
