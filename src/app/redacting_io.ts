/**
 * An {@link Io} whose stdout and stderr hide every secret a run has learned, including those learned after it
 * was made: what a run writes, errors included, goes through it.
 *
 * @module
 */
import type { Redactor } from "../log/redact.ts";
import type { Io, TextSink } from "../output/io.ts";

function redacting(sink: TextSink, redactor: Redactor): TextSink {
  return {
    write: (text) => sink.write(redactor.redact(text)),
    // What reaches the terminal: this sink's redaction, then whatever the sink it writes to shows of that.
    shown: (text) => {
      const hidden = redactor.redact(text);
      return sink.shown ? sink.shown(hidden) : hidden;
    },
  };
}

/**
 * `io`, with `secrets` redacted from what it writes, and its sinks' `shown` saying so (a table is laid out, a
 * document made, from the text as it will be shown); the rest is `io`'s.
 */
export function redactingIo(io: Io, secrets: Redactor): Io {
  return { ...io, stdout: redacting(io.stdout, secrets), stderr: redacting(io.stderr, secrets) };
}
