import { deepEqual, equal } from "node:assert/strict";
import { isNewestFirst, pageRequest } from "./list_query.ts";

Deno.test('pageRequest: an empty sort key (--filter.sortBy "") is the default key, not a key the admin refuses', () => {
  const paging = { limit: 100, page: 1 };
  deepEqual(pageRequest({ sortBy: "" }, paging).sortBy, pageRequest({}, paging).sortBy);
  equal(pageRequest({ sortBy: "" }, paging, false, "name").sortBy.key, "name");
  equal(pageRequest({ sortBy: "version" }, paging).sortBy.key, "version");
  const query = { project: "p", domain: "d", sortBy: "", page: 1, limit: 100, filters: "" };
  equal(isNewestFirst(query), true);
});
