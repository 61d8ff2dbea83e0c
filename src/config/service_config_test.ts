import { deepEqual, equal, throws } from "node:assert/strict";
import { methodConfigFor, parseServiceConfig } from "./service_config.ts";

const ADMIN = "flyteidl.service.AdminService";

Deno.test("service config: timeouts and retry policies are read; load balancing is accepted", () => {
  const config = parseServiceConfig(JSON.stringify({
    loadBalancingConfig: [{ round_robin: {} }],
    methodConfig: [
      { name: [{}], timeout: "30s" },
      { name: [{ service: ADMIN }], timeout: "10s" },
      {
        name: [{ service: ADMIN, method: "ListTasks" }],
        timeout: "1.5s",
        retryPolicy: {
          maxAttempts: 9,
          initialBackoff: "0.1s",
          maxBackoff: "2s",
          backoffMultiplier: 1.5,
          retryableStatusCodes: ["UNAVAILABLE", "resource_exhausted", 4],
        },
      },
    ],
  }));
  const list = methodConfigFor(config, ADMIN, "ListTasks");
  equal(list?.timeoutMs, 1_500);
  deepEqual(list?.retryPolicy, {
    maxAttempts: 5,
    initialBackoffMs: 100,
    maxBackoffMs: 2_000,
    backoffMultiplier: 1.5,
    retryableStatusCodes: [14, 8, 4],
  });
  equal(methodConfigFor(config, ADMIN, "GetTask")?.timeoutMs, 10_000);
  equal(methodConfigFor(config, "flyteidl.service.DataProxyService", "CreateUploadLocation")?.timeoutMs, 30_000);
  deepEqual(parseServiceConfig('{"loadBalancingPolicy":"round_robin"}'), { methodConfig: [] });
});

Deno.test("service config: invalid configs name the bad part", () => {
  const cases: [string, RegExp][] = [
    ["{not json", /^not valid JSON/],
    ["[]", /must be a JSON object/],
    ['{"methodConfig":{}}', /methodConfig must be a list/],
    [
      '{"methodConfig":[{"name":[{"method":"GetTask"}]}]}',
      /methodConfig\[0\]\.name\[0\] names a method without its service/,
    ],
    ['{"methodConfig":[{"timeout":"5"}]}', /methodConfig\[0\]\.timeout must be a duration like "1.5s", got "5"/],
    [
      '{"methodConfig":[{"timeout":"3000000s"}]}',
      /^methodConfig\[0\]\.timeout must be from 0s to 2147483.647s, got "3000000s"$/,
    ],
    [
      '{"methodConfig":[{"retryPolicy":{"maxAttempts":1,"initialBackoff":"1s","maxBackoff":"1s","backoffMultiplier":2,"retryableStatusCodes":["UNAVAILABLE"]}}]}',
      /maxAttempts must be a whole number of at least 2/,
    ],
    [
      '{"methodConfig":[{"retryPolicy":{"maxAttempts":3,"initialBackoff":"1s","maxBackoff":"1s","backoffMultiplier":2,"retryableStatusCodes":["NOPE"]}}]}',
      /retryableStatusCodes\[0\] has an unknown status code "NOPE"/,
    ],
  ];
  for (const [text, want] of cases) {
    throws(() => parseServiceConfig(text), (err: Error) => want.test(err.message), text);
  }
});
