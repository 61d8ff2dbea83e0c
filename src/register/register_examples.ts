/**
 * `register examples`: registering every package archive of a flytesnacks release.
 *
 * @module
 */
import { FctlError, OperationError, quote } from "../errors.ts";
import { ProjectRefusedError } from "../projects/project_refusal.ts";
import { checkAssetUrls } from "../github/asset_url.ts";
import { archiveAssets, type ReleaseAsset, resolveRelease } from "../github/release.ts";
import { withGitHubToken } from "../github/token_scope.ts";
import { createHttpClient, type HttpClient } from "../http/http_client.ts";
import { checkSettings } from "./check_options.ts";
import {
  type AdminClientSource,
  type RegisterDeps,
  registerFiles,
  type RegisterFilesOptions,
  type RegisterReport,
} from "./register_files.ts";

/** The repository whose releases hold the examples. */
const EXAMPLES_REPO = "flyteorg/flytesnacks";

/**
 * Options of {@link registerExamples}: the `register files` options, with `version` as the release tag.
 *
 * ```ts
 * import { connect, registerExamples, type RegisterExamplesOptions } from "@fctl/fctl";
 *
 * const options: RegisterExamplesOptions = { project: "flytesnacks", domain: "development", version: "v1.13.0" };
 * await using flyte = await connect();
 * console.log((await registerExamples(flyte.client, options)).release); // v1.13.0
 * ```
 */
export interface RegisterExamplesOptions extends Omit<RegisterFilesOptions, "paths" | "archive"> {
  /** Release tag; absent for the latest release. Also the version of the registered entities. */
  version?: string;
}

/**
 * How to reach GitHub; the CLI fills these from `GITHUB_API_URL` and `GITHUB_TOKEN`.
 *
 * ```ts
 * import { connect, registerExamples, type RegisterExamplesDeps } from "@fctl/fctl";
 *
 * const deps: RegisterExamplesDeps = {
 *   githubToken: Deno.env.get("GITHUB_TOKEN"),
 *   onRelease: (tag, assets) => console.log(`release ${tag}: ${assets.join(", ")}`),
 * };
 * await using flyte = await connect();
 * await registerExamples(flyte.client, { project: "flytesnacks", domain: "development" }, undefined, deps);
 * ```
 */
export interface RegisterExamplesDeps extends RegisterDeps {
  /** The GitHub REST API root (default `DEFAULT_GITHUB_API_URL`; a GitHub Enterprise root works too). */
  githubApiUrl?: string;
  /**
   * Sent to the GitHub API and to asset downloads from GitHub's hosts (see `withGitHubToken`), never to
   * another host; never shown.
   */
  githubToken?: string;
  /** Called once the release is known, before downloads start. */
  onRelease?: (tag: string, assets: string[]) => void;
}

/**
 * One asset's outcome.
 *
 * ```ts
 * import { type AssetReport, connect, registerExamples } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const report = await registerExamples(flyte.client, { project: "flytesnacks", domain: "development" });
 * const broken: AssetReport[] = report.assets.filter((asset) => asset.error || asset.report?.failed);
 * for (const asset of broken) console.error(asset.asset, asset.error ?? `${asset.report?.failed} failed`);
 * ```
 */
export interface AssetReport {
  /** The asset's file name in the release. */
  asset: string;
  /** What registering it did; absent if it could not be registered at all (see {@link error}). */
  report?: RegisterReport;
  /** Why it could not be registered at all (download or archive failure), with continue-on-error. */
  error?: string;
}

/**
 * What {@link registerExamples} did.
 *
 * ```ts
 * import { connect, registerExamples, type RegisterExamplesReport } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const report: RegisterExamplesReport = await registerExamples(flyte.client, {
 *   project: "flytesnacks",
 *   domain: "development",
 *   dryRun: true,
 * });
 * console.log(`${report.release}: ${report.assets.length} assets, ${report.failed} failed`);
 * ```
 */
export interface RegisterExamplesReport {
  /** The release tag (the version the entities got). */
  release: string;
  /** One report per registered asset, in release order. */
  assets: AssetReport[];
  /** Failed entries plus assets that failed as a whole. */
  failed: number;
  /** Registration stopped early because the caller's signal aborted (Ctrl-C). */
  interrupted: boolean;
  /**
   * What stopped the registration of an asset, and so of the release, after it had started sending (see
   * `RegisterReport.error`), naming the asset; a caller shows the report, then fails with it.
   */
  error?: Error;
}

/**
 * Resolves the release and registers each archive asset with `register files`, one after the other,
 * with the release tag as the version. The next asset's download starts with the current one's, so that its round
 * trips overlap the current download and registration (through `HttpClient.prefetch`).
 *
 * ```ts
 * import { connect, registerExamples } from "@fctl/fctl";
 *
 * await using flyte = await connect();
 * const report = await registerExamples(flyte.client, { project: "flytesnacks", domain: "development" });
 * console.log(report.release, report.failed);
 * ```
 *
 * @param admin the admin client, or a function that makes it (see {@link AdminClientSource}: a dry run
 *   never calls it)
 * @throws {UsageError} no project or domain, or a bad concurrency (InvalidOptionError)
 * @throws {OperationError} the release cannot be resolved, has no archives, names an archive at a URL that is not
 *   `https://` (refused before anything is downloaded; see `src/github/asset_url.ts`), or (without
 *   continue-on-error) an asset cannot be registered — the message names the asset
 */
export async function registerExamples(
  admin: AdminClientSource,
  options: RegisterExamplesOptions,
  signal?: AbortSignal,
  deps: RegisterExamplesDeps = {},
): Promise<RegisterExamplesReport> {
  // Made once for every asset, first, as when the caller makes it; a dry run never makes it.
  const client = options.dryRun || typeof admin !== "function" ? admin : await admin();
  // Bad settings are refused before GitHub is asked anything.
  checkSettings(options);
  // Made here when the caller gave none, so that asset downloads can carry the token too.
  const http = deps.http ?? createHttpClient();
  try {
    return await registerAssets(client, options, signal, {
      ...deps,
      http: withGitHubToken(http, deps.githubApiUrl, deps.githubToken),
    });
  } finally {
    if (!deps.http) http.close();
  }
}

async function registerAssets(
  client: AdminClientSource,
  options: RegisterExamplesOptions,
  signal: AbortSignal | undefined,
  deps: RegisterExamplesDeps & { http: HttpClient },
): Promise<RegisterExamplesReport> {
  const release = await resolveRelease({
    repo: EXAMPLES_REPO,
    tag: options.version || undefined,
    apiUrl: deps.githubApiUrl,
    token: deps.githubToken,
    fetch: deps.http.fetch,
    signal,
  });
  const assets = archiveAssets(release);
  if (assets.length === 0) {
    throw new OperationError(`release ${quote(release.tag)} of ${EXAMPLES_REPO} has no .tar, .tgz or .tar.gz assets`);
  }
  // The answer names the URLs, and registerFiles would read a local path or a storage URI as readily as a download.
  checkAssetUrls(assets, deps.githubApiUrl, `release ${quote(release.tag)} of ${EXAMPLES_REPO}`);
  deps.onRelease?.(release.tag, assets.map((a) => a.name));
  const result: RegisterExamplesReport = { release: release.tag, assets: [], failed: 0, interrupted: false };
  // The next asset's download starts as the current one's does, and so overlaps it and its registration; one not
  // taken is cancelled at the end.
  const ahead = new AbortController();
  const aheadSignal = signal ? AbortSignal.any([signal, ahead.signal]) : ahead.signal;
  try {
    for (const [index, asset] of assets.entries()) {
      if (signal?.aborted) {
        result.interrupted = true;
        break;
      }
      const next = assets[index + 1];
      const http = next ? startingAhead(deps.http, asset.url, next.url, aheadSignal) : deps.http;
      if (await registerAsset(client, options, signal, { ...deps, http }, release.tag, asset, result) === "stop") break;
    }
  } finally {
    ahead.abort();
  }
  return result;
}

/** `http`, which starts the download of `next` ahead as soon as the download of `current` is asked for. */
function startingAhead(http: HttpClient, current: string, next: string, signal: AbortSignal): HttpClient {
  return {
    ...http,
    fetch: (input, init) => {
      const answer = http.fetch(input, init);
      if (input === current) http.prefetch(next, { signal });
      return answer;
    },
  };
}

/** Registers one asset into `result`; whether the release's registration goes on. */
async function registerAsset(
  client: AdminClientSource,
  options: RegisterExamplesOptions,
  signal: AbortSignal | undefined,
  deps: RegisterExamplesDeps & { http: HttpClient },
  release: string,
  asset: ReleaseAsset,
  result: RegisterExamplesReport,
): Promise<"next" | "stop"> {
  try {
    const report = await registerFiles(
      client,
      { ...options, paths: [asset.url], archive: true, version: release },
      signal,
      deps,
    );
    result.assets.push({ asset: asset.name, report });
    // A registration stopped by an error (a failed upload) may have no Failed row; it counts as one.
    result.failed += report.error ? Math.max(report.failed, 1) : report.failed;
    if (report.interrupted) {
      result.interrupted = true;
      return "stop";
    }
    // The admin's refusal of the project or domain stops the release, --continueOnError or not: every asset goes there.
    const stops = !options.continueOnError || !(report.error instanceof FctlError) ||
      report.error instanceof ProjectRefusedError;
    if (report.error && stops) {
      result.error = assetError(report.error, asset.name, release);
      return "stop";
    }
    return report.failed > 0 && !options.continueOnError ? "stop" : "next";
  } catch (err) {
    if (signal?.aborted) throw err;
    if (!options.continueOnError || !(err instanceof FctlError)) throw assetError(err, asset.name, release);
    result.assets.push({ asset: asset.name, error: (err as Error).message });
    result.failed++;
    return "next";
  }
}

/** `err`, which stopped registering `asset`, naming the asset and the release. */
function assetError(err: unknown, asset: string, release: string): Error {
  const message = `asset ${quote(asset)} of release ${quote(release)}: ${(err as Error).message}`;
  return err instanceof FctlError
    ? new FctlErrorWithContext(message, err)
    : new OperationError(`cannot register ${message}`, { cause: err });
}

/** Keeps the exit code of the underlying error (usage vs failure) while naming the asset. */
class FctlErrorWithContext extends FctlError {
  constructor(message: string, cause: FctlError) {
    super(`cannot register ${message}`, cause.exitCode, { cause });
  }
}
