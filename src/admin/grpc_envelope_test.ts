import { deepEqual, throws } from "node:assert/strict";
import { encodeEnvelope, splitEnvelopes } from "./grpc_envelope.ts";

Deno.test("envelopes: framed and split back exactly, flags kept, truncation refused", () => {
  deepEqual([...encodeEnvelope(new Uint8Array([1, 2]))], [0, 0, 0, 0, 2, 1, 2]);
  deepEqual(splitEnvelopes(new Uint8Array()), []);
  deepEqual(splitEnvelopes(encodeEnvelope(new Uint8Array([1, 2]))), [
    { compressed: false, message: new Uint8Array([1, 2]) },
  ]);
  deepEqual(
    splitEnvelopes(new Uint8Array([...encodeEnvelope(new Uint8Array([7]), 1), ...encodeEnvelope(new Uint8Array())])),
    [{ compressed: true, message: new Uint8Array([7]) }, { compressed: false, message: new Uint8Array() }],
  );
  throws(() => splitEnvelopes(new Uint8Array([0, 0, 0])), /incomplete envelope/);
  throws(
    () => splitEnvelopes(encodeEnvelope(new Uint8Array(4)).subarray(0, 7)),
    /promised 4 bytes in enveloped message, got 2/,
  );
});
