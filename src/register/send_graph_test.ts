/**
 * A dry run loads nothing that sends: the execute step (Connect's errors, the HTTP client, the upload) is
 * imported by `registerFiles` only for a registration that creates something, and `node:http(s)` never (every
 * PUT goes through fetch). Each costs a cold process about 10 ms it does not need. Nor do the storage checks and
 * backends load before a registration opens storage.
 */
import { deepEqual, ok as assert } from "node:assert/strict";
import { moduleGraph } from "../../scripts/module_graph.ts";

/** The modules `entry` loads before it runs; with `dynamic`, every module it may load. */
async function staticGraph(entry: URL, options: { dynamic?: boolean } = {}): Promise<string[]> {
  return [...(await moduleGraph(entry)).reachable(options)];
}

Deno.test("registerFiles loads the execute step, Connect and the HTTP client only when it sends something", async () => {
  const graph = await staticGraph(new URL("./register_files.ts", import.meta.url));
  assert(graph.some((s) => s.endsWith("src/register/package/members.ts")), "the walk follows static imports");
  assert(graph.some((s) => s.includes("modern-tar")), "and into npm packages");
  const sending = graph.filter((s) =>
    /@connectrpc|src\/register\/(execute|upload|create_entity)\.ts$|src\/http\/|^node:https?$/.test(s)
  );
  deepEqual(sending, []);
});

Deno.test("the HTTP client never loads node:http(s), not even for a PUT from disk", async () => {
  const graph = await staticGraph(new URL("../http/http_client.ts", import.meta.url), { dynamic: true });
  assert(graph.some((s) => s.endsWith("src/http/put.ts")), "the walk follows static imports");
  deepEqual(graph.filter((s) => /^node:https?$/.test(s)), []);
});

Deno.test("a registration loads the storage checks and backends only when it opens storage: never in a dry run", async () => {
  const graph = await staticGraph(new URL("../cli/run_registration.ts", import.meta.url));
  assert(graph.some((s) => s.endsWith("src/storage/local_fallback.ts")), "the fallback's rule is checked up front");
  deepEqual(
    graph.filter((s) => /src\/storage\/(mod|validate|cache|local|mem|s3_settings|stow_config)\.ts$/.test(s)),
    [],
  );
  const all = await staticGraph(new URL("../cli/run_registration.ts", import.meta.url), { dynamic: true });
  assert(all.some((s) => s.endsWith("src/storage/mod.ts")), "storage/mod.ts behind a literal dynamic import");
});

Deno.test("a dry run of a local package loads no Node built-in: the first one costs a process about 10 ms", async () => {
  for (const entry of ["./register_files.ts", "../cli/run_registration.ts", "../cli/register_report.ts"]) {
    const graph = await staticGraph(new URL(entry, import.meta.url));
    deepEqual(graph.filter((s) => s.startsWith("node:")), [], entry);
  }
});
