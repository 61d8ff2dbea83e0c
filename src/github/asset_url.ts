/**
 * Which release asset URLs `register examples` downloads. A release's asset URLs are data from the GitHub API's
 * answer, and `register files` reads whatever it is given (a local path, `file://`, `s3://` and other storage
 * URIs): an answer must not make fctl read local files or storage. So only `https://` URLs are downloaded, or, for
 * a GitHub API configured as plain `http://` on a loopback host (a test's fake GitHub on this machine), that API's
 * own scheme and host (`host:port`): nothing else on this machine.
 *
 * @module
 */
import { OperationError, quote } from "../errors.ts";
import { DEFAULT_GITHUB_API_URL } from "./release.ts";

/** Loopback host names, as `URL.hostname` spells them. */
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Why `url` is not downloaded for the API at `apiUrl`, or undefined when it is. */
export function assetUrlProblem(url: string, apiUrl: string | undefined): string | undefined {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (parsed?.protocol === "https:") return undefined;
  const api = new URL(apiUrl || DEFAULT_GITHUB_API_URL);
  const plainLoopbackApi = api.protocol === "http:" && LOOPBACK.has(api.hostname);
  if (plainLoopbackApi && parsed?.protocol === api.protocol && parsed.host === api.host) return undefined;
  return plainLoopbackApi
    ? `only https:// downloads, or the GitHub API's own ${api.protocol}//${api.host}, are allowed`
    : "only https:// downloads are allowed";
}

/**
 * Refuses the first of `assets` whose URL is not downloaded (see the module doc), naming it and `release` (e.g.
 * `release "v1.2.3" of flyteorg/flytesnacks`); called before anything is read or registered.
 *
 * @throws {OperationError} an asset URL that is not `https://` (nor the loopback API's own origin)
 */
export function checkAssetUrls(
  assets: readonly { name: string; url: string }[],
  apiUrl: string | undefined,
  release: string,
): void {
  for (const asset of assets) {
    const problem = assetUrlProblem(asset.url, apiUrl);
    if (problem === undefined) continue;
    throw new OperationError(
      `${release} names asset ${quote(asset.name)} at ${quote(asset.url)}: ${problem}; ` +
        "nothing was downloaded or registered",
    );
  }
}
