import { equal } from "node:assert/strict";
import { renderTable } from "./table.ts";
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
