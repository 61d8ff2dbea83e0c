/**
 * `storage.type: stow` with `storage.stow.kind: google`: Google Cloud Storage through the official client
 * (`@google-cloud/storage`). References are `gs://<bucket>/<key>`.
 *
 * Credentials, as flytestdlib's stow google backend takes them: the `json` key's credentials (a service
 * account, usually), else application default credentials (the file `GOOGLE_APPLICATION_CREDENTIALS` names,
 * gcloud's ADC file, or the metadata server). The `token_uri` such a file declares is honoured, as Go's
 * client (which flytestdlib uses) honours it. `GOOGLE_APPLICATION_CREDENTIALS` is read from the settings' `env`
 * (the command line's environment, a library caller's `env`), never from the process: only when it names no file
 * does the client search for credentials itself (gcloud's file, the metadata server). This module is imported only
 * when that kind is configured.
 *
 * @module
 */
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Buffer } from "node:buffer";
import { type CreateWriteStreamOptions, Storage } from "@google-cloud/storage";
import { type AuthClient, JWT, UserRefreshClient } from "google-auth-library";
import { isNotFound, OperationError, quote, UsageError } from "../errors.ts";
import { readBoundedTextFile } from "../fs/read_bounded.ts";
import { boundedCall, type CallContext, describe, streamIdle } from "./cloud_call.ts";
import { checkReadable, containerReference, noSuchObject, readAllBounded } from "./reference.ts";
import { firstChunkThenStream, watchedSource } from "./node_streams.ts";
import { cloudStowConfigProblems, cloudStowSecrets } from "./stow_config.ts";
import { type ResolvedReference, resolveReference } from "./stow_reference.ts";
import type { ObjectInfo, ObjectStore, StoreSource, StowStoreSettings } from "./store.ts";

/** The scope stow google asks for when `scopes` is not set. */
const DEFAULT_SCOPE = "https://www.googleapis.com/auth/devstorage.full_control";
/** The token endpoint google-auth-library always posts to; a credentials file's `token_uri` replaces it. */
const GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";
/** Above this a source goes up in a resumable upload; below, in one multipart request (Google's advice). */
const RESUMABLE_ABOVE_BYTES = 8 * 1024 * 1024;

/**
 * Opens a GCS store. Nothing is contacted (and no credentials file read) until the first call.
 *
 * @throws {UsageError} the stow config has unknown, missing or bad keys
 */
export function openGcsStore(settings: StowStoreSettings): ObjectStore {
  const problems = cloudStowConfigProblems("google", settings.config);
  if (problems.length > 0) throw new UsageError(problems.join("; "));
  return new GcsStore(settings);
}

/** Credentials a client is built from, and where their tokens come from. */
interface Credentials {
  /** Parsed credentials JSON. */
  json: Record<string, unknown>;
  /** `token_uri` of those credentials when it is not Google's. */
  tokenUri?: string;
  /** Where they came from, for errors: `storage.stow.config json`, a file name. */
  origin: string;
}

class GcsStore implements ObjectStore {
  readonly type = "stow/google";
  readonly #settings: StowStoreSettings;
  readonly #secrets: string[];
  #client?: Promise<Storage>;
  /** container -> its creation (or the check that it exists), done once */
  readonly #containers = new Map<string, Promise<void>>();

  constructor(settings: StowStoreSettings) {
    this.#settings = settings;
    this.#secrets = cloudStowSecrets("google", settings.config);
  }

  baseReference(): string {
    return containerReference({
      type: "stow google",
      scheme: "gs",
      container: this.#settings.container,
      multiContainer: this.#settings.multiContainer,
    });
  }

  #resolve(ref: string): ResolvedReference {
    return resolveReference(ref, {
      backend: "stow google",
      schemes: ["gs"],
      container: this.#settings.container,
      multiContainer: this.#settings.multiContainer,
    });
  }

  #context(verb: string, ref: string, signal?: AbortSignal): CallContext {
    const { timeoutMs, headersTimeoutMs: headersMs, idleTimeoutMs: idleMs } = this.#settings;
    return { verb, ref, signal, timeoutMs, headersMs, idleMs, secrets: this.#secrets };
  }

  async writeFile(ref: string, source: StoreSource, signal?: AbortSignal): Promise<void> {
    const { container, key } = this.#resolve(ref);
    const client = await this.#clientFor(ref, signal);
    await this.#ensureContainer(client, container, signal);
    const size = source.bytes?.byteLength ?? source.size ?? 0;
    const metadata = {
      contentType: "application/octet-stream",
      // The service refuses the object when its bytes do not have this MD5.
      ...(source.md5 ? { md5Hash: Buffer.from(source.md5).toString("base64") } : {}),
    };
    await boundedCall(this.#context("write", ref, signal), async (callSignal, progress) => {
      const file = client.bucket(container).file(key);
      const options: CreateWriteStreamOptions = {
        resumable: size > RESUMABLE_ABOVE_BYTES,
        // The client hashes what it sends and compares with what the service stored.
        validation: "md5",
        metadata,
      };
      if (options.resumable) {
        // The session is opened first, on its own: the client's one-step resumable upload drops the token on a
        // custom endpoint (it does not pass useAuthWithCustomEndpoint on); the session URI needs none.
        [options.uri] = await file.createResumableUpload({ metadata });
      }
      // Watched as the client takes it: a service that stops taking it (or never answers) ends the call.
      await pipeline(watchedSource(source, progress), file.createWriteStream(options), { signal: callSignal });
    });
  }

  async head(ref: string, signal?: AbortSignal): Promise<ObjectInfo | undefined> {
    const { container, key } = this.#resolve(ref);
    const client = await this.#clientFor(ref, signal);
    return await boundedCall(this.#context("check", ref, signal), async () => {
      try {
        const [metadata] = await client.bucket(container).file(key).getMetadata();
        return { size: Number(metadata.size ?? 0) };
      } catch (err) {
        if (statusOf(err) === 404) return undefined;
        throw err;
      }
    });
  }

  async readBytes(ref: string, maxBytes: number, signal?: AbortSignal): Promise<Uint8Array> {
    const info = await this.head(ref, signal);
    checkReadable(ref, info, maxBytes);
    const { container, key } = this.#resolve(ref);
    const client = await this.#clientFor(ref, signal);
    return await boundedCall(this.#context("read", ref, signal), async (callSignal) => {
      const node = openRead(client, container, key);
      callSignal.addEventListener("abort", () => node.destroy(), { once: true });
      const stream = await firstChunkThenStream(node, (err) => err);
      return await readAllBounded(stream, ref, maxBytes);
    });
  }

  async readStream(ref: string, signal?: AbortSignal): Promise<ReadableStream<Uint8Array>> {
    const { container, key } = this.#resolve(ref);
    const client = await this.#clientFor(ref, signal);
    // The deadline bounds getting the object's first bytes; an archive then streams for as long as it takes,
    // until the caller's signal aborts it.
    const node = openRead(client, container, key);
    signal?.addEventListener("abort", () => node.destroy(), { once: true });
    return await boundedCall(this.#context("read", ref, signal), async (callSignal) => {
      const giveUp = () => node.destroy();
      callSignal.addEventListener("abort", giveUp, { once: true });
      try {
        return await firstChunkThenStream(
          node,
          (err) =>
            signal?.aborted ? signal.reason : new OperationError(
              `cannot read ${quote(ref)}: ${describe(err, this.#secrets)}`,
            ),
          streamIdle(ref, this.#settings.idleTimeoutMs),
        );
      } catch (err) {
        if (statusOf(err) === 404) throw noSuchObject(ref);
        throw err;
      } finally {
        callSignal.removeEventListener("abort", giveUp);
      }
    });
  }

  close(): void {
    // The client holds no sockets of its own between calls: nothing to release.
  }

  /** The client, built once (reading the credentials file on first use). */
  #clientFor(ref: string, signal?: AbortSignal): Promise<Storage> {
    signal?.throwIfAborted();
    this.#client ??= this.#buildClient().catch((err) => {
      this.#client = undefined;
      throw err;
    });
    return this.#client.catch((err) => {
      if (err instanceof UsageError) throw err;
      throw new OperationError(`cannot use ${quote(ref)}: ${describe(err, this.#secrets)}`);
    });
  }

  async #buildClient(): Promise<Storage> {
    const config = this.#settings.config;
    const scopes = (config.scopes ?? "") === "" ? [DEFAULT_SCOPE] : config.scopes.split(",").map((s) => s.trim());
    const adcFile = this.#settings.env?.["GOOGLE_APPLICATION_CREDENTIALS"] ?? "";
    const credentials = await loadCredentials(config.json ?? "", adcFile);
    // A credentials file's secrets are as secret as the config's: never in a message.
    for (const field of ["private_key", "client_secret", "refresh_token"]) {
      const value = credentials?.json[field];
      if (typeof value === "string" && value !== "") this.#secrets.push(value);
    }
    return new Storage({
      projectId: config.project_id,
      scopes,
      // Credentials of another type in the named file (workload identity federation, …) are the client's to build:
      // it is given the file, so that it does not look for the variable in the process's environment.
      ...(credentials
        ? { authClient: authClientFor(credentials, scopes) }
        : config.json || adcFile === ""
        ? {}
        : { keyFilename: adcFile }),
      ...(config.endpoint ? { apiEndpoint: config.endpoint.replace(/\/+$/, "") } : {}),
      // A custom endpoint is still Google's API (a private endpoint, a test server): it gets the token too.
      useAuthWithCustomEndpoint: true,
      // Each request, and the retries of a call altogether, within storage.defaultHttpClient.timeout: no retry
      // goes on after the call has been given up.
      ...(this.#settings.timeoutMs > 0
        ? { timeout: this.#settings.timeoutMs, retryOptions: { totalTimeout: this.#settings.timeoutMs / 1000 } }
        : {}),
    });
  }

  /** Creates the bucket when it is absent, as flytestdlib does for its container; once per bucket. */
  #ensureContainer(client: Storage, container: string, signal?: AbortSignal): Promise<void> {
    let done = this.#containers.get(container);
    if (done === undefined) {
      done = boundedCall(this.#context("create", `gs://${container}`, signal), async () => {
        const bucket = client.bucket(container);
        try {
          await bucket.getMetadata();
          return;
        } catch (err) {
          // Allowed to write objects but not to see the bucket (roles/storage.objectAdmin on it): the write
          // itself says whether the bucket is there.
          if (statusOf(err) === 403) return;
          if (statusOf(err) !== 404) throw err;
        }
        try {
          await bucket.create();
        } catch (err) {
          // Created meanwhile by someone else: what we wanted.
          if (statusOf(err) !== 409) throw err;
        }
      });
      this.#containers.set(container, done);
      done.catch(() => this.#containers.delete(container));
    }
    return done;
  }
}

/** A download of the object, its MD5 checked by the client against the service's. */
function openRead(client: Storage, container: string, key: string): Readable {
  const node = client.bucket(container).file(key).createReadStream({ validation: "md5" });
  // The response body (what the `response` event carries) is piped through about a dozen stages by the
  // client's layers under Deno's node:stream: past Node's leak heuristic of 10 listeners, which would print a
  // MaxListenersExceededWarning on stderr for every download.
  node.once("response", (response: { setMaxListeners?: (n: number) => unknown }) => response.setMaxListeners?.(32));
  return node;
}

/** The HTTP status an SDK error carries, if any. */
function statusOf(err: unknown): number | undefined {
  const code = (err as { code?: unknown })?.code;
  return typeof code === "number" ? code : undefined;
}

/**
 * The credentials to build the client from: the config's `json`, else the file `file` (the environment's
 * `GOOGLE_APPLICATION_CREDENTIALS`) when it holds a service account or user credentials (read here so its
 * `token_uri` is honoured), else undefined: that file when of another type, or with no file the client's own
 * application-default search (gcloud's file, the metadata server).
 */
async function loadCredentials(json: string, file: string): Promise<Credentials | undefined> {
  if (json !== "") return parsed(json, "storage.stow.config json");
  if (file === "") return undefined;
  let text: string;
  try {
    text = await readBoundedTextFile(file);
  } catch (err) {
    const why = isNotFound(err) ? "no such file" : (err as Error).message;
    throw new UsageError(`cannot read GOOGLE_APPLICATION_CREDENTIALS file ${quote(file)}: ${why}`);
  }
  const credentials = parsed(text, `GOOGLE_APPLICATION_CREDENTIALS file ${quote(file)}`);
  return CREDENTIAL_TYPES.includes(String(credentials.json.type)) ? credentials : undefined;
}

/** The credential types built here; others in `json` are refused (see {@link authClientFor}). */
const CREDENTIAL_TYPES = ["service_account", "authorized_user"];

/** Parses credentials JSON; the error never quotes it. */
function parsed(text: string, origin: string): Credentials {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UsageError(`${origin} is not valid JSON`);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new UsageError(`${origin} is not a JSON object`);
  }
  const fields = json as Record<string, unknown>;
  const tokenUri = typeof fields.token_uri === "string" && fields.token_uri !== GOOGLE_TOKEN_URL
    ? fields.token_uri
    : undefined;
  if (tokenUri !== undefined && !URL.canParse(tokenUri)) {
    throw new UsageError(`${origin} has a token_uri that is not a URL`);
  }
  return { json: fields, tokenUri, origin };
}

/** Text field of credentials JSON, or a usage error naming it (never its value). */
function field(credentials: Credentials, name: string): string {
  const value = credentials.json[name];
  if (typeof value !== "string" || value === "") throw new UsageError(`${credentials.origin} has no ${name}`);
  return value;
}

/**
 * The auth client for service-account or user credentials, built with the library's own constructors (its
 * generic JSON loading is deprecated and warns on stderr), taking tokens from the credentials' `token_uri`.
 */
function authClientFor(credentials: Credentials, scopes: string[]): AuthClient {
  const type = credentials.json.type;
  if (type === "service_account") {
    const client = new JWT({
      email: field(credentials, "client_email"),
      key: field(credentials, "private_key"),
      keyId: typeof credentials.json.private_key_id === "string" ? credentials.json.private_key_id : undefined,
      scopes,
    });
    const tokenUri = credentials.tokenUri;
    if (tokenUri !== undefined) {
      // The library posts the signed assertion to Google's endpoint whatever the file says; Go's client (and so
      // flytestdlib) posts it to the file's token_uri.
      client.transporter.interceptors.request.add({
        resolved: (options) => {
          if (String(options.url) === GOOGLE_TOKEN_URL) options.url = new URL(tokenUri);
          return Promise.resolve(options);
        },
      });
    }
    return client;
  }
  if (type === "authorized_user") {
    return new UserRefreshClient({
      clientId: field(credentials, "client_id"),
      clientSecret: field(credentials, "client_secret"),
      refreshToken: field(credentials, "refresh_token"),
      ...(credentials.tokenUri ? { endpoints: { oauth2TokenUrl: credentials.tokenUri } } : {}),
    });
  }
  throw new UsageError(
    `${credentials.origin} holds credentials of type ${quote(type)}; fctl takes ${
      CREDENTIAL_TYPES.join(" or ")
    } there (leave json empty for application default credentials)`,
  );
}
