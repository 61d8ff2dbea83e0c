/**
 * The zsh completion script: the bash script's functions, loaded through zsh's own `bashcompinit`
 * emulation, so both shells complete from one generated implementation. The functions get a name of their
 * own (`_fctl_bash`), as zsh reserves `_fctl` for a `#compdef` file of that name.
 *
 * @module
 */
import { bashFunctions, functionName } from "./bash.ts";
import type { CompletionModel } from "./model.ts";

/** The zsh completion script for `model`'s program. */
export function zshCompletion(model: CompletionModel): string {
  const p = `${functionName(model.program)}_bash`;
  return [
    `#compdef ${model.program}`,
    `# zsh completion for ${model.program}, generated from its command tree by \`${model.program} completion zsh\`.`,
    `# Load it in this shell:  source <(${model.program} completion zsh)`,
    `# For every new shell, add that line to ~/.zshrc (after compinit), or save the script as _${model.program} in $fpath.`,
    `autoload -U +X compinit && { (( $+functions[compdef] )) || compinit; }`,
    `autoload -U +X bashcompinit && bashcompinit`,
    bashFunctions(model, p),
    `complete -o default -F ${p} ${model.program}`,
    `# Autoloaded from $fpath as _${model.program} on the first TAB: complete that TAB too.`,
    `if [[ \${funcstack[1]-} == _${model.program} ]]; then _bash_complete -o default -F ${p}; fi`,
    "",
  ].join("\n");
}
