import { deepStrictEqual as assertEquals, equal, match } from "node:assert/strict";
import { createLogger, type LoggerOptions, MAX_LOG_VALUE } from "./logger.ts";
import { Redactor, urlPasswords } from "./redact.ts";

const AT = new Date("2024-05-06T07:08:09.123Z");

function capture(options: Partial<LoggerOptions> = {}) {
  let out = "";
  const redactor = options.redactor ?? new Redactor();
  const logger = createLogger({
    sink: { write: (text) => void (out += text) },
    level: 3,
    formatter: "json",
    redactor,
    now: () => AT,
    ...options,
  });
  return { logger, out: () => out };
}

Deno.test("json records: logrus shape with fields under json and the time as ts", () => {
  const { logger, out } = capture({ level: 5 });
  logger.warn("unknown key", { key: "admin.endpont" });
  logger.debug("call", { rpc: "ListTasks", attempt: 2 });
  equal(
    out(),
    '{"json":{"key":"admin.endpont"},"level":"warning","msg":"unknown key","ts":"2024-05-06T07:08:09Z"}\n' +
      '{"json":{"attempt":2,"rpc":"ListTasks"},"level":"debug","msg":"call","ts":"2024-05-06T07:08:09Z"}\n',
  );
});

Deno.test("text records: logrus text shape, quoting what is not a plain word", () => {
  const { logger, out } = capture({ formatter: "text", level: 4 });
  logger.info("connected to admin", { endpoint: "https://h:443", insecure: false });
  equal(
    out(),
    'time="2024-05-06T07:08:09Z" level=info msg="connected to admin" endpoint="https://h:443" insecure=false\n',
  );
});

Deno.test("gcp records: Cloud Logging severity, message, timestamp and data", () => {
  const { logger, out } = capture({ formatter: "gcp" });
  logger.error("failed", { rpc: "GetTask" });
  logger.warn("plain");
  equal(
    out(),
    '{"data":{"rpc":"GetTask"},"message":"failed","severity":"ERROR","timestamp":"2024-05-06T07:08:09Z"}\n' +
      '{"message":"plain","severity":"WARNING","timestamp":"2024-05-06T07:08:09Z"}\n',
  );
});

Deno.test("levels filter records; mute silences everything", () => {
  for (const [level, expected] of [[0, 0], [2, 1], [3, 2], [4, 3], [5, 4]] as const) {
    const { logger, out } = capture({ level });
    logger.error("e");
    logger.warn("w");
    logger.info("i");
    logger.debug("d");
    equal(out().split("\n").filter(Boolean).length, expected, `level ${level}`);
  }
  const muted = capture({ level: 5, mute: true });
  muted.logger.error("e");
  equal(muted.out(), "");
});

Deno.test("configuration warnings are written at every level, as warnings; only mute silences them", () => {
  for (const level of [0, 1, 2, 3, 5]) {
    const { logger, out } = capture({ level, formatter: "text", showSource: true });
    logger.configWarning('unknown key "admin.cacertFilePath"');
    match(
      out(),
      /^time="[^"]+" level=warning msg="unknown key \\"admin\.cacertFilePath\\"" src="logger_test\.ts:\d+"\n$/,
    );
  }
  const muted = capture({ level: 5, mute: true });
  muted.logger.configWarning("w");
  equal(muted.out(), "");
});

Deno.test("show-source names the calling file and line; multi-line messages stay one record", () => {
  const { logger, out } = capture({ showSource: true });
  logger.warn("first\nsecond");
  match(out(), /^\{"json":\{"src":"logger_test\.ts:\d+"\},"level":"warning","msg":"first\\nsecond"/);
  equal(out().split("\n").length, 2);
});

Deno.test("secrets are redacted from messages, fields and nested values", () => {
  const redactor = new Redactor();
  redactor.add("s3cr3t-value\n");
  redactor.add("ab");
  const { logger, out } = capture({ redactor, formatter: "text" });
  logger.warn("key s3cr3t-value used", { nested: { list: ["x s3cr3t-value"] }, short: "ab" });
  equal(
    out(),
    'time="2024-05-06T07:08:09Z" level=warning msg="key [redacted] used" nested="{\\"list\\":[\\"x [redacted]\\"]}" short=ab\n',
  );
});

Deno.test("urlPasswords: the password of every URL's user information, as written and decoded", () => {
  assertEquals(urlPasswords("http://user:p%40ss@host:80 and https://a:b2c3@h/x"), ["p%40ss", "p@ss", "b2c3", "b2c3"]);
  assertEquals(urlPasswords("http://user@host, dns:///host:80, host:80"), []);
  assertEquals(urlPasswords("http://u:bad%zz@h"), ["bad%zz"]);
  // A scheme in capitals or mixed case is a scheme all the same.
  assertEquals(urlPasswords("HTTPS://user:Up1@host and S3+Http://u:mixed@h"), ["Up1", "Up1", "mixed", "mixed"]);
});

Deno.test("a huge message or field is cut, saying how much was left out; a secret across the cut is hidden first", () => {
  const redactor = new Redactor();
  const secret = "s3cr3t-".repeat(200);
  redactor.add(secret);
  for (const formatter of ["json", "text", "gcp"] as const) {
    const { logger, out } = capture({ redactor, formatter });
    const huge = "m".repeat(10 * 1024 * 1024);
    logger.warn(`${"a".repeat(MAX_LOG_VALUE - 10)}${secret}${huge}`, { body: huge, nested: { list: [huge] } });
    const line = out();
    equal(line.split("\n").length, 2, formatter);
    equal(line.includes("s3cr3t"), false, formatter);
    equal(line.length < 4 * MAX_LOG_VALUE + 400, true, `${formatter}: ${line.length}`);
    match(line, /a{1990}\[redacted\]… \(10485760 more characters\)/, formatter);
    match(line, new RegExp(`m{${MAX_LOG_VALUE}}… \\(${huge.length - MAX_LOG_VALUE} more characters\\)`), formatter);
  }
});

Deno.test("no record holds a character a terminal acts on: C0 controls by JSON's escapes, DEL, C1 and bidi overrides too", () => {
  for (const formatter of ["json", "text", "gcp"] as const) {
    const { logger, out } = capture({ formatter });
    logger.warn("\x1b[2J\x1b]8;;https://evil.example/\x07link\u009b31m\u202eevil\x7f", { why: "\x1b[31m\u009b" });
    // deno-lint-ignore no-control-regex -- control characters are exactly what must not be there
    equal(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/.test(out()), false, `${formatter}: ${out()}`);
    match(out(), /\\u001b\[2J\\u001b\]8;;https:\/\/evil\.example\/\\u0007link\\u009b31m\\u202eevil\\u007f/);
  }
  const { logger, out } = capture();
  logger.warn("a\u009bb");
  equal(JSON.parse(out()).msg, "a\u009bb", "the JSON value is the message");
});
