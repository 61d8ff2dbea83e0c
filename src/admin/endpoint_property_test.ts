/** Property tests of endpoint parsing, bounded by case count (well under a second each). */
import { deepEqual, ok } from "node:assert/strict";
import fc from "fast-check";
import { checkProperty, runs } from "../_test_property.ts";
import { UsageError } from "../errors.ts";
import { endpointUrl, parseEndpoint } from "./endpoint.ts";

/** Strings made of what endpoints are made of, so many parse; plus any string at all. */
const ENDPOINT_TEXT = fc.oneof(
  fc.string(),
  fc.string({ unit: fc.constantFrom(..."ab9.:/[]%@?#\\0 -_xn".split(""), "\u0000", "é"), maxLength: 30 }),
  fc.tuple(
    fc.constantFrom("", "dns:///", "dns:", "http://", "https://"),
    fc.oneof(fc.ipV4(), fc.ipV4Extended(), fc.domain(), fc.ipV6().map((ip) => `[${ip}]`), fc.string()),
    fc.option(fc.integer({ min: -1, max: 100_000 }), { nil: undefined }),
  ).map(([scheme, host, port]) => `${scheme}${host}${port === undefined ? "" : `:${port}`}`),
);

Deno.test("property: an endpoint parses to a URL-safe host and port, or fails with one UsageError line", async () => {
  await checkProperty(
    "endpoint: an endpoint parses to a URL-safe host and port, or fails with one UsageError line",
    fc.property(ENDPOINT_TEXT, fc.boolean(), (raw, insecure) => {
      let endpoint;
      try {
        endpoint = parseEndpoint(raw);
      } catch (err) {
        ok(err instanceof UsageError, String(err));
        ok(!err.message.includes("\n"), err.message);
        return;
      }
      ok(endpoint.port >= 1 && endpoint.port <= 65535);
      // What the transport dials must be a URL, and parse back to the same endpoint.
      const url = new URL(endpointUrl(endpoint, insecure));
      ok(url.pathname === "/" && url.username === "" && url.search === "", url.href);
      const again = parseEndpoint(endpointUrl(endpoint, insecure));
      deepEqual({ host: again.host, port: again.port }, { host: endpoint.host, port: endpoint.port });
    }),
    { numRuns: runs(10_000) },
  );
});
