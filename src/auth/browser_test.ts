/** Which browser opener fctl runs on each platform, and when it runs none. */
import { deepEqual, equal } from "node:assert/strict";
import { browserCommand, type Platform } from "./browser.ts";

const URL_TEXT = "https://auth.example.com/oauth2/authorize?client_id=flytectl&state=abc";

function platform(os: string, env: Record<string, string>, files: string[]): Platform {
  return { os, env, isFile: (path) => files.includes(path) };
}

Deno.test("browser: xdg-open on Linux with a display and the program on PATH, else nothing", () => {
  const found = ["/usr/local/bin/xdg-open"];
  deepEqual(
    browserCommand(URL_TEXT, platform("linux", { PATH: "/usr/bin:/usr/local/bin", DISPLAY: ":0" }, found)),
    ["xdg-open", URL_TEXT],
  );
  deepEqual(
    browserCommand(URL_TEXT, platform("freebsd", { PATH: "/usr/local/bin", WAYLAND_DISPLAY: "wayland-0" }, found)),
    ["xdg-open", URL_TEXT],
  );
  equal(browserCommand(URL_TEXT, platform("linux", { PATH: "/usr/local/bin" }, found)), undefined, "no display");
  equal(browserCommand(URL_TEXT, platform("linux", { PATH: "/usr/bin", DISPLAY: ":0" }, found)), undefined, "none");
});

Deno.test("browser: open on macOS when installed; rundll32 on Windows, the URL one argument (no shell)", () => {
  deepEqual(browserCommand(URL_TEXT, platform("darwin", { PATH: "/usr/bin" }, ["/usr/bin/open"])), ["open", URL_TEXT]);
  equal(browserCommand(URL_TEXT, platform("darwin", { PATH: "/opt/bin" }, ["/usr/bin/open"])), undefined);
  deepEqual(browserCommand(URL_TEXT, platform("windows", {}, [])), [
    "rundll32",
    "url.dll,FileProtocolHandler",
    URL_TEXT,
  ]);
});
