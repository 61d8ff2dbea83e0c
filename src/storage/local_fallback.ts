/**
 * The rule of `storage.allow-local-fallback` on its own, apart from the other storage checks (`validate.ts`): a
 * registration applies it before anything else, and a dry run, which never opens storage, then loads none of them.
 *
 * @module
 */
import { parseEndpoint } from "../admin/endpoint.ts";
import type { Config } from "../config/schema.ts";
import { quote } from "../errors.ts";

/** Where the admin is, and whether `storage.allow-local-fallback` is set: what the fallback's rule depends on. */
export interface AdminPlace {
  /** `admin.endpoint`, as configured. */
  endpoint: string;
  /** `storage.allow-local-fallback`. */
  allowLocalFallback: boolean;
}

/** What the rule of `storage.allow-local-fallback` reads of a configuration. */
export function adminPlace(config: Config): AdminPlace {
  return { endpoint: config["admin.endpoint"], allowLocalFallback: config["storage.allow-local-fallback"] };
}

/**
 * The rule of `storage.allow-local-fallback`: `local` and `mem` storage may take the fast-registration source
 * only for an admin on this machine (a loopback `admin.endpoint`, which its cluster then is), since no other
 * cluster could read them. The problem, or undefined when the option is off or the admin is on loopback.
 */
export function localFallbackProblem(admin: AdminPlace): string | undefined {
  if (!admin.allowLocalFallback) return undefined;
  let host: string | undefined;
  try {
    host = parseEndpoint(admin.endpoint).host;
  } catch {
    // An endpoint that does not parse is not a loopback one (and is a problem of its own).
  }
  if (host !== undefined && isLoopbackHost(host)) return undefined;
  return `storage.allow-local-fallback needs an admin on this machine: admin.endpoint ${quote(admin.endpoint)} is ` +
    "not a loopback address (localhost, 127.0.0.1, ::1), so its cluster could not read local or mem storage";
}

/**
 * Whether a host is this machine: `localhost`, an address in 127.0.0.0/8, or `::1` (what the admin
 * must be on for `storage.allow-local-fallback`: its cluster then reads this machine's files).
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  return bare === "localhost" || bare.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(bare) ||
    bare === "::1" || bare === "0:0:0:0:0:0:0:1";
}
