/**
 * An {@link Io} whose stdout and stderr hide every secret a run has learned, including those learned after it
 * was made: what a run writes, errors included, goes through it.
 *
 * @module
 */
import type { Redactor } from "../log/redact.ts";
import type { Io, TextSink } from "../output/io.ts";

function redacting(sink: TextSink, redactor: Redactor): TextSink {
  // What reaches the terminal: this sink's redaction, then whatever the sink it writes to shows of that.
  const shown = (text: string) => {
    const hidden = redactor.redact(text);
    return sink.shown ? sink.shown(hidden) : hidden;
  };
  return {
    write: (text) => sink.write(redactor.redact(text)),
    // Absent while no secret is known and the sink below hides nothing: a table or document is then made of its
    // text as it is, without a pass over it (a tenth of a 10,000-task document's writing time).
    get shown() {
      return redactor.empty && !sink.shown ? undefined : shown;
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
