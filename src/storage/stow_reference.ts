/**
 * Which container and key a reference names, for the stow google and azure backends, and whether that
 * backend may use it: the scheme must be the kind's, and the container the configured one unless
 * `storage.enable-multicontainer` is on (flytestdlib refuses other containers the same way).
 *
 * @module
 */
import { quote, UsageError } from "../errors.ts";

/** What a backend accepts. */
export interface ReferenceRules {
  /** How errors name the backend: `stow google`, `stow azure`. */
  backend: string;
  /** Accepted schemes, the canonical one first (`gs`; `abfs`, `abfss`). */
  schemes: readonly string[];
  /** `storage.container`. */
  container: string;
  /** `storage.enable-multicontainer`. */
  multiContainer: boolean;
  /**
   * Azure ADLS Gen2 form `abfs://<container>@<account>.dfs.core.windows.net/<key>`: flytestdlib takes the
   * container from the user part. When set, that form is accepted if its account is this one.
   */
  account?: string;
}

/** A reference this backend may use. */
export interface ResolvedReference {
  container: string;
  /** Object key, without leading slash, never empty. */
  key: string;
}

/**
 * Resolves `ref` under `rules`.
 *
 * @throws {UsageError} another scheme, another container while multicontainer is off, another account, no key,
 *   or a `..` segment
 */
export function resolveReference(ref: string, rules: ReferenceRules): ResolvedReference {
  const expected = rules.schemes.map((s) => `${s}://`).join(" or ");
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/]*)\/?(.*)$/i.exec(ref);
  if (!match) {
    throw new UsageError(`invalid storage location ${quote(ref)}: expected ${expected}<container>/<path>`);
  }
  const scheme = match[1].toLowerCase();
  if (!rules.schemes.includes(scheme)) {
    throw new UsageError(`${rules.backend} storage cannot serve ${quote(ref)}: expected a ${expected} location`);
  }
  let container = match[2];
  const at = container.lastIndexOf("@");
  if (at >= 0 && rules.account !== undefined) {
    const host = container.slice(at + 1).toLowerCase();
    if (host.split(".")[0] !== rules.account.toLowerCase()) {
      throw new UsageError(
        `${rules.backend} storage cannot serve ${quote(ref)}: its account is not the configured ${
          quote(rules.account)
        }`,
      );
    }
    container = container.slice(0, at);
  }
  if (container === "") throw new UsageError(`invalid storage location ${quote(ref)}: it names no container`);
  if (!rules.multiContainer && container !== rules.container) {
    throw new UsageError(
      `${rules.backend} storage cannot serve ${quote(ref)}: its container ${quote(container)} is not ` +
        `storage.container ${quote(rules.container)}; set storage.enable-multicontainer to use other containers`,
    );
  }
  const segments = match[3].split("/").filter((s) => s !== "" && s !== ".");
  if (segments.includes("..")) throw new UsageError(`invalid storage location ${quote(ref)}: '..' is not allowed`);
  if (segments.length === 0) throw new UsageError(`storage location ${quote(ref)} names no object`);
  return { container, key: segments.join("/") };
}
