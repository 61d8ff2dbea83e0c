/**
 * The fish completion script: one `complete` line per subcommand, flag and value, each under a condition
 * naming the command it belongs to; `__fctl_path` walks the words typed so far to that command, skipping
 * flag values, as the bash script does.
 *
 * @module
 */
import type { FlagSpec } from "../command.ts";
import type { CompletionModel } from "./model.ts";

/** `text` as one single-quoted fish word. */
function fishQuote(text: string): string {
  return `'${text.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}

/** The fish completion script for `model`'s program. */
export function fishCompletion(model: CompletionModel): string {
  const prog = model.program;
  const f = `__${prog.replaceAll(/[^A-Za-z0-9_]/g, "_")}`;
  const at = (path: string) => `-n ${fishQuote(`${f}_at ${fishQuote(path)}`)}`;
  const flagLine = (flag: FlagSpec, condition: string) => {
    const parts = [`complete -c ${prog}`];
    if (condition) parts.push(condition);
    if (flag.short) parts.push(`-s ${flag.short}`);
    parts.push(`-l ${flag.long}`);
    if (flag.choices) parts.push(`-x -a ${fishQuote(flag.choices.join(" "))}`);
    else if (flag.value) parts.push("-r -F");
    if (flag.help) parts.push(`-d ${fishQuote(firstSentence(flag.help))}`);
    return parts.join(" ");
  };
  const cases = (arms: [string, string][]) =>
    arms.map(([pattern, body]) => `        case ${fishQuote(pattern)}\n            ${body}`);
  const valueArms: [string, string][] = model.nodes.flatMap((n) =>
    n.flags.filter((fl) => fl.value).flatMap((fl) =>
      [...(fl.short ? [`-${fl.short}`] : []), `--${fl.long}`].map((
        w,
      ): [string, string] => [`${n.path}|${w}`, "return 0"])
    )
  );
  const globalValueWords = model.globals.filter((g) => g.value).flatMap((g) => [
    ...(g.short ? [`-${g.short}`] : []),
    `--${g.long}`,
  ]);
  return [
    `# fish completion for ${prog}, generated from its command tree by \`${prog} completion fish\`.`,
    `# Load it in this shell:  ${prog} completion fish | source`,
    `# For every new shell:    ${prog} completion fish > ~/.config/fish/completions/${prog}.fish`,
    `function ${f}_node --description 'the command below the words typed so far'`,
    `    switch "$argv[1]|$argv[2]"`,
    ...cases(
      model.nodes.flatMap((n) =>
        n.subcommands.filter((s) => s.word !== "help").map((
          s,
        ): [string, string] => [`${n.path}|${s.word}`, `echo ${fishQuote(s.path)}`])
      ),
    ),
    `    end`,
    `end`,
    `function ${f}_takes_value --description 'whether a flag of a command takes a value'`,
    `    switch "$argv[1]|$argv[2]"`,
    ...cases(valueArms),
    `    end`,
    `    contains -- $argv[2] ${globalValueWords.map(fishQuote).join(" ")}`,
    `end`,
    `function ${f}_path --description 'the command the words typed so far name'`,
    `    set -l words (commandline -opc)`,
    `    set -e words[1]`,
    `    set -l path ''`,
    `    set -l skip 0`,
    `    for word in $words`,
    `        if test $skip -eq 1`,
    `            set skip 0`,
    `            continue`,
    `        end`,
    `        switch $word`,
    `            case '--*=*'`,
    `            case '-*'`,
    `                if ${f}_takes_value "$path" $word`,
    `                    set skip 1`,
    `                end`,
    `            case help`,
    `            case '*'`,
    `                set -l next (${f}_node "$path" $word)`,
    `                if test -n "$next"`,
    `                    set path $next`,
    `                end`,
    `        end`,
    `    end`,
    `    echo $path`,
    `end`,
    `function ${f}_at --description 'whether the words typed so far name the command at path $argv[1]'`,
    `    test (${f}_path) = "$argv[1]"`,
    `end`,
    // Files only where a command takes paths, or a flag a value without named choices.
    `complete -c ${prog} -f`,
    ...model.nodes.flatMap((n) =>
      n.subcommands.map((s) =>
        `complete -c ${prog} ${at(n.path)} -a ${fishQuote(s.word)} -d ${fishQuote(firstSentence(s.description))}`
      )
    ),
    ...model.nodes.flatMap((n) => n.flags.map((flag) => flagLine(flag, at(n.path)))),
    ...model.nodes.flatMap((n) =>
      n.argumentChoices
        ? [`complete -c ${prog} ${at(n.path)} -a ${fishQuote(n.argumentChoices.join(" "))}`]
        : n.files
        ? [`complete -c ${prog} ${at(n.path)} -F`]
        : []
    ),
    ...model.globals.map((flag) => flagLine(flag, "")),
    "",
  ].join("\n");
}

/** A description short enough for a completion menu: up to the first `(`, `;` or sentence end. */
export function firstSentence(text: string): string {
  return text.replace(/\s*[(;[].*$/, "").replace(/\. .*$/, "").trim() || text;
}
