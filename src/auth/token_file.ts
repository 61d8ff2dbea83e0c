/**
 * The token cache file: tokens survive the process, per admin endpoint, flow and client, in a file of mode
 * 0600 in a 0700 directory under the config directory (`$HOME/.flyte/fctl/tokens/`), written atomically (a
 * private temporary file renamed over the old one). Never the OS keyring. When the directory cannot be
 * written (no `HOME`, a missing one, a read-only filesystem, no write permission), tokens are kept in memory
 * for the run, said once at info level.
 *
 * @module
 */
import { isNotFound } from "../errors.ts";
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
  metadataKey?: string;
}

/** How the cache names an admin endpoint: `host:port`. */
export function endpointKey(endpoint: { host: string; port: number | string }): string {
  return `${endpoint.host}:${endpoint.port}`;
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
  const data = JSON.parse(text) as Partial<TokenFile>;
  if (data.version !== 1 || typeof data.accessToken !== "string" || !data.accessToken) return undefined;
  if (data.endpoint !== key.endpoint || data.authType !== key.authType || data.clientId !== key.clientId) {
    return undefined;
  }
  return {
    accessToken: data.accessToken,
    refreshToken: typeof data.refreshToken === "string" ? data.refreshToken : undefined,
    expiresAt: typeof data.expiresAt === "number" ? data.expiresAt : undefined,
    metadataKey: typeof data.metadataKey === "string" ? data.metadataKey : undefined,
  };
}

/** The token file of `key` under `home`. */
export function fileTokenStore(options: TokenFileOptions): TokenStore {
  const { home, key, logger } = options;
  let inMemory = false;
  const fallBack = (reason: string) => {
    if (inMemory) return;
    inMemory = true;
    logger.info(`the token cache is not writable (${reason}): tokens are kept in memory for this run`);
  };
  const path = () => `${tokenDirectory(home!)}/${fileName(key)}`;
  return {
    async load() {
      if (home === undefined) return undefined;
      try {
        return parse(await readBoundedTextFile(path()), key);
      } catch (err) {
        if (!isNotFound(err)) logger.debug("the token cache file is unreadable; ignored", { error: String(err) });
        return undefined;
      }
    },
    async save(token) {
      if (inMemory) return;
      // A container may run without a home at all: memory, as for an unwritable one.
      if (home === undefined) return fallBack("HOME is not set");
      const dir = tokenDirectory(home!);
      const target = path();
      const temporary = `${target}.${crypto.randomUUID()}.tmp`;
      try {
        // $HOME itself is never created: a missing home means no place for a cache.
        if (!(await Deno.stat(home!)).isDirectory) throw new Error(`${home} is not a directory`);
        await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
        await Deno.chmod(dir, 0o700);
        const data: TokenFile = { version: 1, ...key, ...token };
        await Deno.writeTextFile(temporary, JSON.stringify(data), { mode: 0o600, createNew: true });
        await Deno.rename(temporary, target);
      } catch (err) {
        await Deno.remove(temporary).catch(() => {});
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
    entries = await Array.fromAsync(Deno.readDir(dir));
  } catch (err) {
    if (isNotFound(err)) return removed;
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
