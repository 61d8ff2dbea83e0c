/**
 * The bash completion script, generated from the completion model: a few lookup functions (one `case` each,
 * written out from the tree) and `_fctl`, which walks the words typed so far to the command they name,
 * skipping flag values, then offers that command's subcommands, flags, a flag's values or files.
 * zsh loads the same functions through `bashcompinit` (see `zsh.ts`).
 *
 * @module
 */
import type { FlagSpec } from "../command.ts";
import { type CompletionModel, flagWords, valueFlagWords } from "./model.ts";

/** `text` as one single-quoted shell word. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

function caseArm(patterns: readonly string[], body: string): string {
  return `    ${patterns.map(shellQuote).join("|")}) ${body} ;;`;
}

function caseBlock(subject: string, arms: string[], otherwise = ""): string {
  return [`  case ${subject} in`, ...arms, ...(otherwise ? [`    *) ${otherwise} ;;`] : []), "  esac"].join("\n");
}

/** `_fctl`: the name of the completion function, and the prefix of its helpers' names. */
export function functionName(program: string): string {
  return `_${program.replaceAll(/[^A-Za-z0-9_]/g, "_")}`;
}

/**
 * The shell functions of the script, without the `complete` line: the completion function `p` and its
 * helpers (`<p>_node`, …).
 */
export function bashFunctions(model: CompletionModel, p: string = functionName(model.program)): string {
  const echo = (words: readonly string[]) => `echo ${shellQuote(words.join(" "))}`;
  const choiceFlags = [...model.globals, ...model.nodes.flatMap((n) => n.flags)].filter((f) => f.choices);
  const seen = new Set<string>();
  const choiceArms = choiceFlags.flatMap((f: FlagSpec) => {
    const words = flagWords([f]).filter((w) => !seen.has(w));
    words.forEach((w) => seen.add(w));
    return words.length > 0 ? [caseArm(words, echo(f.choices!))] : [];
  });
  return [
    `# The command below the words typed so far: $1 is the current command's path, $2 a word.`,
    `${p}_node() {`,
    caseBlock(
      `"$1|$2"`,
      model.nodes.flatMap((n) =>
        n.subcommands.filter((s) => s.word !== "help").map((s) => caseArm([`${n.path}|${s.word}`], echo([s.path])))
      ),
    ),
    `}`,
    `# Subcommands of the command at path $1.`,
    `${p}_subcommands() {`,
    caseBlock(
      `"$1"`,
      model.nodes.filter((n) => n.subcommands.length > 0).map((n) =>
        caseArm([n.path], echo(n.subcommands.map((s) => s.word)))
      ),
    ),
    `}`,
    `# Flags of the command at path $1, its own and the global ones.`,
    `${p}_flags() {`,
    caseBlock(`"$1"`, model.nodes.map((n) => caseArm([n.path], echo(flagWords(n.flags))))),
    `  ${echo(flagWords(model.globals))}`,
    `}`,
    `# Whether flag $2 of the command at path $1 takes a value.`,
    `${p}_takes_value() {`,
    caseBlock(
      `"$1|$2"`,
      model.nodes.flatMap((n) => valueFlagWords(n.flags).map((w) => caseArm([`${n.path}|${w}`], "return 0"))),
    ),
    caseBlock(`"$2"`, [caseArm(valueFlagWords(model.globals), "return 0")]),
    `  return 1`,
    `}`,
    `# The values flag $1 accepts, if it names them.`,
    `${p}_choices() {`,
    caseBlock(`"$1"`, choiceArms),
    `}`,
    `# What the positional arguments of the command at path $1 accept: named values, or files (status 0).`,
    `${p}_arguments() {`,
    caseBlock(
      `"$1"`,
      model.nodes.flatMap((n) =>
        n.argumentChoices
          ? [caseArm([n.path], echo(n.argumentChoices))]
          : n.files
          ? [caseArm([n.path], "return 0")]
          : []
      ),
      "return 1",
    ),
    `}`,
    `# COMPREPLY from the lines of stdin (no mapfile: macOS ships bash 3.2).`,
    `${p}_reply() {`,
    `  local line`,
    `  COMPREPLY=()`,
    `  while IFS= read -r line; do COMPREPLY+=("$line"); done`,
    `}`,
    `${p}() {`,
    `  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" help="" valueof="" word next i`,
    `  COMPREPLY=()`,
    `  for ((i = 1; i < COMP_CWORD; i++)); do`,
    `    word="\${COMP_WORDS[i]}"`,
    `    case "$word" in`,
    `      --) break ;;`,
    `      -*=*) ;;`,
    `      -*)`,
    `        if ${p}_takes_value "$path" "$word"; then`,
    `          # bash splits --flag=value at "=": the value is the word after it.`,
    `          [[ "\${COMP_WORDS[i + 1]}" == "=" ]] && ((i++))`,
    `          if ((i + 1 == COMP_CWORD)); then valueof="$word"; break; fi`,
    `          ((i++))`,
    `        fi ;;`,
    `      help) help=1 ;;`,
    `      *)`,
    `        next="$(${p}_node "$path" "$word")"`,
    `        [[ -n "$next" ]] && path="$next" ;;`,
    `    esac`,
    `  done`,
    `  if [[ -n "$valueof" ]]; then`,
    `    [[ "$cur" == "=" ]] && cur=""`,
    `    local choices`,
    `    choices="$(${p}_choices "$valueof")"`,
    `    if [[ -n "$choices" ]]; then`,
    `      ${p}_reply < <(compgen -W "$choices" -- "$cur")`,
    `    else`,
    `      ${p}_reply < <(compgen -f -- "$cur")`,
    `    fi`,
    `    return 0`,
    `  fi`,
    `  if [[ "$cur" == -* ]]; then`,
    `    ${p}_reply < <(compgen -W "$(${p}_flags "$path")" -- "$cur")`,
    `    return 0`,
    `  fi`,
    `  local subcommands`,
    `  subcommands="$(${p}_subcommands "$path")"`,
    `  if [[ -n "$subcommands" || -n "$help" ]]; then`,
    `    ${p}_reply < <(compgen -W "$subcommands" -- "$cur")`,
    `    return 0`,
    `  fi`,
    `  local values`,
    `  if values="$(${p}_arguments "$path")"; then`,
    `    if [[ -n "$values" ]]; then`,
    `      ${p}_reply < <(compgen -W "$values" -- "$cur")`,
    `    else`,
    `      ${p}_reply < <(compgen -f -- "$cur")`,
    `    fi`,
    `  fi`,
    `  return 0`,
    `}`,
  ].join("\n");
}

/** The bash completion script for `model`'s program. */
export function bashCompletion(model: CompletionModel): string {
  const p = functionName(model.program);
  return [
    `# bash completion for ${model.program}, generated from its command tree by \`${model.program} completion bash\`.`,
    `# Load it in this shell:  source <(${model.program} completion bash)`,
    `# For every new shell:    ${model.program} completion bash > ~/.local/share/bash-completion/completions/${model.program}`,
    bashFunctions(model),
    // -o default: where fctl offers nothing (a flag value without named values), bash completes file names.
    `complete -o default -F ${p} ${model.program}`,
    "",
  ].join("\n");
}
