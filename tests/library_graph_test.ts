/**
 * The library never loads the command line: `mod.ts` and `src/lib/` reach the configuration, the clients and
 * the process adapter through `src/app/`, never `src/cli/` (its context, commands, parser or help), by static or
 * dynamic import.
 */
import { deepEqual, ok as assert } from "node:assert/strict";
import { moduleGraph } from "../scripts/module_graph.ts";

Deno.test("mod.ts and src/lib/ load no module of src/cli/, even on demand", async () => {
  for (const entry of ["mod.ts", "src/lib/connect.ts", "src/lib/admin_client.ts"]) {
    const all = [...(await moduleGraph(new URL(`../${entry}`, import.meta.url))).reachable({ dynamic: true })];
    assert(all.some((s) => s.endsWith("/src/admin/client.ts")), `the walk follows ${entry}'s imports`);
    deepEqual(all.filter((s) => s.includes("/src/cli/")), [], entry);
  }
  const connect = [...(await moduleGraph(new URL("../src/lib/connect.ts", import.meta.url))).reachable()];
  assert(connect.some((s) => s.endsWith("/src/app/app.ts")), "connect is built on the app layer");
});
