/**
 * Keeping a large stream (a fast-registration source of hundreds of MB) from piling up memory.
 *
 * Every chunk of a streamed file is a fresh `ArrayBuffer` whose bytes live outside V8's heap and are
 * freed only when the small object that owns them is collected. fctl runs with a 16 MB young
 * generation (see `FCTL_V8_FLAGS`): registration then collects garbage a few times instead of a few
 * dozen, but the young generation holds so many dead chunks before it fills that a 300 MB source
 * peaked above 150 MB RSS. So code that streams a file counts its bytes here, and every
 * {@link COLLECT_EVERY_BYTES} a young-generation collection is asked for; with nothing but dead
 * chunks in it, one takes a fraction of a millisecond.
 *
 * That needs `gc`, which V8 gives only with `--expose-gc` (one of fctl's V8 flags). Without it (a
 * program that uses fctl as a library) counting does nothing, and memory is as that program's V8
 * flags make it.
 *
 * @module
 */

/** Bytes streamed between two requested collections. */
export const COLLECT_EVERY_BYTES = 8 * 1024 * 1024;

type GarbageCollector = (options: { type: "minor" }) => void;

/** V8's `gc`, when exposed (`--expose-gc`). */
function exposedGc(): GarbageCollector | undefined {
  const gc = (globalThis as { gc?: GarbageCollector }).gc;
  return typeof gc === "function" ? gc : undefined;
}

/** A young-generation collection now, when V8 exposes `gc`; otherwise nothing. */
export function collectYoungGeneration(): void {
  exposedGc()?.({ type: "minor" });
}

/**
 * A counter for streamed bytes: call it with each chunk's size. Counters are independent; each asks
 * for a collection once its own stream has moved {@link COLLECT_EVERY_BYTES}.
 */
export function streamedBytesCounter(): (bytes: number) => void {
  const gc = exposedGc();
  if (gc === undefined) return () => {};
  let since = 0;
  return (bytes) => {
    since += bytes;
    if (since < COLLECT_EVERY_BYTES) return;
    since = 0;
    gc({ type: "minor" });
  };
}
