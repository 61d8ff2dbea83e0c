/**
 * "Did you mean" for a mistyped command or flag on the command line: the names within a few edits of what was
 * typed, as the command line's errors have always suggested them (`unknown option '--projct' (did you mean
 * --project?)`). Unlike config keys (`src/config/nearest.ts`, case-insensitive, one key per section), a command
 * line is typed: a swapped pair of letters is one edit, case counts, and equally near names are all offered.
 *
 * @module
 */

/** Names further than this many edits are no suggestion. */
const MAX_DISTANCE = 3;

/** A name is suggested only when more than this share of its letters survive the edits. */
const MIN_SIMILARITY = 0.4;

/**
 * The optimal string alignment distance of `a` and `b`: insertions, deletions, substitutions and swaps of two
 * neighbours, no letter edited twice. Beyond {@link MAX_DISTANCE} in length alone, the longer length.
 */
export function typingDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > MAX_DISTANCE) return Math.max(a.length, b.length);
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 0; j <= b.length; j++) d[0][j] = j;
  for (let j = 1; j <= b.length; j++) {
    for (let i = 1; i <= a.length; i++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/**
 * The end of an "unknown …" message for `word` among `candidates`: ` (did you mean register?)`, ` (did you
 * mean one of --domain, --dryRun?)` when several are equally near, or `""` when none is near. Flags (`--x`) are
 * compared without their dashes; one-letter names are never suggested.
 */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const dashes = word.startsWith("--") ? 2 : 0;
  const typed = word.slice(dashes);
  let best: string[] = [];
  let bestDistance = MAX_DISTANCE;
  for (const candidate of new Set(candidates)) {
    const name = candidate.slice(dashes);
    if (name.length <= 1) continue;
    const distance = typingDistance(typed, name);
    const length = Math.max(typed.length, name.length);
    if ((length - distance) / length <= MIN_SIMILARITY) continue;
    if (distance < bestDistance) {
      bestDistance = distance;
      best = [candidate];
    } else if (distance === bestDistance) {
      best.push(candidate);
    }
  }
  best.sort((a, b) => a.localeCompare(b));
  if (best.length === 0) return "";
  return ` (did you mean ${best.length > 1 ? "one of " : ""}${best.join(", ")}?)`;
}
