import { deepEqual, equal, ok } from "node:assert/strict";
import fc from "fast-check";
import { fitWidths, renderTable } from "./table.ts";
import { displayWidth, truncateToWidth, wrapToWidth } from "./text_width.ts";

Deno.test("renderTable draws flytectl's layout with multi-line cells", () => {
  const rows = [{ a: "x", b: ["one", "two"] }, { a: "longer", b: ["3"] }];
  const text = renderTable(
    [{ header: "A", cell: (r: typeof rows[0]) => r.a }, { header: "B", cell: (r) => r.b }],
    rows,
  );
  equal(
    text,
    [
      " -------- ----- ",
      "| A      | B   |",
      " -------- ----- ",
      "| x      | one |",
      "|        | two |",
      " -------- ----- ",
      "| longer | 3   |",
      " -------- ----- ",
      "2 rows",
      "",
    ].join("\n"),
  );
});

Deno.test("wide characters are measured as two columns and cells are cut with ...", () => {
  equal(displayWidth("日本"), 4);
  equal(displayWidth("e\u0301"), 1);
  equal(truncateToWidth("abcdefghij", 8), "abcde...");
  const text = renderTable([{ header: "N", cell: (r: string) => r }], ["日本", "ab"]);
  equal(text.split("\n")[3], "| 日本 |");
  equal(text.split("\n")[5], "| ab   |");
});

Deno.test("fitWidths cuts the widest columns first and uses the whole budget", () => {
  deepEqual(fitWidths([3, 10, 40], 60), [3, 10, 40], "fits: unchanged");
  deepEqual(fitWidths([3, 10, 40], 30), [3, 10, 17]);
  deepEqual(fitWidths([3, 30, 40], 30), [3, 14, 13]);
  deepEqual(fitWidths([8, 8, 8], 3), [5, 5, 5], "never below the minimum");
  deepEqual(fitWidths([12, 17, 20], 40, [5, 3, 20]), [12, 8, 20], "header excess goes first, largest first");
  deepEqual(fitWidths([12, 17, 20], 30, [5, 3, 20]), [5, 5, 20]);
  deepEqual(fitWidths([12, 17, 20], 20, [5, 3, 20]), [5, 5, 10]);
});

Deno.test("property: fitted widths stay within the natural widths and the budget", () => {
  fc.assert(
    fc.property(
      fc.array(fc.nat(200), { minLength: 1, maxLength: 10 }),
      fc.nat(400),
      fc.nat(),
      (natural, budget, seed) => {
        const content = natural.map((w, i) => (w * (seed % (i + 7))) % (w + 1));
        const widths = fitWidths(natural, budget, content);
        const floor = natural.map((w) => Math.min(w, 5));
        const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
        widths.forEach((w, i) => ok(w <= natural[i] && w >= floor[i]));
        ok(sum(widths) <= Math.max(budget, sum(floor)));
        if (sum(natural) > budget && sum(floor) <= budget) equal(sum(widths), budget, "the whole budget is used");
      },
    ),
  );
});

Deno.test("a table fitted to a terminal is never wider than the terminal, wide characters included", () => {
  const rows = [{ a: "short", b: "日本語のとても長い説明文です".repeat(3), c: "x".repeat(70) }];
  const columns = [
    { header: "A", cell: (r: typeof rows[0]) => r.a },
    { header: "B", cell: (r: typeof rows[0]) => r.b },
    { header: "C", cell: (r: typeof rows[0]) => r.c },
  ];
  const text = renderTable(columns, rows, { maxTableWidth: 60 });
  const lines = text.trimEnd().split("\n").slice(0, -1);
  for (const line of lines) ok(displayWidth(line) <= 60, line);
  ok(lines.some((line) => displayWidth(line) === 60), "the width is used");
  ok(text.includes("| short |"), "narrow columns stay whole");
  ok(text.includes("..."));
});

Deno.test("the count after the table: 1 row, otherwise rows", () => {
  const columns = [{ header: "N", cell: (r: string) => r }];
  ok(renderTable(columns, ["a"]).endsWith("\n1 row\n"));
  ok(renderTable(columns, []).endsWith("\n0 rows\n"));
  ok(renderTable(columns, ["a", "b"]).endsWith("\n2 rows\n"));
});

Deno.test("columns marked keep are never cut: the others shrink first, whatever the width", () => {
  const row = { version: "v-2026.11.23-abcdef", name: "core.control_flow.merge_sort.split", info: "x".repeat(60) };
  const columns = [
    { header: "VERSION", cell: (r: typeof row) => r.version, keep: true },
    { header: "NAME", cell: (r: typeof row) => r.name, keep: true },
    { header: "INFO", cell: (r: typeof row) => r.info },
  ];
  for (const width of [40, 80, 120]) {
    const text = renderTable(columns, [row], { maxTableWidth: width });
    ok(text.includes(`| ${row.version} | ${row.name} |`), `${width}: ${text}`);
    const natural = displayWidth(renderTable(columns, [row]).split("\n")[0]);
    const widest = Math.max(...text.split("\n").map(displayWidth));
    // Fits when the kept columns leave room for the others at their minimum; else only the kept ones stick out.
    if (width >= 4 + row.version.length + row.name.length + 3 * 3 + 5) equal(widest, Math.min(width, natural));
  }
});

Deno.test("maxLineWidth cuts lines only when fitting to a terminal; unfitted tables keep every line whole", () => {
  const columns = [{ header: "IN", cell: (r: string[]) => r, maxLineWidth: 10 }];
  const rows = [["short", "a long description line"]];
  const fitted = renderTable(columns, rows, { maxTableWidth: 200 });
  ok(fitted.includes("| a long ... |"), fitted);
  ok(fitted.includes("| short      |"), fitted);
  const whole = renderTable(columns, rows);
  ok(whole.includes("| a long description line |"), whole);
});

Deno.test("wrapToWidth breaks between words, a long word after a / . _ - in its second half, and loses nothing", () => {
  deepEqual(wrapToWidth("short", 10), ["short"]);
  deepEqual(wrapToWidth("Error registering file due to a refusal", 16), [
    "Error",
    "registering file",
    "due to a refusal",
  ]);
  deepEqual(wrapToWidth("core/_pb_output/00_core.basic.hello_1.pb", 20), [
    "core/_pb_output/",
    "00_core.basic.hello_",
    "1.pb",
  ]);
  deepEqual(wrapToWidth("abcdefghij", 4), ["abcd", "efgh", "ij"], "no break character: where the line ends");
  deepEqual(wrapToWidth("日本語のテキスト", 5), ["日本", "語の", "テキ", "スト"], "wide characters count two");
  fc.assert(
    fc.property(fc.string({ maxLength: 80 }), fc.integer({ min: 1, max: 30 }), (raw, width) => {
      const text = raw.replace(/[\r\n\t]/g, "");
      const lines = wrapToWidth(text, width);
      for (const line of lines) ok(displayWidth(line) <= Math.max(width, 2), JSON.stringify([text, width, lines]));
      // Every character is kept: only the spaces the lines were broken at are gone.
      equal(lines.join("").replaceAll(" ", ""), text.replaceAll(" ", ""));
    }),
  );
});

Deno.test("fitted to a terminal, a header is never cut: it wraps between its words, its column as wide as its longest word", () => {
  const rows = [{ a: "v1", b: "true", c: "1.0", d: "x".repeat(60) }];
  const columns = [
    { header: "VERSION", cell: (r: typeof rows[0]) => r.a },
    { header: "DISCOVERABLE", cell: (r: typeof rows[0]) => r.b },
    { header: "DISCOVERY VERSION", cell: (r: typeof rows[0]) => r.c },
    { header: "INFO", cell: (r: typeof rows[0]) => r.d },
  ];
  // 46 columns: every column at its narrowest (the rules between them take 13).
  for (const width of [46, 60, 80]) {
    const text = renderTable(columns, rows, { maxTableWidth: width });
    const [, first, second] = text.split("\n");
    ok(first.startsWith("| VERSION | DISCOVERABLE | DISCOVERY |"), `${width}:\n${text}`);
    ok(second.startsWith("|         |              | VERSION   |"), `${width}:\n${text}`);
    for (const line of text.split("\n").slice(0, 4)) ok(!line.includes("..."), `${width}: a header was cut:\n${text}`);
    for (const line of text.trimEnd().split("\n").slice(0, -1)) ok(displayWidth(line) <= width, `${width}:\n${text}`);
  }
});

Deno.test("a column that wraps never cuts a cell: its lines are wrapped to the width left, every word kept", () => {
  const reason =
    "Error registering file due to rpc error: code = InvalidArgument desc = task with different structure " +
    "already exists: the spec differs in its container image, its resources and its interface";
  const rows = [{ name: "core/_pb_output/69_core.flyte_basics.lp.greet_1.pb", status: "Failed", info: reason }];
  const columns = [
    { header: "NAME", cell: (r: typeof rows[0]) => r.name, wrap: true },
    { header: "STATUS", cell: (r: typeof rows[0]) => r.status },
    { header: "ADDITIONAL INFO", cell: (r: typeof rows[0]) => r.info, wrap: true },
  ];
  const cellsOf = (text: string, column: number) =>
    text.split("\n").slice(3).filter((l) => l.startsWith("|")).map((l) => l.split("|")[column + 1].trim());
  for (const width of [60, 80, 120]) {
    const text = renderTable(columns, rows, { maxTableWidth: width });
    ok(!text.includes("..."), `${width}:\n${text}`);
    for (const line of text.trimEnd().split("\n").slice(0, -1)) ok(displayWidth(line) <= width, `${width}:\n${text}`);
    equal(cellsOf(text, 0).join(""), rows[0].name, `${width}: the name whole across its lines`);
    equal(cellsOf(text, 2).join(" "), reason, `${width}: the reason whole across its lines`);
  }
  // The widest column gives up space first: at 120 columns the name stays on one line.
  ok(renderTable(columns, rows, { maxTableWidth: 120 }).includes(`| ${rows[0].name} | Failed |`));
});

Deno.test("a kept column that wraps gives up at most half its width, and only when the table then fits", () => {
  const rows = [{ name: "n".repeat(40), status: "Success", info: "Successfully registered file" }];
  const columns = [
    { header: "NAME", cell: (r: typeof rows[0]) => r.name, keep: true, wrap: true },
    { header: "STATUS", cell: (r: typeof rows[0]) => r.status },
    { header: "ADDITIONAL INFO", cell: (r: typeof rows[0]) => r.info, wrap: true },
  ];
  const widthOf = (text: string) => text.split("\n")[0].split(" ").filter(Boolean).map((rule) => rule.length - 2);
  deepEqual(widthOf(renderTable(columns, rows, { maxTableWidth: 90 })), [40, 7, 28], "room for everything");
  deepEqual(widthOf(renderTable(columns, rows, { maxTableWidth: 60 })), [22, 7, 21], "every column gives up some");
  // At 30 columns not even half the name leaves the others room: it stays whole and the table sticks out.
  deepEqual(widthOf(renderTable(columns, rows, { maxTableWidth: 30 })), [40, 6, 10]);
});

Deno.test("columns with a drop rank are left out, lowest first, when the others would be cut; the count line names them", () => {
  const rows = [{ name: "core.basic.hello", type: "python-task", flag: "false", extra: "1.0" }];
  const columns = [
    { header: "NAME", cell: (r: typeof rows[0]) => r.name, keep: true },
    { header: "TYPE", cell: (r: typeof rows[0]) => r.type },
    { header: "DISCOVERABLE", cell: (r: typeof rows[0]) => r.flag, dropRank: 2 },
    { header: "DISCOVERY VERSION", cell: (r: typeof rows[0]) => r.extra, dropRank: 1 },
  ];
  const all = renderTable(columns, rows, { maxTableWidth: 80, leftOutHint: "--wide shows them" });
  ok(all.includes("| DISCOVERABLE | DISCOVERY VERSION |") && all.endsWith("\n1 row\n"), all);
  const some = renderTable(columns, rows, { maxTableWidth: 50, leftOutHint: "--wide shows them" });
  ok(some.includes("| NAME             | TYPE        | DISCOVERABLE |"), some);
  ok(some.endsWith("\n1 row (not shown: DISCOVERY VERSION; --wide shows them)\n"), some);
  const none = renderTable(columns, rows, { maxTableWidth: 30 });
  ok(none.endsWith("\n1 row (not shown: DISCOVERABLE, DISCOVERY VERSION)\n"), none);
  equal(renderTable(columns, rows), all, "piped: every column");
});

Deno.test("a cell's control characters are shown as escapes, whatever the admin stored in an entity", () => {
  const columns = [{ header: "NAME", cell: (row: string) => row }];
  const out = renderTable(columns, ["task\x1b[2J\x1b]8;;https://evil.example/\x07x\u009b\u202e", "plain"]);
  equal(out.includes("| task\\x1b[2J\\x1b]8;;https://evil.example/\\x07x\\x9b\\u202e |"), true, out);
  // deno-lint-ignore no-control-regex -- control characters are exactly what must not be there
  equal(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/.test(out), false, out);
});

Deno.test("a cell of a megabyte without a space (a description an admin answers) wraps in one pass, every character kept", () => {
  // Broken again from each line's start, a word this long took minutes; a table of 12,000-odd lines is what it is.
  const word = "ab/cd.ef_gh".repeat(100_000);
  const rows = [{ name: "p", description: word }];
  const text = renderTable(
    [{ header: "NAME", cell: (r: typeof rows[0]) => r.name }, {
      header: "DESCRIPTION",
      cell: (r) => r.description,
      wrap: true,
    }],
    rows,
    { maxTableWidth: 100 },
  );
  const lines = text.split("\n").slice(3, -3).map((line) => line.slice(line.indexOf("|", 1) + 2, -2).trimEnd());
  ok(lines.length > 10_000, String(lines.length));
  ok(lines.every((line) => displayWidth(line) <= 100), "every line fits");
  equal(lines.join(""), word);
  deepEqual(wrapToWidth("x".repeat(25), 10), ["x".repeat(10), "x".repeat(10), "x".repeat(5)]);
});
