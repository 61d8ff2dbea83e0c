/**
 * GitHub release resolution (for `register examples`).
 *
 * @module
 */
export {
  archiveAssets,
  DEFAULT_GITHUB_API_URL,
  type Release,
  type ReleaseAsset,
  resolveRelease,
  type ResolveReleaseOptions,
} from "./release.ts";
