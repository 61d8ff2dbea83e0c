import { deepEqual, equal } from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import { parse } from "yaml";
import { LaunchPlanSchema } from "../../proto/gen/flyteidl/admin/launch_plan_pb.ts";
import { SimpleType } from "../../proto/gen/flyteidl/core/types_pb.ts";
import { renderSpec } from "../tasks/exec_spec.ts";
import { decodeMsgpack } from "../get/msgpack_decode.ts";
import { primitive, simple } from "../_test_literals.ts";
import { launchPlanExecSpec } from "./exec_spec.ts";

const NOW = new Date("2024-03-04T05:06:07.123Z");

/** MessagePack of {"a": 1, "b": "x", "c": [true, null, -1.5]}, as flytekit writes a dataclass default. */
const MSGPACK = new Uint8Array([
  0x83,
  0xa1,
  0x61,
  0x01,
  0xa1,
  0x62,
  0xa1,
  0x78,
  0xa1,
  0x63,
  0x93,
  0xc3,
  0xc0,
  0xcb,
  0xbf,
  0xf8,
  0x00,
  0x00,
  0x00,
  0x00,
  0x00,
  0x00,
]);

const LAUNCH_PLAN = create(LaunchPlanSchema, {
  id: { resourceType: 3, project: "flytesnacks", domain: "development", name: "core.lp", version: "v3" },
  spec: {
    defaultInputs: {
      parameters: {
        count: {
          var: { type: simple(SimpleType.INTEGER), description: "count" },
          behavior: { case: "default", value: primitive({ case: "integer", value: 10n }) },
        },
        day: {
          var: { type: simple(SimpleType.STRING), description: "the day\nof the week" },
          behavior: { case: "required", value: true },
        },
        numbers: {
          var: {
            type: { type: { case: "collectionType", value: simple(SimpleType.INTEGER) } },
            description: "numbers",
          },
          behavior: { case: "required", value: true },
        },
        config: {
          var: { type: simple(SimpleType.BINARY), description: "config" },
          behavior: {
            case: "default",
            value: {
              value: {
                case: "scalar",
                value: { value: { case: "binary", value: { value: MSGPACK, tag: "msgpack" } } },
              },
            },
          },
        },
        greeting: {
          var: { type: simple(SimpleType.STRING), description: "greeting" },
          behavior: { case: "default", value: primitive({ case: "stringValue", value: "hi" }) },
        },
      },
    },
    // Fixed inputs are not the user's to set: never in the spec.
    fixedInputs: { literals: { fixed: primitive({ case: "integer", value: 1n }) } },
  },
});

Deno.test("a launch plan's exec spec: defaults given, msgpack decoded, required ones marked, fixed ones absent", async () => {
  const spec = launchPlanExecSpec(LAUNCH_PLAN, NOW);
  const text = await renderSpec(spec);
  equal(
    text,
    `iamRoleARN: ""
inputs:
  config:
    a: 1
    b: x
    c:
      - true
      - null
      - -1.5
  count: 10
  # required
  # the day
  # of the week
  day: ""
  greeting: hi
  # required
  numbers:
    - 0
envs: {}
kubeServiceAcct: ""
targetDomain: ""
targetProject: ""
version: v3
workflow: core.lp
`,
  );
  deepEqual(parse(text, { version: "1.1" }), spec.document, "it parses back to the document written");
});

Deno.test("msgpack: every type flytekit writes decodes; anything else is refused", () => {
  deepEqual(decodeMsgpack(MSGPACK), { a: 1, b: "x", c: [true, null, -1.5] });
  deepEqual(decodeMsgpack(new Uint8Array([0xcd, 0x01, 0x00])), 256);
  deepEqual(decodeMsgpack(new Uint8Array([0xd0, 0xff])), -1);
  deepEqual(decodeMsgpack(new Uint8Array([0xc4, 0x02, 0x07, 0x08])), [7, 8]);
  // 64-bit integers: exact, or refused (the caller then shows the raw bytes), never rounded.
  const uint64 = (n: bigint) =>
    new Uint8Array([0xcf, ...new Array(8).fill(0).map((_, i) => Number((n >> BigInt(8 * (7 - i))) & 0xffn))]);
  const int64 = (n: bigint) => {
    const bytes = new Uint8Array(9);
    bytes[0] = 0xd3;
    new DataView(bytes.buffer).setBigInt64(1, n);
    return bytes;
  };
  deepEqual(decodeMsgpack(uint64(2n ** 53n - 1n)), Number.MAX_SAFE_INTEGER);
  deepEqual(decodeMsgpack(int64(-(2n ** 53n) + 1n)), Number.MIN_SAFE_INTEGER);
  deepEqual(decodeMsgpack(new Uint8Array([0x81, 0x01, 0xa1, 0x78])), { "1": "x" }, "a number key");
  const timestamp = [0xd6, 0xff, 0x00, 0x00, 0x00, 0x01];
  const ext = [0xd4, 0x01, 0x00];
  for (
    const bad of [
      [0x92, 0x01],
      [0xc1],
      [0x01, 0x02],
      [...uint64(2n ** 53n + 1n)],
      [...int64(-(2n ** 53n) - 1n)],
      timestamp,
      ext,
      [0x91, ...ext],
    ]
  ) {
    let refused = false;
    try {
      decodeMsgpack(new Uint8Array(bad));
    } catch {
      refused = true;
    }
    equal(refused, true, JSON.stringify(bad));
  }
});
