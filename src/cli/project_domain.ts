/**
 * The project and domain every entity command needs, from the global options: checked in a command's options
 * step, before anything connects. Import-light: command modules import it at their top level.
 *
 * @module
 */
import type { Config } from "../config/schema.ts";
import { UsageError } from "../errors.ts";

/** A project and a domain, both given. */
export interface ProjectDomain {
  project: string;
  domain: string;
}

/**
 * `-p` and `-d` (or their config file and environment values), both required.
 *
 * @throws {UsageError} either is empty
 */
export function projectDomain(config: Pick<Config, "project" | "domain">): ProjectDomain {
  const { project, domain } = config;
  if (!project || !domain) throw new UsageError("project and domain are required parameters");
  return { project, domain };
}
