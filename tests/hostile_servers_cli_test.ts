/**
 * Nothing a server sends can print a secret or drive the terminal: a fresh fctl process under the declared
 * permissions, against a production-shaped admin (the sandbox's production profile: TLS from a test CA, OAuth
 * enforced) that advertises a hostile authorization server (HTTPS on loopback, trusted through the same CA file).
 * Its token endpoint echoes the request (the HTTP Basic credential, decoded and re-encoded every way, and the form
 * body) into a 400 error with terminal escapes and a 10 MB line, or answers a token no header can carry; its
 * device authorization endpoint answers an escaped or 50 MB user code, or a terminal hyperlink for a URL. At log
 * levels 3 and 5, in the json and text formats, stdout and stderr hold no form of the secret, no control character
 * and no line longer than a bound.
 */
import { equal, match, ok as assert } from "node:assert/strict";
import { type SeenRequest, startTlsServer } from "../src/http/_test_tls.ts";
import { startSandbox } from "../src/sandbox/mod.ts";
import { errorLine, runFctlProcess, type RunResult } from "./helpers.ts";

/** The client's id and secret: characters every encoding (percent, form, OAuth's Basic) writes its own way. */
const CLIENT_ID = "fctl client*1";
const SECRET = "Hostile s3cret/+~(x)!é";

/** The length of a long line a server may send: 10 MB, no blank in it. */
const HUGE = 10 * 1024 * 1024;
/** A screen clear, red text and a fake prompt; a terminal hyperlink (OSC 8) to another host. */
const ESCAPES = "\x1b[2J\x1b[31mfake prompt$ \x1b]8;;https://evil.example/\x07click here\x1b]8;;\x07 \u009b2J";

/** Longest line any output may have: an error line is cut at 2000 characters; a log record's values each are. */
const MAX_LINE = 16 * 1024;

const base64 = (text: string) => {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
};
const base64Url = (text: string) => base64(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const formEncoded = (text: string) => new URLSearchParams([["", text]]).toString().slice(1);

/** Every form of the secret that must never be printed. */
const SECRET_FORMS = [
  SECRET,
  encodeURIComponent(SECRET),
  formEncoded(SECRET),
  base64(SECRET),
  base64Url(SECRET),
  base64(`${CLIENT_ID}:${SECRET}`),
  base64(encodeURIComponent(SECRET)),
];

/**
 * What the hostile server says back: escapes, then everything it learned of the request in every encoding (first,
 * so that it falls within what an error quotes), then `long` characters on their own line.
 */
function echo(request: SeenRequest, long: number): string {
  const authorization = request.headers.get("authorization") ?? "";
  const decoded = atob(authorization.replace(/^Basic /, ""));
  const [id, secret] = decoded.split(":").map((part) => decodeURIComponent(part.replace(/\+/g, " ")));
  const body = new TextDecoder().decode(request.bytes);
  return [
    `${ESCAPES} Authorization: ${authorization} secret ${secret} form client_secret=${formEncoded(secret)}`,
    `encoded ${encodeURIComponent(secret)} base64 ${base64(secret)} decoded ${decoded}`,
    `base64url ${base64Url(`${id}:${secret}`)} for body ${body}\n${"x".repeat(long)}${authorization}`,
  ].join(" ");
}

type Answer = (request: SeenRequest, url: string) => Response;

interface Hostile {
  /** What the hostile authorization server answers next (its metadata is answered by the admin). */
  answer(answer: Answer): void;
  /** Runs fctl as a fresh process, with the endpoint, both CAs and the client's id and secret. */
  run(args: string[]): Promise<RunResult>;
  seen: SeenRequest[];
}

async function withHostile(fn: (hostile: Hostile) => Promise<void>): Promise<void> {
  let next: Answer = () => new Response("not yet", { status: 500 });
  const server = await startTlsServer((request) => next(request, server.url));
  const sandbox = await startSandbox({ production: { advertisedIssuer: server.url } });
  const dir = await Deno.makeTempDir({ prefix: "fctl-hostile-" });
  try {
    await Deno.writeTextFile(`${dir}/ca.pem`, `${sandbox.caCertificate!}\n${server.caCert}\n`);
    const flags = [
      ...["-p", "flytesnacks", "-d", "development", "--admin.endpoint", sandbox.endpoint],
      ...["--admin.caCertFilePath", `${dir}/ca.pem`, "--admin.clientId", CLIENT_ID],
      ...["--admin.clientSecretEnvVar", "FLYTE_SECRET"],
    ];
    await fn({
      answer: (answer) => next = answer,
      run: (args) =>
        runFctlProcess(["get", "task", "core.sub.process", "--latest", ...flags, ...args], {
          FLYTE_SECRET: SECRET,
        }),
      seen: server.seen,
    });
  } finally {
    await sandbox.close();
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** No form of the secret, no control character but line ends, no line longer than {@link MAX_LINE}. */
function assertSafe(result: RunResult, label: string): void {
  for (const [name, text] of [["stdout", result.stdout], ["stderr", result.stderr]]) {
    for (const form of SECRET_FORMS) assert(!text.includes(form), `${label}: ${name} holds the secret as ${form}`);
    // deno-lint-ignore no-control-regex -- control characters are exactly what must not be there
    const control = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.exec(text);
    assert(!control, `${label}: ${name} holds the control character ${JSON.stringify(control?.[0])}`);
    const longest = Math.max(0, ...text.split("\n").map((line) => line.length));
    assert(longest <= MAX_LINE, `${label}: ${name} has a line of ${longest} characters`);
  }
}

Deno.test("a token endpoint echoing the Basic credential and the form body into its error, with escapes and a 10 MB line: no secret, no escape, no huge line, at every level and format", async () => {
  await withHostile(async ({ answer, run, seen }) => {
    const oauthError = (long: number) => (request: SeenRequest) =>
      Response.json({ error: "invalid_client", error_description: echo(request, long) }, { status: 400 });
    const answers: [string, (request: SeenRequest) => Response][] = [
      ["an OAuth error with a 40 kB line", oauthError(40_000)],
      ["an OAuth error with a 10 MB line", oauthError(HUGE)],
      ["a text body with a 10 MB line", (request) => new Response(echo(request, HUGE), { status: 400 })],
    ];
    for (const [kind, respond] of answers) {
      answer((request) =>
        new URL(request.url).pathname === "/oauth2/token" ? respond(request) : new Response("", { status: 404 })
      );
      for (const [level, format] of [["3", "json"], ["3", "text"], ["5", "json"], ["5", "text"]]) {
        const label = `${kind}, level ${level}, ${format}`;
        const result = await run(["--logger.level", level, "--logger.formatter.type", format]);
        equal(result.code, 1, label);
        equal(result.stdout, "", label);
        assertSafe(result, label);
        const line = errorLine(result);
        match(
          line,
          /^Error: token request to https:\/\/127\.0\.0\.1:\d+\/oauth2\/token for client "fctl client\*1" failed: /,
          label,
        );
        // What the server said is there, its escapes shown (as fctl shows them, or as quoted JSON text shows them),
        // cut, saying how much was left out.
        match(
          line,
          /\\(x1b|u001b)\[2J\\(x1b|u001b)\[31mfake prompt\$ \\(x1b|u001b)\]8;;https:\/\/evil\.example/,
          label,
        );
        match(line, /… \(\d+ more characters\) \(HTTP 400\)$/, label);
        if (level === "5") assert(/^\s+at /m.test(result.stderr), `${label}: debug level prints the stack`);
      }
    }
    // What fctl sent is what the checks look for: the Basic credential of the id and the secret, form-encoded.
    const sent = seen.find((request) => request.headers.has("authorization"))!.headers.get("authorization")!;
    equal(decodeURIComponent(atob(sent.replace(/^Basic /, "")).split(":")[1].replace(/\+/g, " ")), SECRET);
  });
});

Deno.test("a token no header can carry (a space, a line break and a header after it) is refused in one line that does not print it", async () => {
  await withHostile(async ({ answer, run }) => {
    for (
      const [token, problem] of [
        ["AT-hostile-1 x-injected: 1", "it contains a space"],
        ["AT-hostile-2\r\nx-injected: 1", "it contains a space and a line break"],
        ["AT-hostile-3\x1b[2J", "it contains a control character"],
      ]
    ) {
      answer(() => Response.json({ access_token: token, token_type: "Bearer", expires_in: 3600 }));
      const result = await run(["--logger.level", "5"]);
      equal(result.code, 1, result.stderr);
      assertSafe(result, token);
      equal(
        errorLine(result),
        `Error: the token from the token endpoint (admin.authType ClientSecret) is not a valid header value (${problem})`,
      );
      assert(!result.stderr.includes("AT-hostile") && !result.stderr.includes("x-injected"), result.stderr);
    }
  });
});

Deno.test("an ExternalCommand printing a token with a line break and a header after it: refused, nothing of it printed", async () => {
  const dir = await Deno.makeTempDir({ prefix: "fctl-hostile-command-" });
  try {
    const script = `${dir}/token.sh`;
    await Deno.writeTextFile(script, "#!/bin/sh\nprintf 'AT-hostile-4\\nx-injected: 1\\n'\n", { mode: 0o700 });
    await withHostile(async ({ run }) => {
      const result = await run([
        "--admin.authType",
        "ExternalCommand",
        "--admin.command",
        script,
        "--logger.level",
        "5",
      ]);
      equal(result.code, 1, result.stderr);
      assertSafe(result, "ExternalCommand");
      match(errorLine(result), /^Error: admin\.command ".*token\.sh" printed more than a token$/);
      assert(!result.stderr.includes("AT-hostile") && !result.stderr.includes("x-injected"), result.stderr);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a device authorization endpoint answering an escaped user code, a 50 MB one, or a terminal hyperlink for its URL: escapes shown, the others refused as invalid", async () => {
  await withHostile(async ({ answer, run }) => {
    const device = (fields: Record<string, unknown>): Answer => (request, url) => {
      const path = new URL(request.url).pathname;
      if (path === "/oauth2/device/authorize") {
        return Response.json({
          device_code: "DC-hostile-device-code",
          expires_in: 60,
          verification_uri: `${url}/device`,
          user_code: "WDJB-MJHT",
          ...fields,
        });
      }
      // The poll: the sign-in is denied, so the run ends at once.
      return Response.json({ error: "access_denied" }, { status: 400 });
    };
    const flow = ["--admin.authType", "DeviceFlow", "--admin.deviceFlowConfig.pollInterval", "10ms"];

    answer(device({ user_code: "\x1b[2J\x1b[31m$ \u009b2JWDJB\u202e" }));
    for (const format of ["json", "text"]) {
      const escaped = await run([...flow, "--logger.level", "5", "--logger.formatter.type", format]);
      equal(escaped.code, 1, escaped.stderr);
      assertSafe(escaped, `escaped user code, ${format}`);
      match(
        escaped.stderr,
        /^Sign in to continue: visit https:\/\/127\.0\.0\.1:\d+\/device and enter the code \\x1b\[2J\\x1b\[31m\$ \\x9b2JWDJB\\u202e \(waiting /m,
      );
      equal(
        errorLine(escaped),
        "Error: the sign-in with code \\x1b[2J\\x1b[31m$ \\x9b2JWDJB\\u202e was denied (access_denied)",
      );
      assert(!escaped.stderr.includes("DC-hostile"), "the device code is a secret");
    }

    answer(device({ user_code: "W".repeat(1000) }));
    const long = await run(flow);
    equal(long.code, 1);
    assertSafe(long, "a user code of 1000 characters");
    match(
      errorLine(long),
      /^Error: the device authorization answer from https:\/\/127\.0\.0\.1:\d+\/oauth2\/device\/authorize is invalid: its user_code is 1000 characters long \(at most 64\)$/,
    );
    assert(!long.stderr.includes("Sign in"), "nothing is asked of the user");

    // 50 MB: refused too (by its length, or before, as an answer too large to read), in one short line.
    answer(device({ user_code: "W".repeat(50 * 1024 * 1024) }));
    const huge = await run(flow);
    equal(huge.code, 1);
    assertSafe(huge, "50 MB user code");
    match(errorLine(huge), /^Error: .{1,300}$/);
    assert(!huge.stderr.includes("WWWWWWWW") && !huge.stderr.includes("Sign in"), huge.stderr.slice(0, 2000));

    for (const field of ["verification_uri", "verification_uri_complete"]) {
      answer((request, url) =>
        device({ [field]: `\x1b]8;;https://evil.example/\x07${url}/device\x1b]8;;\x07` })(request, url)
      );
      const link = await run(flow);
      equal(link.code, 1);
      assertSafe(link, field);
      match(
        errorLine(link),
        new RegExp(
          `^Error: the device authorization answer from \\S+ is invalid: its ${field} is not an http\\(s\\) URL: \\\\x1b\\]8;;https://evil\\.example/\\\\x07https://127`,
        ),
      );
      assert(!link.stderr.includes("Sign in"), "nothing is asked of the user");
    }

    answer(device({ verification_uri: "javascript:alert(1)" }));
    match(errorLine(await run(flow)), /its verification_uri is not an http\(s\) URL: javascript:alert\(1\)$/);
  });
});
