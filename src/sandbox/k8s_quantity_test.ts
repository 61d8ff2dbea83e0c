import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { parseQuantity, QuantityError, quantityMilliValue, quantityString, quantityValue } from "./k8s_quantity.ts";

/** `text` as Kubernetes prints it back, with Value() and MilliValue(), or its parse error. */
function read(text: string): string {
  try {
    const quantity = parseQuantity(text);
    return `${quantityString(quantity)} ${quantityValue(quantity)} ${quantityMilliValue(quantity)}`;
  } catch (err) {
    if (err instanceof QuantityError) return `error: ${err.message}`;
    throw err;
  }
}

Deno.test("quantities print in Kubernetes' canonical form, values rounded up", () => {
  const cases: [string, string][] = [
    ["500m", "500m 1 500"],
    ["1Gi", "1Gi 1073741824 1073741824000"],
    ["1024Mi", "1Gi 1073741824 1073741824000"],
    ["1.5Gi", "1536Mi 1610612736 1610612736000"],
    ["1.5", "1500m 2 1500"],
    ["0.5", "500m 1 500"],
    ["2000", "2k 2000 2000000"],
    ["2e3", "2e3 2000 2000000"],
    ["2e2", "200 200 200000"],
    ["1e19", "10e18 10000000000000000000 10000000000000000000000"],
    ["1.0001", "1000100u 2 1001"],
    ["1e-10", "1e-9 1 1"],
    ["0.0001Ki", "102400u 1 103"],
    ["512Ki", "512Ki 524288 524288000"],
    ["100", "100 100 100000"],
    ["0", "0 0 0"],
    ["-1.5", "-1500m -2 -1500"],
    // Kubernetes keeps text that is already canonical as written, a sign or a trailing point included.
    ["+1", "+1 1 1000"],
    ["1.", "1. 1 1000"],
  ];
  for (const [text, expected] of cases) assertEquals([text, read(text)], [text, expected]);
});

Deno.test("quantities Kubernetes refuses, with its words", () => {
  const format = "error: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
  assertEquals(read(""), format);
  assertEquals(read("1GB"), format);
  assertEquals(read("1 Gi"), format);
  assertEquals(read("1.2.3"), format);
  assertEquals(read("1K"), "error: unable to parse quantity's suffix");
  assertEquals(read("1e"), "error: unable to parse quantity's suffix");
  assertEquals(read("+.e-10"), "error: unable to parse numeric part of quantity");
});

Deno.test("an enormous exponent parses without building the number", () => {
  assertEquals(read("1e2000000000").split(" ")[0], "100e1999999998");
  assertEquals(read("1e-2000000000"), "1e-9 1 1");
});
