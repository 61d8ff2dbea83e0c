/**
 * Certificates for the sandbox's production profile, made at run time with `openssl`: a private CA and a
 * server certificate it signs for `127.0.0.1`, `::1` and `localhost`, both valid for two days. Nothing is
 * committed, so no key ever leaks from the repository and no certificate ever expires under the tests.
 *
 * @module
 */

/**
 * A private CA and a server certificate it signed, all PEM.
 *
 * ```ts
 * import { startSandbox, type TestCertificates, createTestCertificates } from "@fctl/fctl/testing";
 *
 * const certificates: TestCertificates = await createTestCertificates(); // needs openssl
 * const sandbox = await startSandbox({ tls: { cert: certificates.cert, key: certificates.key } });
 * console.log(sandbox.endpoint); // https://127.0.0.1:PORT; clients trust certificates.caCert
 * await sandbox.close();
 * ```
 */
export interface TestCertificates {
  /** The CA certificate: what clients trust (`admin.caCertFilePath`). */
  caCert: string;
  /** The server certificate, signed by the CA. */
  cert: string;
  /** The server certificate's private key. */
  key: string;
}

const SERVER_EXTENSIONS = [
  "basicConstraints=critical,CA:FALSE",
  "keyUsage=critical,digitalSignature",
  "extendedKeyUsage=serverAuth",
  "subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost",
].join("\n");

async function openssl(args: string[], cwd: string): Promise<void> {
  const out = await new Deno.Command("openssl", { args, cwd, stdin: "null", stdout: "piped", stderr: "piped" })
    .output();
  if (!out.success) {
    throw new Error(`openssl ${args[0]} failed: ${new TextDecoder().decode(out.stderr).trim()}`);
  }
}

/**
 * Makes a CA and a loopback server certificate (P-256 keys) in a temporary directory, then removes it.
 *
 * ```ts
 * import { createTestCertificates } from "@fctl/fctl/testing";
 *
 * const { caCert, cert, key } = await createTestCertificates();
 * const server = Deno.serve({ port: 0, cert, key }, () => new Response("ok"));
 * const client = Deno.createHttpClient({ caCerts: [caCert] });
 * console.log(await (await fetch(`https://localhost:${server.addr.port}/`, { client })).text()); // ok
 * await server.shutdown();
 * ```
 */
export async function createTestCertificates(): Promise<TestCertificates> {
  const dir = await Deno.makeTempDir({ prefix: "fctl-test-ca-" });
  try {
    const ecKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
    await openssl([
      ...["req", "-x509", "-new", ...ecKey, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2"],
      ...["-subj", "/CN=fctl sandbox test CA", "-addext", "basicConstraints=critical,CA:TRUE"],
      ...["-addext", "keyUsage=critical,keyCertSign,cRLSign"],
    ], dir);
    await openssl(
      ["req", "-new", ...ecKey, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"],
      dir,
    );
    await Deno.writeTextFile(`${dir}/server.ext`, SERVER_EXTENSIONS);
    const serial = `0x${
      crypto.getRandomValues(new Uint8Array(8)).reduce((s, b) => s + b.toString(16).padStart(2, "0"), "")
    }`;
    await openssl([
      ...["x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial", serial],
      ...["-out", "server.pem", "-days", "2", "-extfile", "server.ext"],
    ], dir);
    const read = (name: string) => Deno.readTextFile(`${dir}/${name}`);
    return { caCert: await read("ca.pem"), cert: await read("server.pem"), key: await read("server.key") };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
