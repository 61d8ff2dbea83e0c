/**
 * Resolving a GitHub release through the REST API: the latest one or one tag, with its assets.
 *
 * @module
 */
import { OperationError, quote } from "../errors.ts";
import { boundedBodies, HttpBodyTooLargeError, type HttpRequestInit } from "../http/bounded_body.ts";
import { describeFetchFailure } from "../http/fetch_error.ts";
import { excerpt } from "../output/printable.ts";

/** GitHub's public API; `GITHUB_API_URL` overrides it (GitHub Enterprise, tests). */
export const DEFAULT_GITHUB_API_URL = "https://api.github.com";

/** The most read of a GitHub API answer; a release with hundreds of assets is a few hundred KiB. */
const GITHUB_API_ANSWER_MAX_BYTES = 10 * 1024 * 1024;

/**
 * The most assets a release is read with: GitHub allows a release 1,000 (flytesnacks' have a few dozen). Each
 * archive asset is downloaded and registered, so a list past that, from a server that is not GitHub's or
 * misbehaves, would have fctl download and register without a useful end: 10 MiB of answer lists some 50,000.
 */
const MAX_RELEASE_ASSETS = 1_000;

/**
 * A file attached to a release.
 *
 * ```ts
 * import { type ReleaseAsset, resolveRelease } from "@fctl/fctl";
 *
 * const release = await resolveRelease({ repo: "flyteorg/flytesnacks" });
 * const archives: ReleaseAsset[] = release.assets.filter((asset) => asset.name.endsWith(".tgz"));
 * for (const asset of archives) console.log(asset.name, asset.size, asset.url);
 * ```
 */
export interface ReleaseAsset {
  /** The file name (`flytesnacks-core.tgz`). */
  name: string;
  /** Where to download it (`browser_download_url`). */
  url: string;
  /** Size in bytes, as GitHub reports it. */
  size: number;
}

/**
 * A resolved release.
 *
 * ```ts
 * import { type Release, resolveRelease } from "@fctl/fctl";
 *
 * const release: Release = await resolveRelease({ repo: "flyteorg/flytesnacks", tag: "v1.13.0" });
 * console.log(release.tag, release.assets.length);
 * ```
 */
export interface Release {
  /** The release's tag, also the version entities are registered under. */
  tag: string;
  /** Every file attached to the release. */
  assets: ReleaseAsset[];
}

/**
 * What {@link resolveRelease} needs.
 *
 * ```ts
 * import { resolveRelease, type ResolveReleaseOptions } from "@fctl/fctl";
 *
 * const options: ResolveReleaseOptions = {
 *   repo: "flyteorg/flytesnacks",
 *   token: Deno.env.get("GITHUB_TOKEN"),
 *   signal: AbortSignal.timeout(30_000),
 * };
 * console.log((await resolveRelease(options)).tag); // the latest release
 * ```
 */
export interface ResolveReleaseOptions {
  /** `owner/name`. */
  repo: string;
  /** A release tag; absent for the latest release. */
  tag?: string;
  /** API base URL; default {@link DEFAULT_GITHUB_API_URL}. */
  apiUrl?: string;
  /** Sent as a bearer token when set; never shown in any message. */
  token?: string;
  /** Default: the global `fetch`. */
  fetch?: typeof fetch;
  /** Cancels the request. */
  signal?: AbortSignal;
  /** Formats the rate-limit reset time in messages; default ISO 8601 UTC. */
  formatTime?: (date: Date) => string;
}

/**
 * Fetches the release (`/repos/<repo>/releases/latest` or `/releases/tags/<tag>`).
 *
 * ```ts
 * import { resolveRelease } from "@fctl/fctl";
 *
 * const release = await resolveRelease({ repo: "flyteorg/flytesnacks", token: Deno.env.get("GITHUB_TOKEN") });
 * console.log(release.tag, release.assets.map((asset) => asset.name));
 * ```
 *
 * @throws {OperationError} no such release or repository (HTTP 404), rate limit (with its reset time), refused
 *   token, other HTTP or network failures, a release of more than 1,000 assets (GitHub's limit)
 */
export async function resolveRelease(options: ResolveReleaseOptions): Promise<Release> {
  const base = (options.apiUrl || DEFAULT_GITHUB_API_URL).replace(/\/+$/, "");
  const which = options.tag === undefined ? "latest" : `tags/${encodeURIComponent(options.tag)}`;
  const url = `${base}/repos/${options.repo}/releases/${which}`;
  const headers: Record<string, string> = {
    "Accept": "application/vnd.github+json",
    "X-GitHub-Api-Version": "2022-11-28",
    "User-Agent": "fctl",
  };
  if (options.token) headers["Authorization"] = `Bearer ${options.token}`;
  const what = options.tag === undefined
    ? `the latest release of ${options.repo}`
    : `release ${quote(options.tag)} of ${options.repo}`;
  let response: Response;
  // Read whole, so bounded: the global fetch is given the HTTP client's bound too.
  const init: HttpRequestInit = { headers, signal: options.signal, maxBodyBytes: GITHUB_API_ANSWER_MAX_BYTES };
  try {
    response = await (options.fetch ?? boundedBodies(fetch))(url, init);
  } catch (err) {
    if (options.signal?.aborted) throw options.signal.reason;
    // Reached, and it said too much: the error names the call and the limit.
    if (err instanceof HttpBodyTooLargeError) throw err;
    throw new OperationError(
      `cannot reach the GitHub API at ${quote(base.replace(/[?#].*$/, ""))}: ${describeFetchFailure(err)}`,
      {
        cause: err,
      },
    );
  }
  const text = await response.text();
  if (!response.ok) throw responseError(response, text, what, options);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new OperationError(`the GitHub API answered ${what} with something that is not JSON`);
  }
  return parseRelease(body, what);
}

function responseError(response: Response, text: string, what: string, options: ResolveReleaseOptions): Error {
  const status = response.status;
  const remaining = response.headers.get("x-ratelimit-remaining");
  if (status === 429 || (status === 403 && remaining === "0")) {
    const reset = Number(response.headers.get("x-ratelimit-reset"));
    const format = options.formatTime ?? ((d: Date) => d.toISOString());
    const when = Number.isFinite(reset) && reset > 0 ? `; it resets at ${format(new Date(reset * 1000))}` : "";
    const hint = options.token ? "" : "; set GITHUB_TOKEN for a higher limit";
    return new OperationError(`GitHub API rate limit exceeded (HTTP ${status}) fetching ${what}${when}${hint}`);
  }
  const detail = githubMessage(text);
  if (status === 404) return new OperationError(`${what} not found (HTTP 404)`);
  if (status === 401) {
    return new OperationError(`the GitHub API refused GITHUB_TOKEN (HTTP 401)${detail ? `: ${detail}` : ""}`);
  }
  return new OperationError(`the GitHub API refused ${what} (HTTP ${status})${detail ? `: ${detail}` : ""}`);
}

/**
 * GitHub's error bodies are `{"message": …}`; anything else is not worth quoting. At most 200 characters, cut between
 * words: a token the server echoes is hidden whole by the run's redactor, and a cut inside it would leave its start.
 */
function githubMessage(text: string): string {
  try {
    const message = (JSON.parse(text) as { message?: unknown }).message;
    return typeof message === "string" ? excerpt(message, 200) : "";
  } catch {
    return "";
  }
}

function parseRelease(body: unknown, what: string): Release {
  const record = (body ?? {}) as { tag_name?: unknown; assets?: unknown };
  if (typeof record.tag_name !== "string" || !Array.isArray(record.assets)) {
    throw new OperationError(`the GitHub API answered ${what} without a tag_name and assets`);
  }
  if (record.assets.length > MAX_RELEASE_ASSETS) {
    throw new OperationError(
      `the GitHub API answered ${what} with ${record.assets.length} assets: ` +
        `more than the ${MAX_RELEASE_ASSETS} GitHub allows a release`,
    );
  }
  const assets = record.assets.flatMap((asset): ReleaseAsset[] => {
    const a = asset as { name?: unknown; browser_download_url?: unknown; size?: unknown };
    if (typeof a.name !== "string" || typeof a.browser_download_url !== "string") return [];
    return [{ name: a.name, url: a.browser_download_url, size: typeof a.size === "number" ? a.size : 0 }];
  });
  return { tag: record.tag_name, assets };
}

/** The assets that are package archives (`.tar`, `.tgz`, `.tar.gz`), in release order. */
export function archiveAssets(release: Release): ReleaseAsset[] {
  return release.assets.filter((a) => /\.(tar|tgz|tar\.gz)$/i.test(a.name));
}
