/**
 * The completion script of each shell `fctl completion` supports.
 *
 * @module
 */
import { bashCompletion } from "./bash.ts";
import { fishCompletion } from "./fish.ts";
import { completionModel } from "./model.ts";
import type { LoadedCommand } from "../command.ts";
import { powershellCompletion } from "./powershell.ts";
import { zshCompletion } from "./zsh.ts";

/**
 * The script of `shell` (bash, zsh, fish, powershell) for the command tree `root` (fctl's is
 * `loadCommandTree(COMMAND_TREE)`); undefined for another shell.
 */
export function completionScript(shell: string, root: LoadedCommand): string | undefined {
  const generators: Record<string, typeof bashCompletion> = {
    bash: bashCompletion,
    zsh: zshCompletion,
    fish: fishCompletion,
    powershell: powershellCompletion,
  };
  if (!Object.hasOwn(generators, shell)) return undefined;
  return generators[shell](completionModel(root));
}
