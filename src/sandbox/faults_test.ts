import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { Code } from "@connectrpc/connect";
import { FaultInjector } from "./faults.ts";

function outcomes(faults: FaultInjector, method: string, calls: number): (string | null)[] {
  return Array.from({ length: calls }, () => {
    const err = faults.check(method);
    return err ? Code[err.code] : null;
  });
}

Deno.test("failNext fails exactly count calls of that method, in order of the rules", () => {
  const faults = new FaultInjector();
  faults.failNext("ListTasks", Code.Unavailable, 2);
  faults.failNext("*", Code.Internal);
  assertEquals(outcomes(faults, "GetTask", 2), ["Internal", null]);
  assertEquals(outcomes(faults, "ListTasks", 3), ["Unavailable", "Unavailable", null]);
});

Deno.test("failRatio spreads failures evenly, starting with a failure", () => {
  const faults = new FaultInjector();
  faults.failRatio("*", Code.Unavailable, 0.5);
  assertEquals(outcomes(faults, "ListTasks", 4), ["Unavailable", null, "Unavailable", null]);
  faults.failRatio("GetTask", Code.ResourceExhausted, 1 / 3);
  assertEquals(outcomes(faults, "GetTask", 6), ["ResourceExhausted", null, null, "ResourceExhausted", null, null]);
  faults.failRatio("*", Code.Unavailable, 0.7);
  assertEquals(outcomes(faults, "X", 10).filter((o) => o !== null).length, 7);
});

Deno.test("clear removes every rule", () => {
  const faults = new FaultInjector();
  faults.failNext("*", Code.Unavailable, 5);
  faults.failRatio("*", Code.Unavailable, 1);
  faults.clear();
  assertEquals(outcomes(faults, "ListTasks", 2), [null, null]);
});
