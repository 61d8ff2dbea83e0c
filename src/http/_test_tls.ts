/**
 * An HTTPS server on loopback with a certificate from a test CA, for the HTTP client's tests.
 *
 * @module
 */
import { createTestCertificates } from "../sandbox/test_ca.ts";

/** What an HTTPS test server saw of one request. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: Headers;
  bytes: Uint8Array;
}

/** A running HTTPS test server. */
export interface TlsServer {
  /** `https://127.0.0.1:PORT` */
  url: string;
  /** The CA that signed the server's certificate (PEM). */
  caCert: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

/** Starts an HTTPS/1.1 server answering every request with `answer` (default 200 "ok"). */
export async function startTlsServer(answer: (req: SeenRequest) => Response = () => new Response("ok")) {
  const tls = await createTestCertificates();
  const seen: SeenRequest[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, cert: tls.cert, key: tls.key, onListen() {} },
    async (req) => {
      const request = {
        method: req.method,
        url: req.url,
        headers: new Headers(req.headers),
        bytes: new Uint8Array(await req.arrayBuffer()),
      };
      seen.push(request);
      return answer(request);
    },
  );
  const result: TlsServer = {
    url: `https://127.0.0.1:${server.addr.port}`,
    caCert: tls.caCert,
    seen,
    close: () => server.shutdown(),
  };
  return result;
}
