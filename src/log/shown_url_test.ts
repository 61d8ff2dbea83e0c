import { equal } from "node:assert/strict";
import { redactUrl, shownUrl } from "./shown_url.ts";

Deno.test("redactUrl: origin and path only", () => {
  equal(redactUrl("https://h.example:8443/a/b.tgz?sig=1#f"), "https://h.example:8443/a/b.tgz");
  equal(redactUrl(new URL("http://h/x?y")), "http://h/x");
});

Deno.test("shownUrl: no query, fragment or user information; a value without any is kept as written", () => {
  equal(shownUrl("https://user:pw@h.example/oauth2/token?secret=1#f"), "https://h.example/oauth2/token");
  equal(shownUrl("https://user@h.example/a"), "https://h.example/a");
  equal(shownUrl("https://h.example/a"), "https://h.example/a");
  equal(shownUrl("not a url?secret=1"), "not a url");
});
