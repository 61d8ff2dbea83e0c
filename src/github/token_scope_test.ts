import { deepEqual } from "node:assert/strict";
import { createHttpClient } from "../http/http_client.ts";
import { githubTokenHosts, withGitHubToken } from "./token_scope.ts";

Deno.test("githubTokenHosts: the API's host, plus github.com (browser downloads) for the public API only", () => {
  deepEqual([...githubTokenHosts(undefined)], ["api.github.com", "github.com"]);
  deepEqual([...githubTokenHosts("https://api.github.com/")], ["api.github.com", "github.com"]);
  deepEqual([...githubTokenHosts("https://ghe.example.com/api/v3")], ["ghe.example.com"]);
  deepEqual([...githubTokenHosts("http://127.0.0.1:8080")], ["127.0.0.1:8080"]);
});

Deno.test("withGitHubToken: the token goes to the API's host, not to another host or port, and not without a token", async () => {
  const seen: [string, string | null][] = [];
  const serve = () =>
    Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
      seen.push([new URL(req.url).port, req.headers.get("authorization")]);
      return new Response("ok");
    });
  const api = serve();
  const other = serve();
  const http = createHttpClient();
  try {
    const apiUrl = `http://127.0.0.1:${api.addr.port}`;
    const withToken = withGitHubToken(http, apiUrl, "ghp_secret");
    await (await withToken.fetch(`${apiUrl}/download/a.tgz`, { headers: { accept: "*/*" } })).text();
    await (await withToken.fetch(`http://127.0.0.1:${other.addr.port}/download/a.tgz`)).text();
    await (await withGitHubToken(http, apiUrl, undefined).fetch(`${apiUrl}/download/a.tgz`)).text();
    deepEqual(seen, [
      [String(api.addr.port), "Bearer ghp_secret"],
      [String(other.addr.port), null],
      [String(api.addr.port), null],
    ]);
  } finally {
    http.close();
    await api.shutdown();
    await other.shutdown();
  }
});
