/**
 * `storage.type: stow` with `storage.stow.kind: azure`: Azure Blob Storage through `@azure/storage-blob`,
 * authenticated with the account's key (stow azure's `account` and `key`). References are
 * `abfs://<container>/<key>` (also `abfss://`, and the ADLS form `abfs://<container>@<account>.dfs.…/<key>`,
 * as flytestdlib reads them). The service is `https://<account>.blob.<domain_suffix>`, or fctl's `endpoint`
 * key (e.g. Azurite's `http://127.0.0.1:10000/devstoreaccount1`). This module is imported only when that
 * kind is configured.
 *
 * @module
 */
import type { Readable } from "node:stream";
import { BlobServiceClient, type BlockBlobUploadOptions, StorageSharedKeyCredential } from "@azure/storage-blob";
import { OperationError, quote, UsageError } from "../errors.ts";
import { boundedCall, type CallContext, describe, streamIdle } from "./cloud_call.ts";
import { checkReadable, containerReference, noSuchObject, readAllBounded } from "./reference.ts";
import { firstChunkThenStream, watchedSource } from "./node_streams.ts";
import { azureServiceUrl, cloudStowConfigProblems, cloudStowSecrets } from "./stow_config.ts";
import { type ResolvedReference, resolveReference } from "./stow_reference.ts";
import type { ObjectInfo, ObjectStore, StoreSource, StowStoreSettings } from "./store.ts";

/**
 * Opens an Azure Blob store. Nothing is contacted until the first call.
 *
 * @throws {UsageError} the stow config has unknown, missing or bad keys
 */
export function openAzureStore(settings: StowStoreSettings): ObjectStore {
  const problems = cloudStowConfigProblems("azure", settings.config);
  if (problems.length > 0) throw new UsageError(problems.join("; "));
  return new AzureStore(settings);
}

class AzureStore implements ObjectStore {
  readonly type = "stow/azure";
  readonly #settings: StowStoreSettings;
  readonly #secrets: string[];
  readonly #service: BlobServiceClient;
  /** container -> its creation when absent, done once */
  readonly #containers = new Map<string, Promise<void>>();

  constructor(settings: StowStoreSettings) {
    this.#settings = settings;
    this.#secrets = cloudStowSecrets("azure", settings.config);
    const { account, key } = settings.config;
    this.#service = new BlobServiceClient(
      azureServiceUrl(settings.config),
      new StorageSharedKeyCredential(account, key),
    );
  }

  baseReference(): string {
    return containerReference({
      type: "stow azure",
      scheme: "abfs",
      container: this.#settings.container,
      multiContainer: this.#settings.multiContainer,
    });
  }

  #resolve(ref: string): ResolvedReference {
    return resolveReference(ref, {
      backend: "stow azure",
      schemes: ["abfs", "abfss"],
      container: this.#settings.container,
      multiContainer: this.#settings.multiContainer,
      account: this.#settings.config.account,
    });
  }

  #context(verb: string, ref: string, signal?: AbortSignal): CallContext {
    const { timeoutMs, headersTimeoutMs: headersMs, idleTimeoutMs: idleMs } = this.#settings;
    return { verb, ref, signal, timeoutMs, headersMs, idleMs, secrets: this.#secrets };
  }

  async writeFile(ref: string, source: StoreSource, signal?: AbortSignal): Promise<void> {
    const { container, key } = this.#resolve(ref);
    await this.#ensureContainer(container, signal);
    const blob = this.#service.getContainerClient(container).getBlockBlobClient(key);
    await boundedCall(this.#context("write", ref, signal), async (abortSignal, progress) => {
      const options: BlockBlobUploadOptions = {
        abortSignal,
        blobHTTPHeaders: {
          blobContentType: "application/octet-stream",
          ...(source.md5 ? { blobContentMD5: source.md5 } : {}),
        },
        // One Put Blob with Content-MD5: the service refuses the blob when its bytes do not match.
        ...(source.md5 ? { transactionalContentMD5: source.md5 } : {}),
      };
      // A factory, so a retried request reads the body again from its start (a file is never read whole), watched as
      // the client takes it: a service that stops taking it (or never answers) ends the call.
      const size = source.bytes?.byteLength ?? source.size ?? 0;
      await blob.upload(() => watchedSource(source, progress), size, options);
    });
  }

  async head(ref: string, signal?: AbortSignal): Promise<ObjectInfo | undefined> {
    const { container, key } = this.#resolve(ref);
    const blob = this.#service.getContainerClient(container).getBlobClient(key);
    return await boundedCall(this.#context("check", ref, signal), async (abortSignal) => {
      try {
        const properties = await blob.getProperties({ abortSignal });
        return { size: properties.contentLength ?? 0 };
      } catch (err) {
        if (statusOf(err) === 404) return undefined;
        throw err;
      }
    });
  }

  async readBytes(ref: string, maxBytes: number, signal?: AbortSignal): Promise<Uint8Array> {
    const info = await this.head(ref, signal);
    checkReadable(ref, info, maxBytes);
    return await boundedCall(this.#context("read", ref, signal), async (abortSignal) => {
      const stream = await this.#download(ref, abortSignal, (err) => err);
      return await readAllBounded(stream, ref, maxBytes);
    });
  }

  async readStream(ref: string, signal?: AbortSignal): Promise<ReadableStream<Uint8Array>> {
    // The deadline bounds getting the object's first bytes; an archive then streams for as long as it takes.
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      return await boundedCall(this.#context("read", ref, signal), () =>
        this.#download(
          ref,
          controller.signal,
          (err) =>
            signal?.aborted
              ? signal.reason
              : new OperationError(`cannot read ${quote(ref)}: ${describe(err, this.#secrets)}`),
        ));
    } catch (err) {
      controller.abort();
      signal?.removeEventListener("abort", onAbort);
      throw err;
    }
  }

  async #download(
    ref: string,
    abortSignal: AbortSignal,
    onError: (err: unknown) => unknown,
  ): Promise<ReadableStream<Uint8Array>> {
    const { container, key } = this.#resolve(ref);
    const blob = this.#service.getContainerClient(container).getBlobClient(key);
    let response;
    try {
      response = await blob.download(0, undefined, { abortSignal });
    } catch (err) {
      if (statusOf(err) === 404) throw noSuchObject(ref);
      throw err;
    }
    const body = response.readableStreamBody as Readable | undefined;
    if (body === undefined) throw new OperationError(`cannot read ${quote(ref)}: the service sent no body`);
    return await firstChunkThenStream(body, onError, streamIdle(ref, this.#settings.idleTimeoutMs));
  }

  close(): void {
    // The client keeps no connection of its own between calls: nothing to release.
  }

  /** Creates the container when it is absent, as flytestdlib does for its container; once per container. */
  #ensureContainer(container: string, signal?: AbortSignal): Promise<void> {
    let done = this.#containers.get(container);
    if (done === undefined) {
      done = boundedCall(this.#context("create", `abfs://${container}`, signal), async (abortSignal) => {
        await this.#service.getContainerClient(container).createIfNotExists({ abortSignal });
      });
      this.#containers.set(container, done);
      done.catch(() => this.#containers.delete(container));
    }
    return done;
  }
}

/** The HTTP status an SDK error carries, if any. */
function statusOf(err: unknown): number | undefined {
  const status = (err as { statusCode?: unknown })?.statusCode;
  return typeof status === "number" ? status : undefined;
}
