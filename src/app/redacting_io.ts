/**
 * An {@link Io} whose stdout and stderr hide every secret a run has learned, including those learned after it
 * was made: what a run writes, errors included, goes through it.
 *
 * @module
 */
import type { Redactor } from "../log/redact.ts";
import type { Io, TextSink } from "../output/io.ts";

function redacting(sink: TextSink, redactor: Redactor): TextSink {
  return { write: (text) => sink.write(redactor.redact(text)) };
}

/** `io`, with `secrets` redacted from what it writes; the rest is `io`'s. */
export function redactingIo(io: Io, secrets: Redactor): Io {
  return { ...io, stdout: redacting(io.stdout, secrets), stderr: redacting(io.stderr, secrets) };
}
