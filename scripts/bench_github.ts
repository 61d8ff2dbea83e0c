/**
 * GitHub's releases, as `register examples` meets them, for the benchmarks: `/releases/latest` of any repository
 * names a release whose assets are the given fixture archives; an asset's download answers with a redirect to its
 * file (as `github.com` redirects to the host it serves files from), both behind a network round trip
 * (scripts/bench_rtt_relay.ts). Every `/releases/latest` names a new tag, so that each run of `register examples`
 * registers new versions, as a new release does, and never meets ALREADY_EXISTS.
 *
 *   deno run --allow-net --allow-read scripts/bench_github.ts --rtt 50 --assets flytesnacks-core.tgz,valid-register.tgz [--stdin]
 *
 * prints the API's URL (for `GITHUB_API_URL`) and serves until SIGTERM, or with `--stdin` until its stdin ends.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { startRttRelay } from "./bench_rtt_relay.ts";

const FIXTURES = new URL("../../shared/fixtures/flytectl/", import.meta.url);

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { rtt: { type: "string", default: "0" }, assets: { type: "string" }, stdin: { type: "boolean" } },
  });
  const rttMs = Number(values.rtt);
  const fixtures = (values.assets ?? "").split(",").filter((name) => name !== "");
  if (!Number.isFinite(rttMs) || rttMs < 0 || fixtures.length === 0) {
    console.error("usage: bench_github.ts --rtt MS --assets FIXTURE[,FIXTURE…] [--stdin]");
    Deno.exit(2);
  }
  // Asset i is fixture i under a name of its own: a release's archives have distinct names.
  const assets = await Promise.all(fixtures.map(async (fixture, i) => {
    try {
      return { name: `${i}-${fixture}`, body: await Deno.readFile(new URL(fixture, FIXTURES)) };
    } catch (err) {
      console.error(`cannot read fixture "${fixture}" of ../shared/fixtures/flytectl: ${(err as Error).message}`);
      Deno.exit(2);
    }
  }));
  let releases = 0;
  let origin = "";
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const path = new URL(request.url).pathname;
    if (path.endsWith("/releases/latest")) {
      return Response.json({
        tag_name: `b${++releases}`,
        assets: assets.map(({ name, body }) => ({
          name,
          size: body.length,
          browser_download_url: `${origin}/download/${name}`,
        })),
      });
    }
    const asset = assets.find(({ name }) => path === `/download/${name}` || path === `/files/${name}`);
    if (asset === undefined) return Response.json({ message: "Not Found" }, { status: 404 });
    if (path.startsWith("/download/")) {
      return new Response(null, { status: 302, headers: { location: `${origin}/files/${asset.name}` } });
    }
    return new Response(asset.body, { headers: { "content-type": "application/octet-stream" } });
  });
  const relay = rttMs > 0 ? startRttRelay(server.addr.port, rttMs) : undefined;
  origin = `http://127.0.0.1:${relay?.port ?? server.addr.port}`;
  const stop = () => {
    relay?.close();
    void server.shutdown().then(() => Deno.exit(0));
  };
  Deno.addSignalListener("SIGTERM", stop);
  Deno.addSignalListener("SIGINT", stop);
  console.log(origin);
  if (values.stdin) {
    for await (const _ of Deno.stdin.readable) { /* nothing to read, only the end matters */ }
    stop();
  }
}
