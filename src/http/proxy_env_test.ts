import { equal, throws } from "node:assert/strict";
import { UsageError } from "../errors.ts";
import { httpProxyFor, proxyFor } from "./proxy_env.ts";

const PROXIES = { HTTP_PROXY: "http://plain-proxy:3128", HTTPS_PROXY: "http://tls-proxy:3129" };

Deno.test("httpProxyFor: HTTP_PROXY for http URLs, HTTPS_PROXY for https URLs, none without them", () => {
  equal(httpProxyFor("http://example.com/a", PROXIES), "http://plain-proxy:3128/");
  equal(httpProxyFor("https://example.com/a", PROXIES), "http://tls-proxy:3129/");
  equal(httpProxyFor("http://example.com/a", { HTTPS_PROXY: PROXIES.HTTPS_PROXY }), undefined);
  equal(httpProxyFor("https://example.com/a", { HTTP_PROXY: PROXIES.HTTP_PROXY }), undefined);
  equal(httpProxyFor("https://example.com/a", {}), undefined);
});

Deno.test("httpProxyFor: lower-case variables, an empty upper-case one falls back, a bare host:port is http", () => {
  equal(httpProxyFor("http://example.com", { http_proxy: "http://lower:1" }), "http://lower:1/");
  equal(httpProxyFor("https://example.com", { HTTPS_PROXY: "", https_proxy: "http://lower:2" }), "http://lower:2/");
  equal(httpProxyFor("https://example.com", { HTTPS_PROXY: "proxy.corp:8080" }), "http://proxy.corp:8080/");
});

Deno.test("httpProxyFor: every NO_PROXY form that excludes the host, and those that do not", () => {
  const excluded: [string, string][] = [
    ["https://example.com/x", "*"],
    ["https://example.com/x", "example.com"],
    ["https://api.example.com/x", "example.com"],
    ["https://api.example.com/x", ".example.com"],
    ["https://example.com/x", ".example.com"],
    ["https://api.example.com/x", "*.example.com"],
    ["https://EXAMPLE.com/x", "example.COM"],
    ["https://example.com/x", "other.org, example.com"],
    ["https://example.com/x", "example.com:443"],
    ["http://example.com:8080/x", "example.com:8080"],
    ["http://127.0.0.1:9000/x", "127.0.0.1"],
    ["http://[::1]:9000/x", "[::1]"],
    ["http://[::1]:9000/x", "::1"],
  ];
  for (const [url, noProxy] of excluded) {
    equal(httpProxyFor(url, { ...PROXIES, NO_PROXY: noProxy }), undefined, `${noProxy} excludes ${url}`);
  }
  equal(httpProxyFor("https://example.com", { ...PROXIES, no_proxy: "example.com" }), undefined, "no_proxy");
  const kept: [string, string][] = [
    ["https://example.com/x", "other.com"],
    ["https://notexample.com/x", "example.com"],
    ["https://notexample.com/x", ".example.com"],
    ["https://example.com/x", "example.com:8443"],
    ["http://example.com/x", "example.com:443"],
    ["https://example.com/x", ", ,"],
    ["http://127.0.0.2/x", "127.0.0.1"],
  ];
  for (const [url, noProxy] of kept) {
    equal(
      httpProxyFor(url, { ...PROXIES, NO_PROXY: noProxy }),
      url.startsWith("https") ? "http://tls-proxy:3129/" : "http://plain-proxy:3128/",
      `${noProxy} keeps ${url} proxied`,
    );
  }
});

Deno.test("proxy variables that cannot be used are usage errors naming the variable", () => {
  throws(
    () => httpProxyFor("https://example.com", { HTTPS_PROXY: "https://tls-proxy:3129" }),
    (err) =>
      err instanceof UsageError &&
      err.message === 'unsupported HTTPS_PROXY scheme "https:": only http:// proxies are supported',
  );
  throws(
    () => httpProxyFor("http://example.com", { HTTP_PROXY: "http://[bad" }),
    (err) => err instanceof UsageError && err.message === 'invalid HTTP_PROXY "http://[bad": expected http://host:port',
  );
});

Deno.test("proxyFor (the gRPC connection) reads HTTPS_PROXY only", () => {
  equal(proxyFor("admin.example.com", 443, PROXIES), "http://tls-proxy:3129/");
  equal(proxyFor("admin.example.com", 443, { HTTP_PROXY: PROXIES.HTTP_PROXY }), undefined);
  equal(proxyFor("admin.example.com", 443, { ...PROXIES, NO_PROXY: "example.com" }), undefined);
});
