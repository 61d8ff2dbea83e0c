/**
 * Runs a program for the auth flows (`admin.command`): an argument vector, never a shell, stdin closed, with
 * the run's environment; output collected.
 *
 * @module
 */
import type { CommandOutput, CommandRunner } from "../auth/external_command.ts";

/** A runner whose programs see `env` (the run's environment) and nothing else. */
export function commandRunner(env: Readonly<Record<string, string | undefined>>): CommandRunner {
  const childEnv = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return async (argv): Promise<CommandOutput> => {
    const out = await new Deno.Command(argv[0], {
      args: argv.slice(1),
      env: childEnv,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
  };
}
