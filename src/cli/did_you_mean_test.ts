import { equal } from "node:assert/strict";
import { didYouMean, typingDistance } from "./did_you_mean.ts";

Deno.test("typing distance: a swap of neighbours is one edit, case counts", () => {
  equal(typingDistance("regsiter", "register"), 1);
  equal(typingDistance("Project", "project"), 1);
  equal(typingDistance("", "abc"), 3);
  equal(typingDistance("a", "abcdefgh"), 8, "further apart in length than any suggestion: the longer length");
});

Deno.test("did you mean: the nearest names within three edits, all of them when tied, none for a wild guess", () => {
  equal(didYouMean("regster", ["get", "register", "config"]), " (did you mean register?)");
  equal(didYouMean("tasky", ["tasks", "task", "get"]), " (did you mean one of task, tasks?)");
  equal(didYouMean("--projct", ["--project", "--domain"]), " (did you mean --project?)");
  equal(didYouMean("zzz", ["get", "register"]), "");
  // One-letter names are never guessed; too little of a short word survives three edits.
  equal(didYouMean("x", ["y", "z"]), "");
  equal(didYouMean("--p", ["--o"]), "");
  equal(didYouMean("abc", ["xyz"]), "");
});
