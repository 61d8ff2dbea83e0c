/**
 * Property tests of config loading, bounded by case count: whatever a config file holds (any text, any YAML
 * document, real keys with values of any shape, unknown keys), loading it ends in a configuration or in one
 * usage error, never another kind of failure, with warnings capped; and string options read from a file come
 * back as written.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import fc from "fast-check";
import { stringify } from "yaml";
import { checkProperty, runs } from "../_test_property.ts";
import { UsageError } from "../errors.ts";
import { loadConfig, MAX_KEY_WARNINGS } from "./load.ts";
import { OPTIONS, yamlPath } from "./schema.ts";

const FILE = "/fctl-property/config.yaml";

/** Loads `text` as the config file named by `--config`, with an empty environment. */
function loadText(text: string) {
  return loadConfig({
    flags: { config: FILE },
    env: {},
    readTextFile: (path) => path === FILE ? Promise.resolve(text) : Promise.reject(new Deno.errors.NotFound(path)),
  });
}

/** Loads `text` and checks the outcome: a configuration with capped warnings, or one usage error line. */
async function loadsOrRefuses(text: string): Promise<void> {
  try {
    const loaded = await loadText(text);
    ok(loaded.warnings.length <= MAX_KEY_WARNINGS + 1, `${loaded.warnings.length} warnings`);
    equal(loaded.file, FILE);
  } catch (err) {
    ok(err instanceof UsageError, `not a usage error: ${err}\n${text.slice(0, 400)}`);
    ok(err.message.length > 0 && !err.message.includes("\n"), `not one line: ${JSON.stringify(err.message)}`);
  }
}

/** The YAML path segments of every option (`admin`, `endpoint`, `task`, `project`, …) and a few near misses. */
const SEGMENTS = [
  ...new Set(OPTIONS.flatMap((option) => yamlPath(option))),
  "Admin",
  "endpont",
  "otel",
  "stow",
  "",
];

/** Values of any shape a YAML file can hold. */
const VALUE: fc.Arbitrary<unknown> = fc.oneof(
  fc.string(),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
  fc.stringMatching(/^\d{1,6}(ms|s|m|h)$/),
);

/** A document of nested sections whose keys are mostly real segments. */
const DOCUMENT: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: "small", withCrossShrink: true }, VALUE, tie("section")),
  section: fc.dictionary(fc.oneof(fc.constantFrom(...SEGMENTS), fc.string({ maxLength: 10 })), tie("node"), {
    maxKeys: 6,
  }),
})).section;

Deno.test("property: any text as the config file loads or is one usage error line", async () => {
  await checkProperty(
    "config: any text as the config file loads or is one usage error line",
    fc.asyncProperty(
      fc.oneof(
        fc.string({ maxLength: 200 }),
        fc.string({ unit: fc.constantFrom(..."ab:- \n\t{}[]'\"#&*!|>%@`,.1"), maxLength: 120 }),
      ),
      loadsOrRefuses,
    ),
    { numRuns: runs(2_000) },
  );
});

Deno.test("property: any YAML document of real and unknown keys loads or is one usage error line", async () => {
  await checkProperty(
    "config: any YAML document of real and unknown keys loads or is one usage error line",
    fc.asyncProperty(DOCUMENT, (doc) => loadsOrRefuses(stringify(doc))),
    { numRuns: runs(1_000) },
  );
});

/** String options without rules of their own (any text is a valid value). */
const FREE_TEXT_OPTIONS = ["project", "domain", "admin.clientId", "storage.container", "files.outputLocationPrefix"];

Deno.test("property: string options read from a file come back as written, from the file", async () => {
  const options = OPTIONS.filter((option) => FREE_TEXT_OPTIONS.includes(option.key));
  equal(options.length, FREE_TEXT_OPTIONS.length, "every listed option exists");
  await checkProperty(
    "config: string options read from a file come back as written, from the file",
    fc.asyncProperty(
      fc.tuple(...options.map(() => fc.string({ minLength: 1, maxLength: 30 }))),
      async (values) => {
        const doc: Record<string, unknown> = {};
        options.forEach((option, i) => {
          const path = yamlPath(option);
          let section = doc;
          for (const segment of path.slice(0, -1)) {
            section = (section[segment] ??= {}) as Record<string, unknown>;
          }
          section[path[path.length - 1]] = values[i];
        });
        // Written as YAML 1.1, the version fctl reads (as flytectl's Go YAML does), so `y` or `N` are quoted.
        const loaded = await loadText(stringify(doc, { version: "1.1" }));
        const config = loaded.config as unknown as Record<string, unknown>;
        deepEqual(options.map((option) => config[option.key]), values);
        deepEqual(
          options.map((option) => loaded.sources[option.key as keyof typeof loaded.sources]),
          options.map(() => "file"),
        );
      },
    ),
    { numRuns: runs(1_000) },
  );
});
