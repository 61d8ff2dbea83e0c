import { deepEqual, equal, throws } from "node:assert/strict";
import { endpointUrl, parseEndpoint } from "./endpoint.ts";
import { UsageError } from "../errors.ts";

Deno.test("parseEndpoint accepts every form found in flytectl configs", () => {
  const cases: [string, { host: string; port: number; schemeInsecure?: boolean }][] = [
    ["dns:///flyte.example.com:443", { host: "flyte.example.com", port: 443, schemeInsecure: undefined }],
    ["flyte.example.com:8089", { host: "flyte.example.com", port: 8089, schemeInsecure: undefined }],
    ["dns:///1.2.3.4:30080", { host: "1.2.3.4", port: 30080, schemeInsecure: undefined }],
    ["1.2.3.4:30080", { host: "1.2.3.4", port: 30080, schemeInsecure: undefined }],
    ["[::1]:8089", { host: "::1", port: 8089, schemeInsecure: undefined }],
    ["http://localhost:30080/", { host: "localhost", port: 30080, schemeInsecure: true }],
    ["https://flyte.example.com", { host: "flyte.example.com", port: 443, schemeInsecure: false }],
    ["  flyte.example.com  ", { host: "flyte.example.com", port: 443, schemeInsecure: undefined }],
    ["http://localhost", { host: "localhost", port: 80, schemeInsecure: true }],
    ["dns:///[::1]:8089", { host: "::1", port: 8089, schemeInsecure: undefined }],
    ["\thttps://flyte.example.com:8443///\n", { host: "flyte.example.com", port: 8443, schemeInsecure: false }],
    ["HTTPS://Flyte.Example.com", { host: "Flyte.Example.com", port: 443, schemeInsecure: false }],
    ["dns:flyte.example.com:81", { host: "flyte.example.com", port: 81, schemeInsecure: undefined }],
  ];
  for (const [raw, want] of cases) deepEqual(parseEndpoint(raw), want, raw);
});

Deno.test("parseEndpoint rejects bad endpoints naming them", () => {
  throws(() => parseEndpoint(""), /no admin endpoint is configured/);
  throws(() => parseEndpoint("ftp://host"), /invalid admin endpoint "ftp:\/\/host": unknown scheme "ftp"/);
  throws(() => parseEndpoint("host:99999"), /port 99999 is outside 1-65535/);
  throws(() => parseEndpoint("ho st:80"), UsageError);
});

Deno.test("parseEndpoint refuses hosts no URL can hold, or would read as another host, naming the value", () => {
  const cases: [string, string][] = [
    ["999.999.999.999:80", '"999.999.999.999:80": "999.999.999.999" is not'],
    ["%00:80", '"%00:80": "%00" is not'],
    ["a\u0000b:80", '"a\\u0000b:80": "a\\u0000b" is not'],
    ["dns:///[::::::1]:80", '"dns:///[::::::1]:80": "::::::1" is not'],
    ["user@host:80", '"user@host:80": "user@host" is not'],
    ["a?b:80", '"a?b:80": "a?b" is not'],
    ["a\\b:80", '"a\\\\b:80": "a\\\\b" is not'],
    ["http://a#b", '"http://a#b": "a#b" is not'],
  ];
  for (const [raw, named] of cases) {
    throws(
      () => parseEndpoint(raw),
      (err: Error) =>
        err instanceof UsageError &&
        err.message === `invalid admin endpoint ${named} a valid host name or IP address`,
      JSON.stringify(raw),
    );
  }
  throws(() => parseEndpoint("host:0"), /^UsageError: invalid admin endpoint "host:0": port 0 is outside 1-65535$/);
  throws(() => parseEndpoint("host:123456"), /^UsageError: invalid admin endpoint "host:123456"; use host:port/);
});

Deno.test("endpointUrl brackets IPv6 hosts and picks the scheme", () => {
  equal(endpointUrl({ host: "::1", port: 8089 }, true), "http://[::1]:8089");
  equal(endpointUrl({ host: "flyte", port: 443 }, false), "https://flyte:443");
});
