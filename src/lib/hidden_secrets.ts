/**
 * Secrets hidden from the errors a library connection throws. The command line hides them where it prints; a
 * program prints, logs or reports `err.message` itself, so `connect` hides them before any error reaches it: in
 * what `connect` throws, and in what every method of the clients it hands out rejects with (and so in what the
 * library calls made with them throw or report).
 *
 * @module
 */
import type { Redactor } from "../log/redact.ts";

/** Most causes followed down an error's chain: far more than fctl nests, and no loop can hold it. */
const MAX_CAUSES = 16;

/** The text properties of an error that can quote what a server or a value said. */
const TEXT_PROPERTIES = ["message", "stack", "serverMessage"] as const;

/**
 * `err` with every secret `secrets` knows replaced in its message, stack and server message, and in its causes';
 * the same object, so that its class and fields stay as they were.
 */
export function hideSecrets(err: unknown, secrets: Redactor): unknown {
  if (secrets.empty) return err;
  let e: unknown = err;
  for (let depth = 0; e instanceof Error && depth < MAX_CAUSES; depth++, e = e.cause) {
    for (const key of TEXT_PROPERTIES) {
      const text: unknown = Reflect.get(e, key);
      if (typeof text !== "string") continue;
      const hidden = secrets.redact(text);
      if (hidden === text) continue;
      // `readonly` in the types only: an error's own properties are writable (`stack` through its setter).
      if (!Reflect.set(e, key, hidden)) Object.defineProperty(e, key, { value: hidden, configurable: true });
    }
  }
  return err;
}

/**
 * `target` whose methods reject (or throw) with their errors' secrets hidden ({@link hideSecrets}); every other
 * property as it is. Secrets learned later (a token, once issued) are hidden too: each error is redacted when thrown.
 */
export function hidingSecrets<T extends object>(target: T, secrets: Redactor): T {
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(target, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key, object);
      if (typeof value !== "function") return value;
      if (!wrapped.has(key)) {
        const method = value as (...args: unknown[]) => unknown;
        wrapped.set(key, (...args: unknown[]) => {
          let result: unknown;
          try {
            result = method.apply(object, args);
          } catch (err) {
            throw hideSecrets(err, secrets);
          }
          return result instanceof Promise
            ? result.catch((err: unknown) => {
              throw hideSecrets(err, secrets);
            })
            : result;
        });
      }
      return wrapped.get(key);
    },
  });
}
