/**
 * Bad input at the CLI level, one table: each row is a command line (and the files it names) that must fail
 * with its exit code and exactly one stderr line naming the bad value, with no stack trace, nothing on
 * stdout, and no `fctl-register-*` temp dir left behind.
 */
import { equal, match, ok as assert } from "node:assert/strict";
import { fixture, runFctl } from "./helpers.ts";

interface Row {
  /** The command line; `$DIR` is a scratch directory with the files below. */
  args: string[];
  code: number;
  /** The one stderr line. */
  line: RegExp;
}

const SCOPE = ["-p", "p", "-d", "d"];
const GET = ["get", "task", ...SCOPE, "--admin.endpoint", "http://127.0.0.1:1"];
const REGISTER = [
  "register",
  "files",
  ...SCOPE,
  "--admin.endpoint",
  "http://127.0.0.1:1",
  "--version",
  "v1",
  "--archive",
];
/** The CA file is only read for TLS. */
const TLS_GET = ["get", "task", ...SCOPE, "--admin.endpoint", "https://127.0.0.1:1"];

const ROWS: Row[] = [
  // Outputs
  {
    args: [...GET, "-o", "dot"],
    code: 2,
    line: /visualization is only supported on workflows: -o DOT .*TABLE, JSON or YAML/,
  },
  { args: [...GET, "-o", "xml"], code: 2, line: /invalid value "xml" for --output: expected one of TABLE/ },
  // Endpoints
  { args: ["get", "task", ...SCOPE, "--admin.endpoint", "999.999.999.999:80"], code: 2, line: /999\.999\.999\.999/ },
  { args: ["get", "task", ...SCOPE, "--admin.endpoint", "%00:80"], code: 2, line: /%00/ },
  { args: ["get", "task", ...SCOPE, "--admin.endpoint", "host:99999"], code: 2, line: /99999/ },
  // Durations
  { args: [...GET, "--admin.perRetryTimeout", "597h"], code: 2, line: /"597h" for --admin\.perRetryTimeout/ },
  { args: [...GET, "--admin.perRetryTimeout", `${"9".repeat(400)}s`], code: 2, line: /--admin\.perRetryTimeout/ },
  { args: [...GET, "--http.idleTimeout", "forever"], code: 2, line: /"forever" for --http\.idleTimeout/ },
  { args: [...GET, "--http.headersTimeout", "-1s"], code: 2, line: /"-1s" for --http\.headersTimeout/ },
  // Options
  { args: [...GET, "--storage.stow.config", "novalue"], code: 2, line: /"novalue" for --storage\.stow\.config/ },
  { args: [...GET, "--admin.maxMessageSizeBytes", "-1"], code: 2, line: /"-1" for --admin\.maxMessageSizeBytes/ },
  { args: [...GET, "--admin.maxMessageSizeBytes", "4GiB"], code: 2, line: /"4GiB" for --admin\.maxMessageSizeBytes/ },
  { args: [...GET, "--admin.maxRetries", "0"], code: 2, line: /"0" for --admin\.maxRetries/ },
  // Selectors
  { args: [...GET, "--filter.fieldSelector", "task.name=a+b"], code: 2, line: /"a\+b"/ },
  { args: [...GET, "--filter.fieldSelector", "task.name=a\\,b"], code: 2, line: /"a,b"/ },
  { args: [...GET, "--filter.fieldSelector", "hello="], code: 2, line: /"hello="/ },
  // Config files: special files, huge files, wrong shapes, several problems at once
  { args: [...GET, "-c", "$DIR"], code: 2, line: /config file ".*": .*directory/ },
  { args: [...GET, "-c", "/dev/zero"], code: 2, line: /config file "\/dev\/zero"/ },
  { args: [...GET, "-c", "$DIR/fifo"], code: 2, line: /config file ".*fifo"/ },
  { args: [...GET, "-c", "$DIR/huge.yaml"], code: 2, line: /config file ".*huge\.yaml".*limit/ },
  { args: [...GET, "-c", "$DIR/list.yaml"], code: 2, line: /"admin" must be a mapping of keys/ },
  {
    args: [...GET, "-c", "$DIR/many.yaml"],
    code: 2,
    line: /the configuration has 3 problems: (?=.*"maybe")(?=.*"lots")(?=.*"xml")/,
  },
  { args: [...GET, "-c", "$DIR/missing.yaml"], code: 2, line: /missing\.yaml": no such file/ },
  // Files named by options
  { args: [...TLS_GET, "--admin.caCertFilePath", "/dev/zero"], code: 2, line: /\/dev\/zero/ },
  { args: [...TLS_GET, "--admin.caCertFilePath", "$DIR/empty.pem"], code: 2, line: /empty\.pem/ },
  // A dry run of local files makes no HTTP client, yet refuses its bad settings as making it would: one line.
  {
    args: [...REGISTER, "--dryRun", "--admin.caCertFilePath", "$DIR/empty.pem", fixture("flytesnacks-core.tgz")],
    code: 2,
    line: /empty\.pem/,
  },
  {
    args: [...REGISTER, "--dryRun", "--admin.httpProxyURL", "http://[bad", fixture("flytesnacks-core.tgz")],
    code: 2,
    line: /admin\.httpProxyURL "http:\/\/\[bad" is not a URL/,
  },
  // Archives
  { args: [...REGISTER, "$DIR/missing.tgz"], code: 2, line: /missing\.tgz/ },
  { args: [...REGISTER, "$DIR/pkg.zip"], code: 2, line: /pkg\.zip/ },
];

async function makeFiles(dir: string): Promise<void> {
  await Deno.writeTextFile(`${dir}/huge.yaml`, `# ${"x".repeat(5 * 1024 * 1024)}\n`);
  await Deno.writeTextFile(`${dir}/list.yaml`, "admin: [endpoint, insecure]\n");
  await Deno.writeTextFile(`${dir}/many.yaml`, "admin:\n  insecure: maybe\n  maxRetries: lots\noutput: xml\n");
  await Deno.writeTextFile(`${dir}/empty.pem`, "");
  await Deno.writeTextFile(`${dir}/pkg.zip`, "PK");
  const mkfifo = await new Deno.Command("mkfifo", { args: [`${dir}/fifo`] }).output();
  assert(mkfifo.success, "mkfifo");
}

async function registerDirs(): Promise<string[]> {
  const tmp = Deno.env.get("TMPDIR") || "/tmp";
  const names: string[] = [];
  for await (const entry of Deno.readDir(tmp)) {
    if (entry.name.startsWith(`fctl-register-${Deno.pid}-`)) names.push(entry.name);
  }
  return names;
}

Deno.test("bad input: every row fails with its exit code and one stderr line naming the value", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fctl-bad-input-" });
  try {
    await makeFiles(dir);
    const before = await registerDirs();
    for (const row of ROWS) {
      const args = row.args.map((arg) => arg.replace("$DIR", dir));
      const { code, stdout, stderr } = await runFctl(args);
      const what = `fctl ${args.join(" ")}\n${stderr}`;
      equal(code, row.code, what);
      equal(stdout, "", what);
      const lines = stderr.trimEnd().split("\n");
      equal(lines.length, 1, what);
      assert(lines[0].startsWith("Error: "), what);
      assert(!/\n\s+at /.test(stderr) && !stderr.includes("unexpected failure"), what);
      match(lines[0], row.line, what);
    }
    equal((await registerDirs()).length, before.length, "no fctl-register-* dir left");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
