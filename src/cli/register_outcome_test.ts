import { deepEqual, throws } from "node:assert/strict";
import { reportOutcome } from "./register_outcome.ts";
import { releaseAnnouncement } from "./commands/register_examples.ts";
import { printNote } from "../output/print.ts";

Deno.test("the failed lines show a package member's name and the admin's reason escaped, never driving the terminal", () => {
  const lines: string[] = [];
  const io = { stderr: { write: (text: string) => void lines.push(text) } };
  throws(
    () =>
      reportOutcome(io, { interrupted: false, failed: 1 }, "1 file failed to register", [
        { name: "core/x\x1b]0;pwned\x07_1.pb", reason: "denied \x1b[2J\nagain" },
      ]),
    /1 file failed to register/,
  );
  deepEqual(lines, ["failed: core/x\\x1b]0;pwned\\x07_1.pb: denied \\x1b[2J again\n"]);
});

Deno.test("the release a terminal is told of shows GitHub's tag escaped", () => {
  const lines: string[] = [];
  const io = { stderr: { write: (text: string) => void lines.push(text) } };
  printNote(io, releaseAnnouncement("v1.2.3", ["a.tgz"]));
  printNote(io, releaseAnnouncement("v1\x1b[31m", ["a.tgz", "b.tgz"]));
  deepEqual(lines, [
    "Registering flytesnacks release v1.2.3 (1 archive)\n",
    "Registering flytesnacks release v1\\x1b[31m (2 archives)\n",
  ]);
});
