import { deepEqual, throws } from "node:assert/strict";
import { UsageError } from "../errors.ts";
import { resolveReference } from "./stow_reference.ts";

const GS = { backend: "stow google", schemes: ["gs"], container: "b", multiContainer: false };
const ABFS = {
  backend: "stow azure",
  schemes: ["abfs", "abfss"],
  container: "c",
  multiContainer: true,
  account: "acct",
};

Deno.test("resolveReference: the container and key a backend may use", () => {
  deepEqual(resolveReference("gs://b/a/b.tgz", GS), { container: "b", key: "a/b.tgz" });
  deepEqual(resolveReference("GS://b//a/./b.tgz", GS), { container: "b", key: "a/b.tgz" });
  deepEqual(resolveReference("abfss://other/k", ABFS), { container: "other", key: "k" });
  deepEqual(resolveReference("abfs://c@ACCT.dfs.core.windows.net/k", ABFS), { container: "c", key: "k" });
});

Deno.test("resolveReference refuses what the backend cannot use, naming it", () => {
  throws(
    () => resolveReference("gs://b/a/../x", GS),
    new UsageError(`invalid storage location "gs://b/a/../x": '..' is not allowed`),
  );
  throws(
    () => resolveReference("gs:///k", GS),
    new UsageError(`invalid storage location "gs:///k": it names no container`),
  );
  throws(
    () => resolveReference("b/k", GS),
    new UsageError(`invalid storage location "b/k": expected gs://<container>/<path>`),
  );
  throws(
    () => resolveReference("file://b/k", GS),
    new UsageError(`stow google storage cannot serve "file://b/k": expected a gs:// location`),
  );
  throws(() => resolveReference("gs://b", GS), new UsageError(`storage location "gs://b" names no object`));
});
