/**
 * `fctl completion bash|zsh|fish|powershell`: the shell's completion script, generated from the command
 * tree (commands, aliases, flags, enum values such as `-o`'s), printed to stdout.
 *
 * @module
 */
import { quote, UsageError } from "../../errors.ts";
import { printText } from "../../output/print.ts";
import { type CommandSpec, leafCommand, type LoadedCommand } from "../command.ts";

/** The shells `fctl completion` writes a script for. */
export const COMPLETION_SHELLS = ["bash", "zsh", "fish", "powershell"] as const;

/** One of {@link COMPLETION_SHELLS}. */
export type CompletionShell = typeof COMPLETION_SHELLS[number];

/** What `fctl completion` takes: the shell whose script it prints. */
export interface CompletionOptions {
  shell: CompletionShell;
}

/**
 * `fctl completion`, writing the scripts of the tree `tree` loads (the whole program's: the tree holds this
 * command, so it is handed the tree rather than importing it).
 */
export function completionCommand(tree: () => Promise<LoadedCommand>): CommandSpec {
  return leafCommand({
    name: "completion",
    description: "print a shell completion script (commands, flags and their values) for bash, zsh, fish or powershell",
    arguments: [{
      name: "shell",
      help: COMPLETION_SHELLS.join(", "),
      required: true,
      variadic: false,
      choices: COMPLETION_SHELLS,
    }],
    flags: [],
    globals: [],
    // A script generated from the tree alone: a broken config file must not stop a shell's start-up.
    readsConfig: false,
    examples: [
      "source <(fctl completion bash)  # in ~/.bashrc",
      "source <(fctl completion zsh)  # in ~/.zshrc, after compinit",
      "fctl completion fish > ~/.config/fish/completions/fctl.fish",
      "fctl completion powershell | Out-String | Invoke-Expression  # in $PROFILE",
    ],
    options({ args: [shell] }): CompletionOptions {
      if (!(COMPLETION_SHELLS as readonly string[]).includes(shell)) {
        throw new UsageError(
          `unknown shell ${quote(shell)} for completion: expected one of ${COMPLETION_SHELLS.join(", ")}`,
        );
      }
      return { shell: shell as CompletionShell };
    },
    async run(ctx, { shell }) {
      const { completionScript } = await import("../completion/mod.ts");
      const script = completionScript(shell, await tree());
      if (script === undefined) throw new Error(`no completion script generator for ${quote(shell)}`);
      printText(ctx.io, script);
    },
  });
}
