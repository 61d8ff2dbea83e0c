/**
 * For tests of what the storage reads from the environment it is given: the process's environment changed for the
 * length of a test, and a given environment that leads nowhere by itself.
 *
 * @module
 */

/** Runs `fn` with `vars` set in the process's environment, then puts back what was there. */
export async function withProcessEnv(vars: Record<string, string>, fn: () => Promise<void>): Promise<void> {
  const before = Object.fromEntries(Object.keys(vars).map((name) => [name, Deno.env.get(name)]));
  for (const [name, value] of Object.entries(vars)) Deno.env.set(name, value);
  try {
    await fn();
  } finally {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) Deno.env.delete(name);
      else Deno.env.set(name, value);
    }
  }
}

/** A home without shared files (none at all) and no instance metadata service to wait for, plus `env`. */
export function givenEnv(env: Record<string, string>): Record<string, string> {
  return { HOME: "/nonexistent-fctl-test-home", AWS_EC2_METADATA_DISABLED: "true", ...env };
}
