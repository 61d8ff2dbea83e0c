/**
 * What `register files` is asked to do, and with what: its options, dependencies and progress events.
 *
 * @module
 */
import type { AdminClient } from "../admin/client.ts";
import type { HydrateOptions } from "./hydrate.ts";
import type { PackageReadDeps } from "./package/members.ts";

/**
 * Creates in flight at once unless told otherwise. The creates of one dependency round are
 * independent, so the wider a round that goes out at once the fewer round trips a registration waits
 * for, and FlyteAdmin serves dozens of concurrent creates. 64 is the smallest power of two that sends
 * flytesnacks-core's widest round (39 tasks) at once, so it registers in its 3 rounds; above it a
 * large package gains nothing measurable (the client's CPU limits it).
 */
export const DEFAULT_CONCURRENCY = 64;

/**
 * Options of `registerFiles`; the `register files` flags.
 *
 * ```ts
 * import { connect, registerFiles, type RegisterFilesOptions } from "@fctl/fctl";
 *
 * const options: RegisterFilesOptions = {
 *   paths: ["dist/package.tgz"],
 *   archive: true,
 *   project: "flytesnacks",
 *   domain: "development",
 *   version: "v1",
 *   continueOnError: true,
 * };
 * await using flyte = await connect();
 * const report = await registerFiles(flyte.client, options);
 * console.log(`${report.entries.length} entities, ${report.failed} failed`);
 * ```
 */
export interface RegisterFilesOptions extends Omit<HydrateOptions, "sourceLocation"> {
  /** `.pb` files, or with {@link archive} `.tar`/`.tar.gz`/`.tgz` archives (local paths or http(s) URLs). */
  paths: string[];
  /** Treat {@link paths} as archives of a package. */
  archive?: boolean;
  /** Check and hydrate everything, but make no RPC and upload nothing. */
  dryRun?: boolean;
  /** Keep registering after a file fails (bad files included) instead of stopping. */
  continueOnError?: boolean;
  /** Activate launch plans that have a schedule, once created. */
  enableSchedule?: boolean;
  /** Most creates in flight at once (default {@link DEFAULT_CONCURRENCY}; 1 is one RPC at a time). */
  concurrency?: number;
  /** Where the source goes when the admin has no upload location (instead of the storage's container). */
  sourceUploadPath?: string;
}

/**
 * The admin client a registration sends with, or a function that makes it. A registration that sends
 * something calls the function once, first; a dry run never calls it, so it loads no RPC stack (about
 * 50 ms of a cold process) and needs no reachable, well-configured admin.
 *
 * ```ts
 * import { type AdminClientSource, connect, registerFiles } from "@fctl/fctl";
 *
 * // Made only if the registration sends something: a dry run needs no reachable admin.
 * const admin: AdminClientSource = async () => (await connect()).client;
 * const report = await registerFiles(admin, {
 *   paths: ["dist/package.tgz"],
 *   archive: true,
 *   dryRun: true,
 *   project: "flytesnacks",
 *   domain: "development",
 *   version: "v1",
 * });
 * console.log(report.dryRun, report.entries.map((entry) => entry.id?.name));
 * ```
 */
export type AdminClientSource = AdminClient | (() => Promise<AdminClient>);

/** {@link RegisterFilesOptions} once checked: the concurrency decided, an empty version dropped. */
export type CheckedOptions = RegisterFilesOptions & { concurrency: number };

/**
 * Registration progress, for a progress display.
 *
 * ```ts
 * import { connect, type RegisterProgress, registerFiles } from "@fctl/fctl";
 *
 * const onProgress = (progress: RegisterProgress) => {
 *   if (progress.phase === "create") console.log(`${progress.done}/${progress.total} created`);
 *   else console.log(`${progress.name}: ${progress.done ? "uploaded" : "uploading"}`);
 * };
 * await using flyte = await connect();
 * const options = { paths: ["package.tgz"], archive: true, project: "flytesnacks", domain: "development", version: "v1" };
 * await registerFiles(flyte.client, options, undefined, { onProgress });
 * ```
 */
export type RegisterProgress =
  | { phase: "upload"; name: string; done: boolean }
  | { phase: "create"; done: number; total: number };

/**
 * What `registerFiles` uses besides the admin client; all optional.
 *
 * ```ts
 * import { connect, type RegisterDeps, registerFiles } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const deps: RegisterDeps = {
 *   http: await flyte.http(),
 *   onDownloadProgress: (progress) => console.log(progress.url, progress.received, progress.total),
 * };
 * const options = { paths: ["https://example.com/package.tgz"], archive: true, project: "p", domain: "d", version: "v1" };
 * await registerFiles(flyte.client, options, AbortSignal.timeout(600_000), deps);
 * ```
 */
export interface RegisterDeps extends PackageReadDeps {
  /**
   * Lets the source fall back to `local` or `mem` storage, which no cluster can read: only for an admin on
   * this machine (the CLI's `--storage.allow-local-fallback`, accepted only with a loopback endpoint).
   */
  allowLocalStorage?: boolean;
  /** Milliseconds on a monotonic clock, for the report's timings; default `performance.now`. */
  now?: () => number;
  /** Called as the upload and the creates progress. */
  onProgress?: (progress: RegisterProgress) => void;
}
