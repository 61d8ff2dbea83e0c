/**
 * Azurite (Microsoft's Azure Storage emulator, `npm:azurite`) started for a test: its blob service on a
 * free loopback port, in memory, run under Deno as a subprocess.
 *
 * @module
 */
import { fileURLToPath } from "node:url";

/** Azurite's well-known development account and key (public, documented by Microsoft). */
export const AZURITE_ACCOUNT = "devstoreaccount1";
/** The development account's key. */
export const AZURITE_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

/** A running Azurite blob service. */
export interface Azurite {
  /** Blob service URL of the development account (`http://127.0.0.1:<port>/devstoreaccount1`). */
  endpoint: string;
  close(): Promise<void>;
}

const MAIN = fileURLToPath(new URL("../../node_modules/azurite/dist/src/blob/main.js", import.meta.url));

/** Starts Azurite's blob service and waits until it listens. */
export async function startAzurite(): Promise<Azurite> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "-A",
      MAIN,
      "--blobHost",
      "127.0.0.1",
      "--blobPort",
      "0",
      "--inMemoryPersistence",
      "--skipApiVersionCheck",
      "--disableProductStyleUrl",
    ],
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream());
  const reader = lines.getReader();
  let output = "";
  let port: number | undefined;
  const deadline = setTimeout(() => child.kill(), 30_000);
  while (port === undefined) {
    const { value, done } = await reader.read();
    if (done) {
      clearTimeout(deadline);
      await child.status;
      throw new Error(`azurite did not start: ${output}`);
    }
    output += value;
    const match = /listens on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
    if (match) port = Number(match[1]);
  }
  clearTimeout(deadline);
  // Keep draining its output so it never blocks on a full pipe.
  const drained = (async () => {
    while (!(await reader.read()).done) { /* discard */ }
  })();
  return {
    endpoint: `http://127.0.0.1:${port}/${AZURITE_ACCOUNT}`,
    async close() {
      // In memory only: nothing to flush, and a graceful stop waits out idle keep-alive connections.
      child.kill("SIGKILL");
      await child.status;
      await drained;
    },
  };
}
