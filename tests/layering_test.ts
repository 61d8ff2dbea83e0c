/**
 * The layers stay apart (issue 14): the process (`Deno.*`) is touched only by the adapters listed here, HTTP/2
 * only where the transport and the sandbox live, and the library's registration and task code sees the admin
 * client only through its types and errors. Scans the source of `main.ts`, `mod.ts` and `src/` (tests, test
 * helpers and scripts are free to use anything).
 */
import { deepEqual, equal } from "node:assert/strict";
import { relative } from "node:path";

/** The modules that may use `Deno.*`, each for one reason. A folder (ending in `/`) covers what is in it. */
const DENO_ADAPTERS: Record<string, string> = {
  "main.ts": "the executable: arguments, signals, exit status",
  "src/app/deno_io.ts": "the process's streams, terminal and environment, as an Io",
  "src/fs/read_bounded.ts": "reads the small files a user names (config, secret, CA, tokens) with a size cap",
  "src/fs/write_atomic.ts": "writes the files a user asks for (exec spec, config init): temp file + rename, mode 0600",
  "src/cli/exec_file.ts": "writes the exec spec file the user asked for (atomic rename, mode 0600)",
  "src/app/run_command.ts": "runs admin.command for ExternalCommand (argument vector, no shell)",
  "src/http/": "fetch through Deno.createHttpClient (proxy, CA)",
  "src/auth/token_file.ts": "the token cache file (mode 0600 in a 0700 directory, atomic rename)",
  "src/auth/browser.ts": "Pkce's browser opener: the operating system and the programs on PATH",
  "src/auth/loopback.ts": "Pkce's loopback HTTP server on the redirect URI's port",
  "src/admin/": "the transport: TLS and sockets to the admin service",
  "src/sandbox/": "the test admin service: its servers",
  "src/storage/local.ts": "the local-disk storage backend",
  "src/storage/mem.ts": "the in-memory storage backend reads the files it is given",
  "src/storage/gcs.ts": "application default credentials: the file GOOGLE_APPLICATION_CREDENTIALS names",
  "src/register/package/": "package reading: local paths, .pb files, archives extracted to a private temp dir",
  "src/register/upload.ts": "hashing the fast-registration source file",
};

/** The folders where `node:http2` may be imported. */
const HTTP2_FOLDERS = ["src/admin/", "src/sandbox/"];

/** What `src/register/` and `src/tasks/` may import from `src/admin/`. */
const ADMIN_SURFACE = ["src/admin/client.ts", "src/admin/errors.ts"];

/**
 * Violations tolerated for now, each with its reason. Each must still occur: once it is gone, the test fails
 * until its line is deleted here, so the list only ever shrinks.
 */
const KNOWN: readonly string[] = [];

/** A source file: repository-relative path and text. */
interface Source {
  path: string;
  text: string;
}

/** The text with comments removed; string literals are kept, or with `blankStrings` emptied. */
function stripComments(text: string, blankStrings: boolean): string {
  return text.replace(
    /\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`/g,
    (token) => token.startsWith("/") ? "" : blankStrings ? '""' : token,
  );
}

/** Every module specifier a file imports or re-exports, statically or with a literal `import()`. */
function importsOf(text: string): string[] {
  const code = stripComments(text, false);
  const pattern =
    /\b(?:import|export)\b[^;"'`]*?\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)|\bimport\s*["']([^"']+)["']/g;
  return [...code.matchAll(pattern)].map((m) => m[1] ?? m[2] ?? m[3]);
}

function covered(path: string, entries: readonly string[]): boolean {
  return entries.some((entry) => entry.endsWith("/") ? path.startsWith(entry) : path === entry);
}

/** Resolves a relative specifier of `from` to a repository-relative path; other specifiers stay as they are. */
function resolve(from: string, specifier: string): string {
  if (!specifier.startsWith(".")) return specifier;
  return new URL(specifier, `file:///repo/${from}`).pathname.slice("/repo/".length);
}

/** Every rule broken by `sources`, one line each. */
export function violations(sources: readonly Source[]): string[] {
  const found: string[] = [];
  for (const { path, text } of sources) {
    if (/\bDeno\./.test(stripComments(text, true)) && !covered(path, Object.keys(DENO_ADAPTERS))) {
      found.push(`${path} uses Deno.*`);
    }
    for (const target of importsOf(text).map((s) => resolve(path, s))) {
      if (target === "node:http2" && !covered(path, HTTP2_FOLDERS)) found.push(`${path} imports node:http2`);
      const library = path.startsWith("src/register/") || path.startsWith("src/tasks/");
      if (library && target.startsWith("src/admin/") && !ADMIN_SURFACE.includes(target)) {
        found.push(`${path} imports ${target}`);
      }
    }
  }
  return found;
}

const ROOT = new URL("../", import.meta.url);

/** `main.ts`, `mod.ts` and the sources under `src/`, without tests and test helpers (`_`-prefixed files). */
async function productionSources(): Promise<Source[]> {
  const sources: Source[] = [];
  const walk = async (dir: URL) => {
    for await (const entry of Deno.readDir(dir)) {
      const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
      if (entry.isDirectory) await walk(url);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts") && !entry.name.startsWith("_")) {
        sources.push({ path: relative(ROOT.pathname, url.pathname), text: await Deno.readTextFile(url) });
      }
    }
  };
  await walk(new URL("src/", ROOT));
  for (const path of ["main.ts", "mod.ts"]) sources.push({ path, text: await Deno.readTextFile(new URL(path, ROOT)) });
  return sources.sort((a, b) => a.path.localeCompare(b.path));
}

Deno.test("layering: Deno.* only in the listed adapters, node:http2 only in the transport and sandbox, register/ and tasks/ see only the admin client's types and errors", async () => {
  const found = await productionSources().then(violations);
  const fresh = found.filter((v) => !KNOWN.includes(v));
  deepEqual(fresh, [], `layering violations:\n${fresh.join("\n")}`);
  const fixed = KNOWN.filter((v) => !found.includes(v));
  deepEqual(fixed, [], `fixed, so delete them from KNOWN:\n${fixed.join("\n")}`);
});

Deno.test("layering: every adapter listed exists, so the list says what the code does", async () => {
  const paths = (await productionSources()).map((s) => s.path);
  for (const entry of [...Object.keys(DENO_ADAPTERS), ...HTTP2_FOLDERS, ...ADMIN_SURFACE]) {
    equal(paths.some((p) => entry.endsWith("/") ? p.startsWith(entry) : p === entry), true, entry);
  }
});

Deno.test("layering: the scan sees what it must and ignores comments and strings", () => {
  const found = violations([
    { path: "src/tasks/a.ts", text: 'const env = Deno.env.get("X");\nimport { x } from "../admin/grpc_transport.ts";' },
    {
      path: "src/tasks/b.ts",
      text: '// Deno.exit() in a comment\nconst s = "Deno.exit()";\nimport type { A } from "../admin/client.ts";',
    },
    {
      path: "src/register/c.ts",
      text: 'const h = await import("node:http2");\nexport { e } from "../admin/errors.ts";',
    },
    { path: "src/admin/d.ts", text: 'import * as http2 from "node:http2";\nDeno.connectTls({});' },
    { path: "src/output/e.ts", text: "/* Deno.x */ const t = `${Deno.pid}`;" },
  ]);
  deepEqual(found, [
    "src/tasks/a.ts uses Deno.*",
    "src/tasks/a.ts imports src/admin/grpc_transport.ts",
    "src/register/c.ts imports node:http2",
  ]);
});
