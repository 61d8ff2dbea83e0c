/**
 * The completion script of each shell `fctl completion` supports.
 *
 * @module
 */
import { bashCompletion } from "./bash.ts";
import { fishCompletion } from "./fish.ts";
import { completionModel } from "./model.ts";
import { COMMAND_TREE, loadCommandTree } from "../command_tree.ts";
import { powershellCompletion } from "./powershell.ts";
import { zshCompletion } from "./zsh.ts";

/** The script of `shell` (bash, zsh, fish, powershell) for fctl's command tree; undefined for another shell. */
export async function completionScript(shell: string): Promise<string | undefined> {
  const generators: Record<string, typeof bashCompletion> = {
    bash: bashCompletion,
    zsh: zshCompletion,
    fish: fishCompletion,
    powershell: powershellCompletion,
  };
  if (!Object.hasOwn(generators, shell)) return undefined;
  return generators[shell](completionModel(await loadCommandTree(COMMAND_TREE)));
}
