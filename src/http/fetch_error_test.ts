import { equal } from "node:assert/strict";
import { describeFetchFailure } from "./fetch_error.ts";

async function fetchFailure(url: string): Promise<unknown> {
  try {
    await fetch(url);
  } catch (err) {
    return err;
  }
  throw new Error(`fetching ${url} did not fail`);
}

Deno.test("describeFetchFailure: a refused connection and an unknown host say so, without the URL's query", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  const refused = describeFetchFailure(await fetchFailure(`http://127.0.0.1:${port}/a.tgz?sig=secret`));
  equal(refused, "tcp connect error: Connection refused (os error 111)");
  const dns = describeFetchFailure(await fetchFailure("http://no-such-host.invalid/a.tgz?sig=secret"));
  equal(dns.startsWith("dns error: "), true, dns);
  equal(dns.includes("secret"), false, dns);
});

Deno.test("describeFetchFailure: a connection closed before the answer says so, without Deno's wrapping or the URL", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const closing = (async () => {
    for await (const connection of listener) connection.close();
  })();
  try {
    const url = `http://127.0.0.1:${listener.addr.port}/a.tgz?sig=secret`;
    equal(describeFetchFailure(await fetchFailure(url)), "connection closed before message completed");
  } finally {
    listener.close();
    await closing.catch(() => {});
  }
});

Deno.test("describeFetchFailure: walks the cause chain, drops repetitions and strips any URL's query", () => {
  const inner = new Error(
    "error sending request for url (https://store.example/k?X-Amz-Signature=s3cr3t)): client error (Connect): " +
      "invalid peer certificate: UnknownIssuer",
  );
  equal(
    describeFetchFailure(new TypeError("fetch failed", { cause: inner })),
    "invalid peer certificate: UnknownIssuer (trust the server's CA with admin.caCertFilePath)",
  );
  // Only an unknown issuer is mended by trusting a CA: an expired certificate, or another host's, gets no hint.
  for (const reason of ["Expired", "NotValidForName"]) {
    equal(
      describeFetchFailure(new TypeError("fetch failed", { cause: new Error(`invalid peer certificate: ${reason}`) })),
      `invalid peer certificate: ${reason}`,
    );
  }
  equal(
    describeFetchFailure(new Error("proxy https://proxy.example/p?token=x refused", { cause: "again" })),
    "proxy https://proxy.example/p refused: again",
  );
  equal(describeFetchFailure(new TypeError("fetch failed")), "fetch failed");
});
