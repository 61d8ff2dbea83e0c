/**
 * The registry of configuration checks that `fctl config validate` runs: every check each domain exports (the
 * connection's, the auth settings', storage's), in the order their problems are listed. A check joins here when
 * its rule is written; `tests/config_checks_cli_test.ts` makes sure each one is reached.
 *
 * @module
 */
import { AUTH_CHECKS } from "../auth/config_checks.ts";
import type { ConfigCheck } from "../config/checks.ts";
import { STORAGE_CHECK } from "../storage/validate.ts";
import { CONNECTION_CHECKS } from "../app/connection_checks.ts";

/** Every configuration check. */
export const CONFIG_CHECKS: readonly ConfigCheck[] = [...CONNECTION_CHECKS, ...AUTH_CHECKS, STORAGE_CHECK];
