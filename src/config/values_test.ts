import { deepEqual, equal, throws } from "node:assert/strict";
import { parseOptionValue } from "./values.ts";
import { type OptionKey, optionSpec } from "./schema.ts";

const parse = (key: OptionKey, raw: unknown) => parseOptionValue(optionSpec(key), raw, `--${key}`);

Deno.test("values: every option type reads flags, env text and YAML nodes", () => {
  const cases: [OptionKey, unknown, unknown][] = [
    ["admin.insecure", "TRUE", true],
    ["admin.insecure", "0", false],
    ["admin.insecure", false, false],
    ["admin.maxRetries", "7", 7],
    ["admin.maxRetries", 2, 2],
    ["logger.level", "5", 5],
    ["logger.level", 0, 0],
    ["output", "json", "JSON"],
    ["output", "DotUrl", "DOTURL"],
    ["admin.authType", "pkce", "Pkce"],
    ["admin.authType", "clientsecret", "ClientSecret"],
    ["logger.formatter.type", "GCP", "gcp"],
    ["admin.perRetryTimeout", "1m30s", 90_000],
    ["admin.maxBackoffDelay", "250ms", 250],
    ["admin.scopes", "openid, offline", ["openid", "offline"]],
    ["admin.scopes", ["all", "a,b"], ["all", "a", "b"]],
    ["admin.command", ["gcloud", "auth", "print-access-token"], ["gcloud", "auth", "print-access-token"]],
    ["storage.stow.config", "region=us-east-1,bucket=b", { region: "us-east-1", bucket: "b" }],
    ["storage.stow.config", ["a=1", "b=x=y"], { a: "1", b: "x=y" }],
    ["storage.stow.config", { json_key: "k", port: 9000 }, { json_key: "k", port: "9000" }],
    ["admin.endpoint", 8089, "8089"],
    // Go's strconv.ParseBool and config decoder: t and f, and numbers; a bare duration is nanoseconds.
    ["admin.insecure", "t", true],
    ["admin.insecure", "F", false],
    ["admin.insecure", 0, false],
    ["admin.insecure", 2, true],
    ["admin.perRetryTimeout", 15_000_000_000, 15_000],
    ["admin.perRetryTimeout", 0, 0],
    // logrus' trace level, which flytectl takes.
    ["logger.level", 6, 6],
  ];
  for (const [key, raw, want] of cases) deepEqual(parse(key, raw), want, `${key} ${JSON.stringify(raw)}`);
});

Deno.test("values: bad values name the value, where it came from and what is valid", () => {
  const cases: [OptionKey, unknown, RegExp][] = [
    ["admin.insecure", "yes please", /^invalid value "yes please" for --admin.insecure: expected true or false$/],
    ["logger.level", "7", /^invalid value "7" for --logger.level: expected a whole number from 0 to 6$/],
    ["logger.level", "debug", /expected a whole number from 0 to 6/],
    ["admin.maxRetries", "0", /^invalid value "0" for --admin.maxRetries: expected a whole number of at least 1$/],
    ["output", "xml", /expected one of TABLE, JSON, YAML, DOT, DOTURL, SVG \(case-insensitive\)$/],
    ["admin.authType", "Basic", /expected one of ClientSecret, Pkce, ExternalCommand, DeviceFlow/],
    [
      "admin.perRetryTimeout",
      "15",
      /^invalid value "15" for --admin.perRetryTimeout: expected a duration such as "15s"/,
    ],
    ["admin.perRetryTimeout", -15, /expected a duration/],
    ["admin.insecure", "yes", /expected true or false/],
    ["admin.perRetryTimeout", "-1s", /expected a duration/],
    [
      "admin.perRetryTimeout",
      "597h",
      /^invalid value "597h" for --admin.perRetryTimeout: expected a duration from 0s to 596h31m23.647s$/,
    ],
    ["admin.maxBackoffDelay", "9".repeat(400) + "h", /for --admin.maxBackoffDelay: expected a duration such as/],
    ["admin.perRetryTimeout", "2562048h", /expected a duration such as/],
    ["admin.scopes", { a: 1 }, /^invalid value a mapping for --admin.scopes: expected a list of text values$/],
    ["storage.stow.config", "novalue", /expected key=value pairs/],
    ["admin.endpoint", ["a"], /^invalid value a list for --admin.endpoint: expected a string$/],
  ];
  for (const [key, raw, want] of cases) {
    throws(() => parse(key, raw), (err: Error) => want.test(err.message), `${key} ${JSON.stringify(raw)}`);
  }
});

Deno.test("values: a bad secret is reported without its value", () => {
  throws(
    () => parse("storage.connection.secret-key", ["hunter22"]),
    (err: Error) => {
      equal(err.message.includes("hunter22"), false);
      equal(err.message, 'invalid value "[redacted]" for --storage.connection.secret-key: expected a string');
      return true;
    },
  );
});
