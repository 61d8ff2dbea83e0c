/**
 * Starts the sandbox: an HTTP/2 gRPC server (h2c, or TLS when given a certificate) serving AdminService and
 * DataProxyService from memory, plus the HTTP server behind signed upload URLs.
 *
 * @module
 */
import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import { AdminService } from "../../proto/gen/flyteidl/service/admin_pb.ts";
import { DataProxyService } from "../../proto/gen/flyteidl/service/dataproxy_pb.ts";
import { createAdminService } from "./admin_service.ts";
import { createDataProxyService, UploadRegistry } from "./data_proxy.ts";
import { FaultInjector, type MethodPattern } from "./faults.ts";
import { createGrpcRouter } from "./grpc_router.ts";
import { type Http2Listener, listenHttp2 } from "./http2_listener.ts";
import { recordAndInject, type RecordedRequest } from "./record_and_inject.ts";
import { SandboxStore } from "./store.ts";
import { startUploadServer } from "./upload_server.ts";

export type { RecordedRequest };

/** How to start a sandbox. */
export interface SandboxOptions {
  /** gRPC port; 0 or absent picks a free one. */
  port?: number;
  /** Address to listen on; default `127.0.0.1`. */
  hostname?: string;
  /** PEM certificate and key: serve gRPC over TLS (`https://` endpoint) instead of h2c. */
  tls?: { cert: string; key: string };
  /** Delay added before every RPC is handled. */
  latencyMs?: number;
  /** Clock for creation times, upload expiry and recording; default the system clock. */
  now?: () => Date;
}

/** A running sandbox. */
export interface Sandbox {
  /** What clients pass as the admin endpoint: `http://127.0.0.1:PORT`, or `https://…` with TLS. */
  endpoint: string;
  /** The gRPC port. */
  port: number;
  /** Every gRPC request received, in order, including failed and injected ones. */
  requests: RecordedRequest[];
  /** native_url -> bytes successfully PUT to a signed URL. */
  uploads: Map<string, Uint8Array>;
  /** Entities, for direct seeding and inspection. */
  store: SandboxStore;
  /** Empties {@link Sandbox.requests}. */
  clearRequests(): void;
  /** Sets the delay added before every RPC is handled. */
  setLatency(ms: number): void;
  /** The next `count` (default 1) calls of `method` (`*`: any) fail with `code` before touching state. */
  failNext(method: MethodPattern, code: Code, count?: number): void;
  /** A deterministic share of calls of `method` fail with `code` (0.5: every other call, starting with the first). */
  failRatio(method: MethodPattern, code: Code, ratio: number): void;
  /** Removes every failNext and failRatio rule. */
  clearFaults(): void;
  /** Stops both servers and ends open connections; safe to call twice. */
  close(): Promise<void>;
}

/** Starts a sandbox admin service on loopback. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const now = options.now ?? (() => new Date());
  const hostname = options.hostname ?? "127.0.0.1";
  const parts: Parts = {
    store: new SandboxStore(now),
    faults: new FaultInjector(),
    registry: new UploadRegistry(),
    requests: [],
    closing: new AbortController(),
  };
  parts.faults.latencyMs = options.latencyMs ?? 0;
  const uploadServer = await startUploadServer(parts.registry, hostname, now);
  const onRequest = createGrpcRouter({
    routes: routes(parts, now, uploadServer.baseUrl),
    interceptors: [recordAndInject({ requests: parts.requests, faults: parts.faults, now })],
    shutdownSignal: parts.closing.signal,
  });
  let grpc: Http2Listener;
  try {
    grpc = await listenHttp2(onRequest, { port: options.port ?? 0, hostname, tls: options.tls });
  } catch (err) {
    await uploadServer.close();
    throw err;
  }
  const host = hostname.includes(":") ? `[${hostname}]` : hostname;
  const endpoint = `${options.tls ? "https" : "http"}://${host}:${grpc.port}`;
  return sandboxApi(parts, endpoint, grpc.port, () => Promise.all([grpc.close(), uploadServer.close()]));
}

/** The sandbox's state, shared by the services, the interceptor and the API. */
interface Parts {
  store: SandboxStore;
  faults: FaultInjector;
  registry: UploadRegistry;
  requests: RecordedRequest[];
  /** Aborted on close: the router then aborts every call in flight (artificial latency included) with its reason. */
  closing: AbortController;
}

function routes(parts: Parts, now: () => Date, uploadBaseUrl: string): (router: ConnectRouter) => void {
  return (router) => {
    router.service(AdminService, createAdminService(parts.store));
    router.service(DataProxyService, createDataProxyService({ registry: parts.registry, now, uploadBaseUrl }));
  };
}

function sandboxApi(parts: Parts, endpoint: string, port: number, stop: () => Promise<unknown>): Sandbox {
  const { faults, requests } = parts;
  let closed: Promise<void> | undefined;
  return {
    endpoint,
    port,
    requests,
    uploads: parts.registry.uploads,
    store: parts.store,
    clearRequests: () => void requests.splice(0),
    setLatency: (ms) => void (faults.latencyMs = ms),
    failNext: (method, code, count) => faults.failNext(method, code, count),
    failRatio: (method, code, ratio) => faults.failRatio(method, code, ratio),
    clearFaults: () => faults.clear(),
    close: () => {
      parts.closing.abort(new ConnectError("sandbox is closing", Code.Unavailable));
      closed ??= stop().then(() => {});
      return closed;
    },
  };
}
