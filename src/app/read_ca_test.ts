import { equal, rejects } from "node:assert/strict";
import { readCaFile } from "./read_ca.ts";

const CERT = await Deno.readTextFile(new URL("../sandbox/testdata/localhost_cert.pem", import.meta.url));
const io = (text: string) => ({ readTextFile: () => Promise.resolve(text) });

Deno.test("readCaFile returns a PEM file whose certificates all parse", async () => {
  equal(await readCaFile(io(CERT), "ca.pem"), CERT);
  equal(await readCaFile(io(CERT + CERT), "ca.pem"), CERT + CERT);
});

Deno.test("readCaFile refuses an empty, garbled, truncated or key-only file, naming it", async () => {
  const lines = CERT.trim().split("\n");
  const cases: [string, string][] = [
    ["", "holds no PEM certificate"],
    ["garbage\x00\xff", "holds no PEM certificate"],
    ["-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n", "holds no PEM certificate"],
    [lines.slice(0, 5).join("\n"), "holds a truncated PEM certificate (no END CERTIFICATE line)"],
    [
      [lines[0], ...lines.slice(3, 6), lines.at(-1)].join("\n"),
      "holds an unreadable certificate (number 1 in the file)",
    ],
    [
      CERT + "-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n",
      "holds an unreadable certificate (number 2 in the file)",
    ],
  ];
  for (const [text, reason] of cases) {
    await rejects(readCaFile(io(text), "bad.pem"), (err: Error) => {
      equal(err.message, `admin.caCertFilePath "bad.pem" ${reason}`, JSON.stringify(text.slice(0, 40)));
      return true;
    });
  }
});
