/**
 * The gRPC connection through an HTTP proxy: an HTTP/1.1 CONNECT tunnel, then TLS (or h2c) inside it.
 *
 * node:http2's `createConnection` must return a stream synchronously, while the tunnel takes a round trip
 * to set up; {@link TunnelStream} is a duplex that holds writes until the proxy has answered.
 *
 * @module
 */
import { connect as netConnect, isIP, type Socket } from "node:net";
import { connect as tlsConnect, type ConnectionOptions } from "node:tls";
import { Duplex } from "node:stream";
import { Buffer } from "node:buffer";

/** Where the tunnel goes and how. */
export interface TunnelOptions {
  /** `http://[user:password@]host:port` of the proxy. */
  proxy: string;
  /** The admin service's host and port. */
  host: string;
  port: number;
  /** TLS settings when the admin connection is TLS. */
  tls?: { ca?: ConnectionOptions["ca"]; rejectUnauthorized: boolean };
}

/** A duplex stream over an HTTP CONNECT tunnel; data flows once the proxy answers 2xx. */
export class TunnelStream extends Duplex {
  #socket: Socket;
  #ready = false;
  #paused = false;
  #pending: { chunk: Buffer; callback: (error?: Error | null) => void }[] = [];
  #head = Buffer.alloc(0);

  constructor(proxy: URL, target: string) {
    super();
    const port = Number(proxy.port || (proxy.protocol === "https:" ? 443 : 80));
    this.#socket = netConnect({ host: proxy.hostname.replace(/^\[|\]$/g, ""), port });
    const auth = proxy.username
      ? `Proxy-Authorization: Basic ${
        Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString("base64")
      }\r\n`
      : "";
    this.#socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${auth}\r\n`);
    this.#socket.on("data", (data: Buffer) => this.#onData(data, proxy, target));
    this.#socket.on("end", () => this.push(null));
    this.#socket.on("error", (err) => this.destroy(err));
    this.#socket.on("close", () => {
      if (!this.destroyed) this.destroy();
    });
  }

  #onData(data: Buffer, proxy: URL, target: string): void {
    if (this.#ready) {
      if (!this.push(data)) {
        this.#paused = true;
        this.#socket.pause();
      }
      return;
    }
    this.#head = Buffer.concat([this.#head, data]);
    const end = this.#head.indexOf("\r\n\r\n");
    if (end < 0) {
      if (this.#head.length > 16_384) this.destroy(new Error(`proxy ${proxy.host} sent an oversized answer`));
      return;
    }
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(this.#head.subarray(0, end).toString("latin1"));
    if (!status || !status[1].startsWith("2")) {
      this.destroy(new Error(`proxy ${proxy.host} refused CONNECT ${target}: ${status ? status[1] : "bad answer"}`));
      return;
    }
    this.#ready = true;
    const rest = this.#head.subarray(end + 4);
    this.#head = Buffer.alloc(0);
    if (rest.length > 0) this.push(rest);
    for (const { chunk, callback } of this.#pending.splice(0)) this.#socket.write(chunk, callback);
  }

  // node:http2 (and Connect's idle handling) treat the stream as a socket: let them keep the process
  // alive or not, and tune it, through the proxy connection underneath.
  ref(): this {
    this.#socket.ref();
    return this;
  }

  unref(): this {
    this.#socket.unref();
    return this;
  }

  setNoDelay(noDelay?: boolean): this {
    this.#socket.setNoDelay(noDelay);
    return this;
  }

  setKeepAlive(enable?: boolean, initialDelay?: number): this {
    this.#socket.setKeepAlive(enable, initialDelay);
    return this;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.#ready) this.#socket.write(chunk, callback);
    else this.#pending.push({ chunk, callback });
  }

  override _read(): void {
    // Only undo our own back-pressure pause: resuming a socket that is still connecting makes Deno's
    // http2 spin calling _read.
    if (this.#paused) {
      this.#paused = false;
      this.#socket.resume();
    }
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.#socket.end(callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#socket.destroy();
    callback(error);
  }
}

/** A `createConnection` for node:http2 that dials through the proxy. */
export function tunnelConnection(options: TunnelOptions): () => Duplex {
  const proxy = new URL(options.proxy);
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  const target = `${host}:${options.port}`;
  return () => {
    const tunnel = new TunnelStream(proxy, target);

    if (!options.tls) return tunnel;
    return tlsConnect({
      socket: tunnel,
      servername: isIP(options.host) ? undefined : options.host,
      ALPNProtocols: ["h2"],
      ca: options.tls.ca,
      rejectUnauthorized: options.tls.rejectUnauthorized,
    });
  };
}
