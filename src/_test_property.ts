/**
 * Property tests' shared runner (test code only): scales case counts with `FCTL_FUZZ_SCALE` (`deno task
 * fuzz`), and records how many generated cases each property ran in the file named by
 * `FCTL_PROPERTY_CASES`, one `name<TAB>count` line each, so that `deno task test` and `deno task fuzz`
 * print the total.
 *
 * @module
 */
import fc from "fast-check";

/** `FCTL_FUZZ_SCALE`: a positive multiplier of every property's case count (default 1). */
export function fuzzScale(): number {
  const text = Deno.env.get("FCTL_FUZZ_SCALE");
  const scale = Number(text ?? "1");
  if (!(scale > 0)) throw new Error(`FCTL_FUZZ_SCALE must be a positive number, not ${text}`);
  return scale;
}

/** `base` cases, scaled by {@link fuzzScale}. */
export function runs(base: number): number {
  return Math.max(1, Math.round(base * fuzzScale()));
}

/**
 * Runs `property` like `fc.assert` (the same failure report, with the seed and the shrunk counterexample),
 * and records the cases it ran under `name`.
 */
export async function checkProperty<Ts>(
  name: string,
  property: fc.IRawProperty<Ts>,
  params: fc.Parameters<Ts>,
): Promise<void> {
  const details = await fc.check(property, params);
  const file = Deno.env.get("FCTL_PROPERTY_CASES");
  if (file) await Deno.writeTextFile(file, `${name}\t${details.numRuns}\n`, { append: true });
  if (details.failed) throw new Error(fc.defaultReportMessage(details) ?? `property ${name} failed`);
}

/** The total of the cases recorded in `file` (see {@link checkProperty}), 0 when nothing was recorded. */
export async function recordedCases(file: string): Promise<number> {
  let text = "";
  try {
    text = await Deno.readTextFile(file);
  } catch {
    return 0;
  }
  return text.split("\n").reduce((sum, line) => sum + (Number(line.split("\t")[1]) || 0), 0);
}
