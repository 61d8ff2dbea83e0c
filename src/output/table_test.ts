import { deepEqual, equal, ok } from "node:assert/strict";
import fc from "fast-check";
import { fitWidths, renderTable } from "./table.ts";
import { displayWidth, truncateToWidth } from "./text_width.ts";

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
