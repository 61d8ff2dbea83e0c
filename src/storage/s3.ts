/**
 * `storage.type` s3 and minio, and stow kind s3: the AWS SDK's S3 client (`@aws-sdk/client-s3`), loaded
 * only when one of them is configured.
 *
 * Every HTTP call goes through the command's `fetch` (its CA file, proxy settings and the system roots,
 * Deno's own TLS, no `--allow-sys`) by the SDK's fetch handler, each call bounded by
 * `storage.defaultHttpClient.timeout`. Uploads are single PUTs with `Content-Length` and, when known,
 * `Content-MD5`, which the server checks; the SDK's own CRC checksums are asked for only when an
 * operation requires them (S3-API servers other than AWS's refuse the aws-chunked framing they use).
 *
 * The credentials of auth-type iam and the client's settings (retries, FIPS endpoints, a configured endpoint) come
 * from the environment the store is given, as the SDK would take them from the process's (s3_credentials.ts,
 * s3_client_settings.ts).
 *
 * @module
 */
import {
  CreateBucketCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from "@aws-sdk/client-s3";
import { FetchHttpHandler } from "@smithy/fetch-http-handler";
import { Buffer } from "node:buffer";
import { OperationError, quote } from "../errors.ts";
import { formatLimit } from "../fs/read_bounded.ts";
import { ERROR_BODY_MAX_BYTES, HttpBodyTooLargeError, type HttpRequestInit } from "../http/bounded_body.ts";
import { HttpTimeoutError } from "../http/timeouts.ts";
import { hideSignatures } from "../http/url_secrets.ts";
import { describeFetchFailure } from "../http/fetch_error.ts";
import { SizedFileBody } from "../http/put.ts";
import {
  containerReference,
  noSuchObject,
  objectReference,
  readAllBounded,
  type ReferenceScope,
  tooLarge,
} from "./reference.ts";
import { configuredEndpoint, envClientSettings } from "./s3_client_settings.ts";
import { envCredentialChain } from "./s3_credentials.ts";
import type { Env } from "./s3_env.ts";
import type { S3Settings } from "./s3_settings.ts";
import type { ObjectInfo, ObjectStore, StoreSource } from "./store.ts";

/** What the S3 store uses besides its settings. */
export interface S3StoreDeps {
  /** The `fetch` every call goes through (the command's CA and proxy); default the global one. */
  fetch?: typeof fetch;
  /**
   * The environment auth-type iam takes its AWS variables from (see s3_credentials.ts); default none: the
   * process's is not read.
   */
  env?: Env;
}

/** Opens an S3-API store; nothing is sent until it is used. */
export function openS3Store(settings: S3Settings, deps: S3StoreDeps = {}): ObjectStore {
  return new S3Store(settings, deps.fetch ?? fetch, deps.env ?? {});
}

/**
 * The user agent of every SDK client fctl makes: the SDK's own reads os.release(), which Deno grants only with
 * `--allow-sys`, a permission fctl does not have.
 */
const fctlUserAgent: NonNullable<S3ClientConfig["defaultUserAgentProvider"]> = () =>
  Promise.resolve([["fctl"], ["lang/js"]]);

/** The most read of an S3 answer other than an object's bytes (an upload's, a bucket's); real ones are a few KiB. */
const S3_ANSWER_MAX_BYTES = 1024 * 1024;

/** The SDK's service errors carry the HTTP status here. */
interface ServiceError extends Error {
  $metadata?: { httpStatusCode?: number };
  Code?: string;
}

class S3Store implements ObjectStore {
  readonly type: string;
  readonly #settings: S3Settings;
  readonly #scope: ReferenceScope;
  readonly #client: S3Client;
  /** Buckets known to exist (or created), each checked once. */
  readonly #buckets = new Map<string, Promise<void>>();
  #closed = false;

  constructor(settings: S3Settings, baseFetch: typeof fetch, env: Env) {
    this.type = settings.type;
    this.#settings = settings;
    this.#scope = {
      type: settings.type,
      scheme: "s3",
      container: settings.container,
      multiContainer: settings.multiContainer,
    };
    const timeoutMs = settings.timeoutMs;
    // Bounds each HTTP call (retries included, one at a time) and really ends it: the handler's own
    // requestTimeout only stops waiting for it.
    const customFetch: typeof fetch = (input, init) => {
      const signals = [init?.signal, input instanceof Request ? input.signal : undefined]
        .filter((s): s is AbortSignal => s !== undefined && s !== null);
      if (timeoutMs > 0) signals.push(AbortSignal.timeout(timeoutMs));
      const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
      // Only an object's GET is streamed; the SDK reads every other answer whole (a PUT's, a bucket check's), so
      // it is bounded, and due whole within http.headersTimeout: one without end would fill memory, one that
      // trickles would never end.
      const maxBodyBytes = method === "GET" ? undefined : S3_ANSWER_MAX_BYTES;
      const bounded: HttpRequestInit = { ...init, signal: signals.length > 0 ? AbortSignal.any(signals) : undefined };
      if (maxBodyBytes !== undefined) bounded.maxBodyBytes = maxBodyBytes;
      return baseFetch(input, bounded);
    };
    const config: S3ClientConfig = {
      // Retries, FIPS and dual-stack endpoints and the like, from `env` and its shared files (s3_client_settings.ts).
      ...envClientSettings(env),
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.pathStyle,
      // The chain: the SDK's default one (environment, shared files and AWS_PROFILE, web identity, ECS, EC2) over
      // `env` instead of the process's environment. Its `clientConfig` configures the STS and SSO clients it makes
      // (web identity, assumed roles), which would otherwise build the SDK's user agent too.
      credentials: settings.credentials.kind === "keys"
        ? { accessKeyId: settings.credentials.accessKeyId, secretAccessKey: settings.credentials.secretAccessKey }
        : envCredentialChain(env, { clientConfig: { defaultUserAgentProvider: fctlUserAgent } }),
      requestHandler: new FetchHttpHandler({ customFetch }),
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      defaultUserAgentProvider: fctlUserAgent,
    };
    this.#client = new S3Client(config);
    // Without an endpoint of fctl's, the SDK looks one up (`AWS_ENDPOINT_URL_S3`, a profile's `endpoint_url`) in the
    // process's environment and default files: this client looks in `env`'s instead.
    if (!settings.endpoint) this.#client.config.serviceConfiguredEndpoint = configuredEndpoint(env, "S3");
  }

  baseReference(): string {
    return containerReference(this.#scope);
  }

  async writeFile(ref: string, source: StoreSource, signal?: AbortSignal): Promise<void> {
    const { container, key } = objectReference(ref, this.#scope);
    await this.#call("write", ref, signal, async () => {
      await this.#ensureBucket(container, signal);
      await this.#client.send(
        new PutObjectCommand({
          Bucket: container,
          Key: key,
          // A file is streamed with its size as Content-Length (never read whole); a Blob can be re-read on retry.
          Body: source.bytes ?? new SizedFileBody(source.path, source.size),
          ContentLength: source.bytes?.length ?? source.size,
          ContentMD5: source.md5 ? Buffer.from(source.md5).toString("base64") : undefined,
        }),
        { abortSignal: signal },
      );
    });
  }

  async head(ref: string, signal?: AbortSignal): Promise<ObjectInfo | undefined> {
    const { container, key } = objectReference(ref, this.#scope);
    return await this.#call("read", ref, signal, async () => {
      try {
        const answer = await this.#client.send(new HeadObjectCommand({ Bucket: container, Key: key }), {
          abortSignal: signal,
        });
        return { size: answer.ContentLength ?? 0 };
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    });
  }

  async readBytes(ref: string, maxBytes: number, signal?: AbortSignal): Promise<Uint8Array> {
    const { stream, size } = await this.#get(ref, signal);
    if (size !== undefined && size > maxBytes) {
      await stream.cancel().catch(() => {});
      throw tooLarge(ref, size, maxBytes);
    }
    return await this.#call("read", ref, signal, () => readAllBounded(stream, ref, maxBytes));
  }

  async readStream(ref: string, signal?: AbortSignal): Promise<ReadableStream<Uint8Array>> {
    return (await this.#get(ref, signal)).stream;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#client.destroy();
  }

  async #get(ref: string, signal?: AbortSignal): Promise<{ stream: ReadableStream<Uint8Array>; size?: number }> {
    const { container, key } = objectReference(ref, this.#scope);
    return await this.#call("read", ref, signal, async () => {
      try {
        const answer = await this.#client.send(new GetObjectCommand({ Bucket: container, Key: key }), {
          abortSignal: signal,
        });
        if (!answer.Body) throw new OperationError(`cannot read ${quote(ref)}: the server sent no body`);
        return { stream: answer.Body.transformToWebStream() as ReadableStream<Uint8Array>, size: answer.ContentLength };
      } catch (err) {
        if (isNotFound(err)) throw noSuchObject(ref);
        throw err;
      }
    });
  }

  /** Creates the bucket when absent, once per bucket, as flytestdlib does with its initial container. */
  #ensureBucket(bucket: string, signal: AbortSignal | undefined): Promise<void> {
    let known = this.#buckets.get(bucket);
    if (!known) {
      known = this.#createIfAbsent(bucket, signal);
      // A failed check is tried again by the next write.
      known.catch(() => this.#buckets.delete(bucket));
      this.#buckets.set(bucket, known);
    }
    return known;
  }

  async #createIfAbsent(bucket: string, signal: AbortSignal | undefined): Promise<void> {
    try {
      await this.#client.send(new HeadBucketCommand({ Bucket: bucket }), { abortSignal: signal });
      return;
    } catch (err) {
      // 403 and the like: the bucket may well exist (no ListBucket permission); the write will say.
      if (!isNotFound(err)) return;
    }
    try {
      const region = this.#settings.region;
      await this.#client.send(
        new CreateBucketCommand({
          Bucket: bucket,
          // AWS refuses us-east-1 as a location constraint: it is the default.
          CreateBucketConfiguration: region !== "us-east-1" && !this.#settings.endpoint
            ? { LocationConstraint: region as never }
            : undefined,
        }),
        { abortSignal: signal },
      );
    } catch (err) {
      // Created meanwhile by someone else with our credentials: what we wanted.
      if ((err as Error).name !== "BucketAlreadyOwnedByYou") {
        throw new OperationError(`cannot create bucket ${quote(bucket)}: ${this.#describe(err)}`, { cause: err });
      }
    }
  }

  /** Runs one operation; any failure becomes one line naming the reference (an abort stays an abort). */
  async #call<T>(what: string, ref: string, signal: AbortSignal | undefined, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      // An answer over its bound or its time: the HTTP client's one line, without what the SDK appends to an error
      // met while reading an answer (a line of its own: "Deserialization error: to see the raw response, …").
      if (err instanceof HttpTimeoutError || err instanceof HttpBodyTooLargeError) {
        throw new OperationError(`cannot ${what} ${quote(ref)}: ${err.message.split("\n")[0]}`, { cause: err });
      }
      if (err instanceof OperationError) throw err;
      throw new OperationError(`cannot ${what} ${quote(ref)}: ${this.#describe(err)}`, { cause: err });
    }
  }

  #describe(err: unknown): string {
    const error = err as ServiceError;
    if (error?.name === "TimeoutError") {
      return `no answer within storage.defaultHttpClient.timeout (${this.#settings.timeoutMs} ms)`;
    }
    if (error?.name === "CredentialsProviderError") {
      return "no AWS credentials found (environment, shared config and credentials files, web identity, " +
        "ECS/EC2 metadata); set them there, or use auth-type accesskey with an access key and secret key";
    }
    // Without HOME the SDK asks the system for the user's home directory, which fctl's permissions do not
    // include (`--allow-sys`): say what to set instead.
    if (/Requires sys access to "(uid|homedir)"/.test(error?.message ?? "")) {
      return "HOME is not set, and the AWS SDK needs it to look for its shared config and credentials files: set HOME";
    }
    const status = error?.$metadata?.httpStatusCode;
    // An error document the SDK cannot parse (cut at the HTTP client's bound, or not S3's XML): its message would
    // point at a field only a program sees.
    if (status !== undefined && /Deserialization error/.test(error.message ?? "")) {
      return `an error answer that is not a readable S3 error document (HTTP ${status}; at most ${
        formatLimit(ERROR_BODY_MAX_BYTES)
      } of it is read)`;
    }
    if (status !== undefined) {
      const message = error.message && error.message !== error.name && error.message !== "UnknownError"
        ? `: ${error.message}`
        : "";
      // The message may quote the refused request's signature (SignatureDoesNotMatch).
      return hideSignatures(`${error.name}${message} (HTTP ${status})`);
    }
    return describeFetchFailure(err);
  }
}

function isNotFound(err: unknown): boolean {
  const error = err as ServiceError;
  return error?.$metadata?.httpStatusCode === 404 || error?.name === "NotFound" || error?.name === "NoSuchKey" ||
    error?.name === "NoSuchBucket";
}
