/** The run-time package closure on a real `node_modules` layout as `deno install` makes it (manual mode). */
import { deepEqual, throws } from "node:assert/strict";
import { runtimePackages } from "./runtime_packages.ts";

/** Lays out `packages` (store name → [package name, its dependencies' store names]) the way `deno install` does. */
async function layout(root: string, packages: Record<string, [string, string[]]>, topLevel: string[]) {
  const store = `${root}/node_modules/.deno`;
  const nameOf = (dir: string) => packages[dir][0];
  const link = async (target: string, path: string) => {
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.symlink(target, path);
  };
  for (const [dir, [name, deps]] of Object.entries(packages)) {
    const own = `${store}/${dir}/node_modules/${name}`;
    await Deno.mkdir(own, { recursive: true });
    await Deno.writeTextFile(`${own}/index.js`, `module.exports = ${JSON.stringify(name)};`);
    for (const dep of deps) {
      await link(`${store}/${dep}/node_modules/${nameOf(dep)}`, `${store}/${dir}/node_modules/${nameOf(dep)}`);
    }
    // The hoisted links `deno install` adds for every package.
    await link(`${store}/${dir}/node_modules/${name}`, `${store}/node_modules/${name}`);
  }
  for (const dir of topLevel) {
    await link(`${store}/${dir}/node_modules/${nameOf(dir)}`, `${root}/node_modules/${nameOf(dir)}`);
  }
  await link(`${store}/tool@1.0.0/node_modules/tool/index.js`, `${root}/node_modules/.bin/tool`);
  return store;
}

Deno.test("runtimePackages keeps the imported packages with everything they depend on, and excludes the rest with every link into it", async () => {
  const root = await Deno.makeTempDir({ prefix: "fctl-runtime-packages-" });
  try {
    const store = await layout(root, {
      "sdk@1.0.0": ["sdk", ["auth@2.0.0", "@types+node@20.0.0"]],
      "auth@2.0.0": ["auth", ["@scope+creds@3.0.0"]], // loaded by the SDK with require() only
      "@scope+creds@3.0.0": ["@scope/creds", []],
      "@types+node@20.0.0": ["@types/node", []], // declarations only
      "tool@1.0.0": ["tool", ["helper@1.0.0"]], // a test-only package
      "helper@1.0.0": ["helper", []],
      "unused@1.0.0": ["unused", []],
    }, ["sdk@1.0.0", "tool@1.0.0", "@types+node@20.0.0"]);
    const result = runtimePackages(root, [`${store}/sdk@1.0.0/node_modules/sdk/index.js`, `${root}/main.ts`]);
    deepEqual(result.kept, ["@scope+creds@3.0.0", "auth@2.0.0", "sdk@1.0.0"]);
    deepEqual(result.unused, ["@types+node@20.0.0", "helper@1.0.0", "tool@1.0.0", "unused@1.0.0"]);
    deepEqual(result.excludes, [
      "node_modules/.bin/tool",
      "node_modules/.deno/@types+node@20.0.0",
      "node_modules/.deno/helper@1.0.0",
      "node_modules/.deno/node_modules/@types/node",
      "node_modules/.deno/node_modules/helper",
      "node_modules/.deno/node_modules/tool",
      "node_modules/.deno/node_modules/unused",
      "node_modules/.deno/sdk@1.0.0/node_modules/@types/node",
      "node_modules/.deno/tool@1.0.0",
      "node_modules/.deno/unused@1.0.0",
      "node_modules/@types/node",
      "node_modules/tool",
    ]);
    // A module reached through the top-level link counts as its package too.
    deepEqual(runtimePackages(root, [`${root}/node_modules/tool/index.js`]).kept, ["helper@1.0.0", "tool@1.0.0"]);
    throws(
      () => runtimePackages(root, [`${root}/main.ts`]),
      /no module of the graph is in .*node_modules \(run deno install\)/,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
