/**
 * The command files pass Deno exactly the arguments they were written with, whatever the paths hold (spaces,
 * quotes, `$`, `%`, a newline), and the user's arguments after them.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { cmdQuote, denoArgs, posixShim, SHIM_MARK, type ShimTarget, windowsShim } from "./install_shim.ts";
import { permissionFlags } from "../src/permissions.ts";

Deno.test({
  name: "the POSIX command file runs Deno with its arguments intact, then the user's",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const temp = await Deno.makeTempDir({ prefix: "fctl-shim-" });
    const dir = join(temp, "fctl shim 'it's' $HOME\n");
    await Deno.mkdir(dir);
    try {
      // A stand-in for Deno that prints each argument it gets, and whether the update check is off.
      const deno = join(dir, "de no");
      await Deno.writeTextFile(deno, '#!/bin/sh\necho "$DENO_NO_UPDATE_CHECK"\nfor a; do printf "%s\\0" "$a"; done\n', {
        mode: 0o755,
      });
      const clone = join(dir, 'clone $PATH `x` "q" 100%');
      const target: ShimTarget = {
        deno,
        config: join(clone, "deno.json"),
        main: join(clone, "main.ts"),
        permissions: permissionFlags(),
      };
      const shim = join(dir, "fctl");
      await Deno.writeTextFile(shim, posixShim(target, clone), { mode: 0o755 });
      const user = ["get", "task", "it's $HOME", ""];
      const out = await new Deno.Command(shim, { args: user, env: { PATH: "/usr/bin:/bin" }, clearEnv: true }).output();
      equal(new TextDecoder().decode(out.stderr), "");
      const stdout = new TextDecoder().decode(out.stdout);
      const newline = stdout.indexOf("\n");
      equal(stdout.slice(0, newline), "1", "DENO_NO_UPDATE_CHECK");
      deepEqual(stdout.slice(newline + 1).split("\0").slice(0, -1), [...denoArgs(target), ...user]);
      ok((await Deno.readTextFile(shim)).includes(SHIM_MARK));
    } finally {
      await Deno.remove(temp, { recursive: true });
    }
  },
});

Deno.test("the Windows command file quotes paths, doubles %, ends lines with CRLF and passes %* on", () => {
  const target: ShimTarget = {
    deno: "C:\\Users\\a b\\.deno\\lib\\fctl\\deno-2.9.6.exe",
    config: "C:\\src\\fctl 100%\\deno.json",
    main: "C:\\src\\fctl 100%\\main.ts",
    permissions: permissionFlags(),
  };
  const text = windowsShim(target, "C:\\src\\fctl 100%");
  ok(text.includes(`rem ${SHIM_MARK}`));
  ok(text.split("\r\n").every((line) => !line.includes("\n")), "CRLF only");
  const run = text.split("\r\n").find((line) => line.endsWith(" %*"));
  equal(
    run,
    `"C:\\Users\\a b\\.deno\\lib\\fctl\\deno-2.9.6.exe" run --quiet --no-prompt --config "C:\\src\\fctl 100%%\\deno.json" ${
      permissionFlags().join(" ")
    } "C:\\src\\fctl 100%%\\main.ts" %*`,
  );
  equal(cmdQuote("--allow-sys=osRelease"), "--allow-sys=osRelease");
  ok(text.endsWith("exit /b %ERRORLEVEL%\r\n"));
});
