import { deepEqual, equal } from "node:assert/strict";
import { loadConfig } from "../config/load.ts";
import { connectHttp } from "./connect_http.ts";
import { startProxy } from "../http/_test_proxy.ts";

Deno.test("connectHttp: admin.httpProxyURL carries every call, over the proxy variables and NO_PROXY", async () => {
  const configured = startProxy("configured");
  const fromEnv = startProxy("env");
  const env = { HTTP_PROXY: fromEnv.url, HTTPS_PROXY: fromEnv.url, NO_PROXY: "*" };
  const loaded = await loadConfig({
    flags: { "admin.httpProxyURL": configured.url },
    env,
    readTextFile: () => Promise.reject(Object.assign(new Error("absent"), { name: "NotFound" })),
  });
  const http = await connectHttp(loaded, { env, io: { readTextFile: () => Promise.reject(new Error("unused")) } });
  try {
    const response = await http.fetch("http://releases.invalid/v1/flytesnacks-core.tgz");
    equal(await response.text(), "configured http://releases.invalid/v1/flytesnacks-core.tgz");
    deepEqual(configured.seen, ["http://releases.invalid/v1/flytesnacks-core.tgz"]);
    deepEqual(fromEnv.seen, []);
  } finally {
    http.close();
    await configured.close();
    await fromEnv.close();
  }
});
