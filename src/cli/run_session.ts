/**
 * State of one `fctl` run shared by `runCli` (which turns errors into output) and the command actions
 * (which learn the configuration): the secrets to redact and the logger.
 *
 * Commands receive only the {@link Io} from the command graph, so the session is found through the Io
 * that `runCli` hands them, keeping the command definitions' signatures unchanged.
 *
 * @module
 */
import type { Io, TextSink } from "../output/io.ts";
import { createLogger, type Logger } from "../log/logger.ts";
import { Redactor } from "../log/redact.ts";

/** What a run shares between its command action and `runCli`. */
export interface RunSession {
  redactor: Redactor;
  /** Replaced by the configured logger once the configuration is loaded. */
  logger: Logger;
}

const SESSIONS = new WeakMap<Io, RunSession>();

function redacting(sink: TextSink, redactor: Redactor): TextSink {
  return { write: (text) => sink.write(redactor.redact(text)) };
}

/** Starts a session: an Io whose stdout and stderr redact every registered secret, and its session. */
export function startSession(io: Io): { io: Io; session: RunSession } {
  const redactor = new Redactor();
  const wrapped: Io = { ...io, stdout: redacting(io.stdout, redactor), stderr: redacting(io.stderr, redactor) };
  const session: RunSession = {
    redactor,
    logger: createLogger({ sink: wrapped.stderr, level: 3, formatter: "json", redactor }),
  };
  SESSIONS.set(wrapped, session);
  return { io: wrapped, session };
}

/** The session of an Io from {@link startSession}; a fresh one for an Io that did not come from it. */
export function sessionOf(io: Io): RunSession {
  let session = SESSIONS.get(io);
  if (!session) {
    const redactor = new Redactor();
    session = { redactor, logger: createLogger({ sink: io.stderr, level: 3, formatter: "json", redactor }) };
    SESSIONS.set(io, session);
  }
  return session;
}
