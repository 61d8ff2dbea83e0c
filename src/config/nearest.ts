/**
 * "Did you mean" suggestions for unknown config keys, at a bounded cost: a config file may hold tens of
 * thousands of keys, so a suggestion is only worked out for the few unknown keys that are shown (see
 * `load.ts`), candidates whose length alone rules them out are skipped, and the distance computation
 * stops as soon as it exceeds what counts as close.
 *
 * @module
 */
import { quote } from "../errors.ts";

/**
 * Levenshtein distance, case-insensitive (config keys differ mostly by case and typos), or `limit + 1` as
 * soon as the distance is known to exceed `limit` (every cell of a row above it).
 */
export function editDistance(a: string, b: string, limit = Infinity): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (Math.abs(x.length - y.length) > limit) return limit + 1;
  let previous = Array.from({ length: y.length + 1 }, (_, i) => i);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (current[j] < rowMin) rowMin = current[j];
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[y.length];
}

/** The last segment of a dotted path. */
function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf(".") + 1);
}

/** The dotted path without its last segment (`""` at the top). */
function parentOf(path: string): string {
  return path.slice(0, Math.max(0, path.lastIndexOf(".")));
}

/**
 * Suggests, for an unknown key, the valid key a user most likely meant: a close sibling in the same
 * section, else any key whose last segment is close (a key put in the wrong section). Nothing when nothing
 * is close: a wild guess misleads. The candidates are grouped by section once; each suggestion costs at
 * most one bounded distance per candidate, counted in {@link KeySuggester.distances}.
 */
export class KeySuggester {
  readonly #all: readonly string[];
  readonly #bySection = new Map<string, string[]>();
  #distances = 0;

  /** A suggester among the `known` dotted keys (leaves and sections). */
  constructor(known: Iterable<string>) {
    this.#all = [...known];
    for (const key of this.#all) {
      const parent = parentOf(key);
      const siblings = this.#bySection.get(parent);
      if (siblings) siblings.push(key);
      else this.#bySection.set(parent, [key]);
    }
  }

  /** Distance computations made so far (what a suggestion costs; a test bounds it). */
  get distances(): number {
    return this.#distances;
  }

  /** The key `path` most likely meant, if one is close. */
  suggest(path: string): string | undefined {
    const name = lastSegment(path);
    const limit = Math.max(1, Math.floor(name.length / 3));
    return this.#closest(name, this.#bySection.get(parentOf(path)) ?? [], limit) ??
      this.#closest(name, this.#all, limit);
  }

  /**
   * How every message about an unknown key ends (a config file's, a `connect()` option's): `; did you mean
   * "admin.caCertFilePath"?` when a valid key is close to `path`, else nothing.
   */
  didYouMean(path: string): string {
    const near = this.suggest(path);
    return near ? `; did you mean ${quote(near)}?` : "";
  }

  #closest(name: string, candidates: readonly string[], limit: number): string | undefined {
    let best: string | undefined;
    let bestDistance = limit + 1;
    for (const candidate of candidates) {
      const segment = lastSegment(candidate);
      // The cheap prefilter: lengths further apart than the limit cannot be close.
      if (Math.abs(segment.length - name.length) > limit) continue;
      this.#distances++;
      const distance = editDistance(name, segment, bestDistance - 1);
      if (distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    return best;
  }
}
