/**
 * The token cache file: tokens survive the process, per admin endpoint, flow and client, in a file of mode
 * 0600 in a 0700 directory under the config directory (`$HOME/.flyte/fctl/tokens/`), written atomically (a
 * private temporary file renamed over the old one). Never the OS keyring. When the directory cannot be
 * written (no `HOME`, a missing one, a read-only filesystem, no write permission), tokens are kept in memory
 * for the run, said once at info level.
 *
 * As ssh treats keys, a cache that others could read or swap is not used: below `$HOME/.flyte` no symbolic link
 * is followed (`fctl`, `tokens` and the file are looked at with lstat), a directory fctl did not create keeps its
 * mode (one open to other users is not used), and a cache file open to other users is made private when it is
 * this user's, else not used; then tokens are kept in memory, said once as a warning. Nothing of a file's content
 * is ever quoted in a log line or an error.
 *
 * @module
 */
import { fileErrorReason, isNotFound, OperationError } from "../errors.ts";
import { readBoundedTextFile } from "../fs/read_bounded.ts";
import type { Logger } from "../log/logger.ts";
import type { Token, TokenStore } from "./tokens.ts";

/** What identifies a token: the admin it is for, the flow and the client. */
export interface TokenKey {
  endpoint: string;
  authType: string;
  clientId: string;
}

/** What the file store needs. */
export interface TokenFileOptions {
  /** `$HOME`: the cache lives under `$HOME/.flyte`, and only when `$HOME` exists. */
  home: string | undefined;
  key: TokenKey;
  logger: Logger;
}

/** The file's JSON. */
interface TokenFile {
  version: 1;
  endpoint: string;
  authType: string;
  clientId: string;
  accessToken: string;
  refreshToken?: string;
  expiresAt?: number;
  receivedAt?: number;
  metadataKey?: string;
}

/**
 * How the cache names an admin endpoint: `host:port` when it is reached over TLS, `http://host:port` in plaintext
 * (`insecure`). A token got over TLS is thus never sent in plaintext, where anyone on the path (or whatever listens
 * at that address once `admin.insecure` is set by mistake) would read it; a plaintext admin's token is its own.
 */
export function endpointKey(endpoint: { host: string; port: number | string }, insecure = false): string {
  return `${insecure ? "http://" : ""}${endpoint.host}:${endpoint.port}`;
}

/** The cache directory under `home`. */
export function tokenDirectory(home: string): string {
  return `${home.replace(/\/+$/, "")}/.flyte/fctl/tokens`;
}

/**
 * The file of `key`: its parts percent-encoded (so no part can contain the `,` between them, nor a `/`), a
 * name a person can read and `auth logout` can find, with no hashing to pay for on every run.
 */
function fileName(key: TokenKey): string {
  return `${[key.endpoint, key.authType, key.clientId].map(encodeURIComponent).join(",")}.json`;
}

function parse(text: string, key: TokenKey): Token | undefined {
  const data = JSON.parse(text) as Partial<TokenFile> | null;
  if (data?.version !== 1 || typeof data.accessToken !== "string" || !data.accessToken) return undefined;
  if (data.endpoint !== key.endpoint || data.authType !== key.authType || data.clientId !== key.clientId) {
    return undefined;
  }
  return {
    accessToken: data.accessToken,
    refreshToken: typeof data.refreshToken === "string" ? data.refreshToken : undefined,
    expiresAt: typeof data.expiresAt === "number" ? data.expiresAt : undefined,
    metadataKey: typeof data.metadataKey === "string" ? data.metadataKey : undefined,
    ...(typeof data.receivedAt === "number" ? { receivedAt: data.receivedAt } : {}),
  };
}

/** Why the cache is not used: a link in its path, or a place others can reach. */
class UnsafeCache extends Error {}

/** Group and other permission bits. */
const OPEN_TO_OTHERS = 0o077;

/** `mode` as `chmod` writes it. */
const octal = (mode: number) => (mode & 0o777).toString(8).padStart(4, "0");

/**
 * The directory at `path`, seen without following a link (`follow`: following one, for `$HOME/.flyte`); made
 * with mode 0700 when absent and `create`. Resolves to what it is, or undefined when absent.
 */
async function directory(path: string, create: boolean, follow: boolean): Promise<Deno.FileInfo | undefined> {
  let info: Deno.FileInfo;
  try {
    info = follow ? await Deno.stat(path) : await Deno.lstat(path);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    if (!create) return undefined;
    // Not recursive: its parent was just checked. A directory fctl creates is private whatever the umask says.
    await Deno.mkdir(path, { mode: 0o700 });
    await Deno.chmod(path, 0o700);
    return await Deno.lstat(path);
  }
  if (info.isSymlink) throw new UnsafeCache(`${path} is a symbolic link`);
  // Not a risk, only no place for a cache: unwritable, said at info level.
  if (!info.isDirectory) throw new Error(`${path} is not a directory`);
  return info;
}

/**
 * The cache directory under `home`, checked (and made, with `create`): `$HOME/.flyte` may be a link (dotfiles kept
 * elsewhere), nothing below it may; with `private`, a tokens directory open to other users is not used (and never
 * has its mode changed: fctl did not make it so). Undefined when absent.
 */
async function checkedDirectory(
  home: string,
  options: { create: boolean; private: boolean },
): Promise<Deno.FileInfo | undefined> {
  const { create } = options;
  const flyte = `${home.replace(/\/+$/, "")}/.flyte`;
  if (!await directory(flyte, create, true)) return undefined;
  if (!await directory(`${flyte}/fctl`, create, false)) return undefined;
  const dir = tokenDirectory(home);
  const info = await directory(dir, create, false);
  if (options.private && info?.mode != null && (info.mode & OPEN_TO_OTHERS) !== 0) {
    throw new UnsafeCache(`${dir} is open to other users (mode ${octal(info.mode)}; chmod 700 it to use it)`);
  }
  return info;
}

/** The token file of `key` under `home`. */
export function fileTokenStore(options: TokenFileOptions): TokenStore {
  const { home, key, logger } = options;
  // "memory": the cache cannot be written, but may be read; "refused": it is neither read nor written.
  let state: "file" | "memory" | "refused" = "file";
  const fallBack = (reason: string) => {
    if (state !== "file") return;
    state = "memory";
    logger.info(`the token cache is not writable (${reason}): tokens are kept in memory for this run`);
  };
  const refuse = (reason: string) => {
    if (state === "refused") return;
    state = "refused";
    logger.warn(`the token cache is not safe to use (${reason}): tokens are kept in memory for this run`);
  };
  const path = () => `${tokenDirectory(home!)}/${fileName(key)}`;
  /** The cache file's text, after its checks; undefined when there is none (or none to use). */
  const read = async (): Promise<string | undefined> => {
    const dir = await checkedDirectory(home!, { create: false, private: true });
    if (!dir) return undefined;
    const file = path();
    let info: Deno.FileInfo;
    try {
      info = await Deno.lstat(file);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    if (info.isSymlink) throw new UnsafeCache(`${file} is a symbolic link`);
    if (info.isFile && info.mode != null && (info.mode & OPEN_TO_OTHERS) !== 0) {
      const mode = octal(info.mode);
      // Only the directory's owner (or root) can put a file in a private directory: a file of another owner is
      // root's, which this user cannot repair, or another user's, which root should not trust.
      if (info.uid !== dir.uid) throw new UnsafeCache(`${file} is open to other users (mode ${mode}) and not yours`);
      try {
        await Deno.chmod(file, 0o600);
      } catch (err) {
        throw new UnsafeCache(
          `${file} is open to other users (mode ${mode}) and cannot be made private: ${fileErrorReason(err)}`,
        );
      }
      logger.warn(`the token cache file ${file} was open to other users (mode ${mode}): it is now private (0600)`);
    }
    return await readBoundedTextFile(file);
  };
  return {
    async load() {
      if (home === undefined || state === "refused") return undefined;
      let text: string | undefined;
      try {
        text = await read();
      } catch (err) {
        if (err instanceof UnsafeCache) refuse(err.message);
        else if (!isNotFound(err)) logger.debug("the token cache file is unreadable; ignored", { error: String(err) });
        return undefined;
      }
      if (text === undefined) return undefined;
      try {
        return parse(text, key);
      } catch {
        // JSON.parse quotes the text it could not read: what is there (maybe not a token file) never reaches a log.
        logger.debug("the token cache file is not a token file; ignored");
        return undefined;
      }
    },
    async save(token) {
      if (state !== "file") return;
      // A container may run without a home at all: memory, as for an unwritable one.
      if (home === undefined) return fallBack("HOME is not set");
      const dir = tokenDirectory(home!);
      const target = path();
      const temporary = `${target}.${crypto.randomUUID()}.tmp`;
      try {
        // $HOME itself is never created: a missing home means no place for a cache.
        if (!(await Deno.stat(home!)).isDirectory) throw new Error(`${home} is not a directory`);
        await checkedDirectory(home!, { create: true, private: true });
        const data: TokenFile = { version: 1, ...key, ...token };
        // A new file (never through a link in its place), renamed over the old one (a link there is replaced).
        await Deno.writeTextFile(temporary, JSON.stringify(data), { mode: 0o600, createNew: true });
        await Deno.rename(temporary, target);
      } catch (err) {
        await Deno.remove(temporary).catch(() => {});
        if (err instanceof UnsafeCache) return refuse(err.message);
        fallBack(
          isNotFound(err)
            ? `${home} does not exist`
            : err instanceof Deno.errors.NotCapable
            ? `no permission to write ${dir}`
            : err instanceof Error
            ? err.message
            : String(err),
        );
      }
    },
  };
}

/**
 * Removes every stored token of `endpoint` (any flow, any client) under `home`; resolves to the flows and
 * clients removed, as `authType/clientId` (none when there was nothing to remove).
 */
export async function removeTokens(home: string, endpoint: string): Promise<string[]> {
  const dir = tokenDirectory(home);
  const prefix = `${encodeURIComponent(endpoint)},`;
  const removed: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    // Its tokens are removed whatever its mode; but a link is not followed to remove files elsewhere.
    if (!await checkedDirectory(home, { create: false, private: false })) return removed;
    entries = await Array.fromAsync(Deno.readDir(dir));
  } catch (err) {
    if (isNotFound(err)) return removed;
    if (err instanceof UnsafeCache) throw new OperationError(`the cached tokens are not removed: ${err.message}`);
    throw err;
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isFile || !entry.name.startsWith(prefix) || !entry.name.endsWith(".json")) continue;
    const [, authType = "", clientId = ""] = entry.name.slice(0, -".json".length).split(",").map(decodeURIComponent);
    await Deno.remove(`${dir}/${entry.name}`);
    removed.push(`${authType}/${clientId}`);
  }
  return removed;
}
