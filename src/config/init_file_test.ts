import { equal, throws } from "node:assert/strict";
import { parse } from "yaml";
import { UsageError } from "../errors.ts";
import { initEndpoint, initFileText } from "./init_file.ts";

Deno.test("initEndpoint writes every accepted host form as dns:///host[:port], http:// as insecure", () => {
  const cases: [string, string, boolean][] = [
    ["flyte.example.com", "dns:///flyte.example.com", false],
    ["flyte.example.com:8443", "dns:///flyte.example.com:8443", false],
    ["dns:///flyte.example.com:81", "dns:///flyte.example.com:81", false],
    ["https://flyte.example.com/", "dns:///flyte.example.com:443", false],
    ["http://localhost:8089", "dns:///localhost:8089", true],
    ["http://localhost", "dns:///localhost:80", true],
    ["[::1]:8089", "dns:///[::1]:8089", false],
    ["10.0.0.1:30080", "dns:///10.0.0.1:30080", false],
  ];
  for (const [host, endpoint, insecure] of cases) {
    equal(JSON.stringify(initEndpoint(host)), JSON.stringify({ endpoint, insecure }), host);
  }
});

Deno.test("initFileText: flytectl's keys, YAML that reads back to the same values", () => {
  const doc = parse(initFileText({ host: "[::1]:8089", console: "https://x.example.com/console?a=b c" }));
  equal(doc.admin.endpoint, "dns:///[::1]:8089");
  equal(doc.admin.authType, "Pkce");
  equal(doc.admin.insecure, false);
  equal(doc.console.endpoint, "https://x.example.com/console?a=b c");
  equal(doc.logger.level, 3);
  equal(doc.logger["show-source"], true);
  equal(parse(initFileText({ host: "h.example.com", insecure: true })).admin.insecure, true);
  equal(parse(initFileText({ host: "h.example.com" })).console, undefined, "no console unless given");
});

Deno.test("initFileText refuses a host or console fctl could not use, naming it", () => {
  throws(
    () => initFileText({ host: "ftp://h" }),
    (err) => err instanceof UsageError && /"ftp:\/\/h"/.test(err.message),
  );
  throws(() => initFileText({ host: "h:99999" }), UsageError);
  throws(
    () => initFileText({ console: "file:///etc/passwd" }),
    (err) => err instanceof UsageError && err.message.includes('"file:///etc/passwd" for --console'),
  );
});
