/**
 * The fctl version, from deno.json (the one place it is written).
 *
 * @module
 */
import denoJson from "../deno.json" with { type: "json" };

/** The fctl version. */
export const VERSION: string = denoJson.version;
