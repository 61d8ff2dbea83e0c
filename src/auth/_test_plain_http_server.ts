/**
 * A plain-HTTP authorization server on loopback that records every request it gets and grants nothing, for tests
 * of what a client would send where a hostile admin (or a careless configuration) points it: its metadata
 * (`/.well-known/oauth-authorization-server`) names endpoints below itself, every other path answers
 * `invalid_client`.
 *
 * @module
 */

/** One request, as received. */
export interface RecordedRequest {
  method: string;
  /** The path and query. */
  path: string;
  /** The `authorization` header (a client secret in HTTP Basic), empty when none. */
  authorization: string;
  body: string;
}

/** A running recording server. */
export interface PlainHttpServer {
  /** `http://127.0.0.1:<port>`: its issuer. */
  url: string;
  /** Every request received so far, in order. */
  requests: RecordedRequest[];
}

/** Runs `fn` with a recording server, closed when `fn` settles. */
export async function withPlainHttpServer(fn: (server: PlainHttpServer) => Promise<void>): Promise<void> {
  const requests: RecordedRequest[] = [];
  let url = "";
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request: Request) => {
    const target = new URL(request.url);
    requests.push({
      method: request.method,
      path: `${target.pathname}${target.search}`,
      authorization: request.headers.get("authorization") ?? "",
      body: await request.text(),
    });
    if (target.pathname === "/.well-known/oauth-authorization-server") {
      return Response.json({
        issuer: url,
        token_endpoint: `${url}/oauth2/token`,
        authorization_endpoint: `${url}/oauth2/authorize`,
        device_authorization_endpoint: `${url}/oauth2/device/authorize`,
      });
    }
    return Response.json({ error: "invalid_client", error_description: "this server grants nothing" }, {
      status: 401,
    });
  });
  url = `http://127.0.0.1:${server.addr.port}`;
  try {
    await fn({ url, requests });
  } finally {
    await server.shutdown();
  }
}
