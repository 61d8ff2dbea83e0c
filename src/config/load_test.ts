import { deepEqual, equal, rejects } from "node:assert/strict";
import { loadConfig } from "./load.ts";

function files(map: Record<string, string>) {
  return (path: string) => {
    if (path in map) return Promise.resolve(map[path]);
    return Promise.reject(new Deno.errors.NotFound(path));
  };
}

Deno.test("precedence is defaults < file < environment < flags", async () => {
  const readTextFile = files({
    "/home/u/.flyte/config.yaml":
      "admin:\n  endpoint: dns:///from-file:443\n  insecure: true\ntask:\n  project: p-file\n  domain: d-file\n",
  });
  const env = { HOME: "/home/u", FCTL_TASK_UNUSED: "x", FCTL_DOMAIN: "d-env", FCTL_OUTPUT: "json" };
  const { config, sources, file } = await loadConfig({ flags: { output: "yaml" }, env, readTextFile });
  equal(file, "/home/u/.flyte/config.yaml");
  const keys = ["config", "project", "domain", "output", "admin.endpoint", "admin.insecure"] as const;
  const pick = <T>(record: Record<string, T>) => Object.fromEntries(keys.map((k) => [k, record[k]]));
  deepEqual(
    pick(config),
    {
      config: "",
      project: "p-file",
      domain: "d-env",
      output: "YAML",
      "admin.endpoint": "dns:///from-file:443",
      "admin.insecure": true,
    },
  );
  deepEqual(pick(sources), {
    config: "default",
    project: "file",
    domain: "env",
    output: "flag",
    "admin.endpoint": "file",
    "admin.insecure": "file",
  });
});

Deno.test("config file: -c, else FLYTECTL_CONFIG, else ~/.flyte/config.yaml; only the default may be missing", async () => {
  const readTextFile = files({ "/a.yaml": "task: {project: a}", "/b.yaml": "task: {project: b}" });
  const base = { HOME: "/home/u" };
  equal((await loadConfig({ flags: {}, env: base, readTextFile })).file, undefined);
  equal(
    (await loadConfig({ flags: {}, env: { ...base, FLYTECTL_CONFIG: "/b.yaml" }, readTextFile })).config.project,
    "b",
  );
  const both = await loadConfig({
    flags: { config: "/a.yaml" },
    env: { ...base, FLYTECTL_CONFIG: "/b.yaml" },
    readTextFile,
  });
  equal(both.config.project, "a");
  await rejects(
    loadConfig({ flags: { config: "/missing.yaml" }, env: base, readTextFile }),
    /cannot read config file "\/missing.yaml": no such file/,
  );
});

Deno.test("bad values name where they came from and what is valid", async () => {
  const readTextFile = files({ "/c.yaml": "admin:\n  insecure: maybe\n", "/bad.yaml": "admin: [" });
  await rejects(
    loadConfig({ flags: { config: "/c.yaml" }, env: {}, readTextFile }),
    /invalid value "maybe" for admin.insecure in "\/c.yaml": expected true or false/,
  );
  await rejects(
    loadConfig({ flags: { config: "/bad.yaml" }, env: {}, readTextFile }),
    /config file "\/bad.yaml" is not valid YAML/,
  );
  await rejects(
    loadConfig({ flags: {}, env: { FCTL_OUTPUT: "xml" }, readTextFile }),
    /invalid value "xml" for environment variable FCTL_OUTPUT: expected one of TABLE, JSON, YAML, DOT, DOTURL/,
  );
});
