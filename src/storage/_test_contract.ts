/**
 * Checks every storage backend's tests share: the rules `store.ts` states for all backends, asserted the same
 * way against each (the emulated clouds have tests of their own, as they need their emulators).
 *
 * @module
 */
import { rejects } from "node:assert/strict";
import { OperationError } from "../errors.ts";
import type { ObjectStore } from "./store.ts";

/**
 * `readBytes` refuses `existing` (of `size` bytes) under a 4-byte limit, naming it, its size and the option;
 * `readBytes` and `readStream` of `missing` name it as no such object.
 */
export async function assertReadLimits(
  store: ObjectStore,
  existing: { ref: string; size: number },
  missing: string,
): Promise<void> {
  await rejects(
    store.readBytes(existing.ref, 4),
    new OperationError(
      `cannot read "${existing.ref}" into memory: it is ${existing.size} bytes, more than the 4 bytes ` +
        "storage.limits.maxDownloadMBs allows",
    ),
  );
  await rejects(store.readBytes(missing, 4), new OperationError(`cannot read "${missing}": no such object`));
  await rejects(store.readStream(missing), new OperationError(`cannot read "${missing}": no such object`));
}
