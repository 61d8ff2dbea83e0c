/**
 * Builds the admin client a command uses from the resolved configuration.
 *
 * @module
 */
import { type AdminClient, createAdminClient } from "../admin/client.ts";
import type { LoadedConfig } from "../config/load.ts";

/** An admin client for the configured endpoint; `admin.insecure` wins over what the URL scheme implies. */
export function connectAdmin(loaded: LoadedConfig): AdminClient {
  const insecureSet = loaded.sources["admin.insecure"] !== "default";
  return createAdminClient({
    endpoint: loaded.config["admin.endpoint"],
    insecure: insecureSet ? loaded.config["admin.insecure"] : undefined,
  });
}
