import { deepEqual, equal, rejects } from "node:assert/strict";
import { createHttpClient } from "./http_client.ts";
import { startTlsServer } from "./_test_tls.ts";

/** A server on two ports (two origins) that records every request and answers as `answer` says. */
async function withServers(
  answer: (url: URL, base: [string, string]) => Response,
  fn: (base: [string, string], seen: string[]) => Promise<void>,
): Promise<void> {
  const seen: string[] = [];
  const ports: number[] = [];
  const base = (): [string, string] => [`http://127.0.0.1:${ports[0]}`, `http://127.0.0.1:${ports[1]}`];
  const handler = async (req: Request) => {
    const url = new URL(req.url);
    const body = await req.text();
    seen.push(
      `${url.port === String(ports[0]) ? "A" : "B"} ${req.method} ${url.pathname} ${
        req.headers.get("authorization")
      } ${body}`,
    );
    return answer(url, base());
  };
  const servers = [0, 1].map(() => Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler));
  ports.push(...servers.map((server) => server.addr.port));
  try {
    await fn(base(), seen);
  } finally {
    await Promise.all(servers.map((server) => server.shutdown()));
  }
}

const to = (location: string, status = 302) => new Response(null, { status, headers: { location } });

Deno.test("redirects: followed; Authorization dropped on another origin; 303 makes a GET, 307 sends the body again", async () => {
  await withServers((url, [a, b]) => {
    switch (url.pathname) {
      case "/start":
        return to("/same");
      case "/same":
        return to(`${b}/other`);
      case "/put":
        return to(`${a}/put-again`, 307);
      case "/post":
        return to(`${a}/got`, 303);
      default:
        return new Response(`at ${url.pathname}`);
    }
  }, async ([a], seen) => {
    const http = createHttpClient();
    try {
      const answer = await http.fetch(`${a}/start`, { headers: { authorization: "Bearer t0ken" } });
      deepEqual([await answer.text(), answer.redirected, new URL(answer.url).pathname], ["at /other", true, "/other"]);
      await (await http.fetch(`${a}/put`, { method: "PUT", body: "bytes" })).text();
      await (await http.fetch(`${a}/post`, { method: "POST", body: "form", headers: { "content-type": "x/y" } }))
        .text();
      // A Request with a body (the S3 SDK's): fetch follows it, sending its body again.
      await (await http.fetch(new Request(`${a}/put`, { method: "PUT", body: "request" }))).text();
    } finally {
      http.close();
    }
    deepEqual(seen, [
      "A GET /start Bearer t0ken ",
      "A GET /same Bearer t0ken ",
      "B GET /other null ",
      "A PUT /put null bytes",
      "A PUT /put-again null bytes",
      "A POST /post null form",
      "A GET /got null ",
      "A PUT /put null request",
      "A PUT /put-again null request",
    ]);
  });
});

Deno.test("redirects: a loop ends past 20 hops, naming the URL without its query; manual redirects are the caller's", async () => {
  await withServers((url) => to(`${url.pathname}?sig=s3cr3t`), async ([a], seen) => {
    const http = createHttpClient();
    try {
      await rejects(
        http.fetch(`${a}/loop?sig=s3cr3t`),
        (err: Error) =>
          err.message === `GET ${a}/loop was redirected to ${a}/loop: more than 20 redirects` &&
          !err.message.includes("s3cr3t"),
      );
      equal(seen.length, 21);
      const manual = await http.fetch(`${a}/loop`, { redirect: "manual" });
      await manual.body?.cancel();
      equal(manual.status, 302);
    } finally {
      http.close();
    }
  });
});

Deno.test("redirects: from https to plain http, or to another scheme, are refused before anything is sent there", async () => {
  await withServers(() => new Response("plain"), async ([a], seen) => {
    const tls = await startTlsServer((request) => {
      const path = new URL(request.url).pathname;
      return path === "/to-http" ? to(`${a}/plain?token=s3cr3t`) : to("file:///etc/passwd");
    });
    const http = createHttpClient({ caCertificates: tls.caCert });
    try {
      await rejects(
        http.fetch(`${tls.url}/to-http`, { method: "PUT", body: "source" }),
        {
          message:
            `PUT ${tls.url}/to-http was redirected to ${a}/plain: a redirect from https to plain http is not followed`,
        },
      );
      await rejects(http.fetch(`${tls.url}/to-file`), {
        message: `GET ${tls.url}/to-file was redirected to file:///etc/passwd: only http(s) URLs are followed`,
      });
      deepEqual(seen, []);
    } finally {
      http.close();
      await tls.close();
    }
  });
});
