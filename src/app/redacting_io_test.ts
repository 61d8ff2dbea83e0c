import { deepEqual, equal, ok } from "node:assert/strict";
import { parse } from "yaml";
import { Redactor } from "../log/redact.ts";
import type { Io, TextSink } from "../output/io.ts";
import { render, renderRows } from "../output/render.ts";
import { redactingIo } from "./redacting_io.ts";

/** An Io that records stdout, redacting `secrets` as a run's does. */
function recording(secrets: string[], terminal = false): { io: Io; out: () => string } {
  const redactor = new Redactor();
  for (const secret of secrets) redactor.add(secret);
  let out = "";
  const io = redactingIo({
    stdout: { write: (text) => void (out += text) },
    stderr: { write: () => {} },
    stdoutIsTerminal: terminal,
    stderrIsTerminal: false,
    stdinIsTerminal: false,
    columns: 40,
    env: { NO_COLOR: "1" },
    readTextFile: () => Promise.reject(new Error("no files")),
  }, redactor);
  return { io, out: () => out };
}

interface Row {
  key: string;
  value: string;
}

const COLUMNS = [
  { header: "KEY", cell: (row: Row) => row.key },
  { header: "VALUE", cell: (row: Row) => row.value },
];

/** The width of each line of a table (its rules and rows), which alignment makes all equal. */
function lineWidths(table: string): Set<number> {
  return new Set(table.split("\n").filter((line) => /^[ |]/.test(line)).map((line) => line.length));
}

Deno.test("a table through a redacting Io is laid out as shown: aligned, the secret's length nowhere", () => {
  for (const secret of ["abcd", "a-much-longer-secret-value-than-the-marker"]) {
    const { io, out } = recording([secret]);
    renderRows(io, COLUMNS, [{ key: "secret-key", value: secret }, { key: "note", value: `said ${secret}!` }]);
    ok(!out().includes(secret));
    equal(lineWidths(out()).size, 1, out());
    // The same table whatever the secret's length: nothing tells it.
    const other = recording(["wxyz"]);
    renderRows(other.io, COLUMNS, [{ key: "secret-key", value: "wxyz" }, { key: "note", value: "said wxyz!" }]);
    equal(out(), other.out());
  }
});

Deno.test("a table fitted to a terminal never cuts a secret into a part the redaction misses", () => {
  const secret = "0123456789abcdefghijklmnopqrstuvwxyz";
  const { io, out } = recording([secret], true);
  renderRows(io, COLUMNS, [{ key: "token", value: secret }]);
  ok(!out().includes("0123456"), out());
  equal(lineWidths(out()).size, 1, out());
});

Deno.test("-o json and -o yaml hide a secret inside the document: valid, whatever the secret", async () => {
  // A secret that is also a number, a literal, a key, or holds characters JSON and YAML escape.
  const secrets = ["12345", "true", "key-secret", 'q"uo\\te\u0001'];
  const doc = {
    count: 123456,
    flag: true,
    "key-secret": "value",
    "[redacted]": "a key that was never secret",
    text: 'the secret q"uo\\te\u0001 here',
    list: ["key-secret", 12345],
  };
  for (const format of ["JSON", "YAML"]) {
    const { io, out } = recording(secrets);
    await render(io, format, { columns: [], toJson: () => doc, value: { one: doc } });
    const read = format === "JSON" ? JSON.parse(out()) : parse(out());
    deepEqual(read, {
      count: "[redacted]6",
      flag: "[redacted]",
      "[redacted] 2": "value",
      "[redacted]": "a key that was never secret",
      text: "the secret [redacted] here",
      list: ["[redacted]", "[redacted]"],
    }, out());
  }
});

Deno.test("a redacting Io's sinks say how text is shown only once a secret is known: no pass over text before", () => {
  const redactor = new Redactor();
  const io = redactingIo({
    stdout: { write: () => {} },
    stderr: { write: () => {} },
    stdoutIsTerminal: false,
    stderrIsTerminal: false,
    stdinIsTerminal: false,
    columns: 40,
    env: {},
    readTextFile: () => Promise.reject(new Error("no files")),
  }, redactor);
  // Read afresh each time: the property is a getter that follows the redactor.
  const shown = (sink: TextSink) => sink.shown;
  ok(shown(io.stdout) === undefined && shown(io.stderr) === undefined);
  // A secret learned during the run (a token) is hidden from what is laid out after it.
  redactor.add("s3cr3t-token");
  equal(shown(io.stdout)?.("a s3cr3t-token b"), "a [redacted] b");
  equal(shown(io.stderr)?.("s3cr3t-token"), "[redacted]");
});
