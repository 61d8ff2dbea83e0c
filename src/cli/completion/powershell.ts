/**
 * The PowerShell completion script: a native argument completer holding the tree as hashtables (written
 * out from the completion model) that walks the words typed so far to the command they name, skipping flag
 * values, then offers its subcommands, flags, a flag's values or its arguments' values.
 *
 * @module
 */
import { type CompletionModel, flagWords, valueFlagWords } from "./model.ts";

/** `text` as a single-quoted PowerShell string. */
function psQuote(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

function psArray(words: readonly string[]): string {
  return `@(${words.map(psQuote).join(", ")})`;
}

function psTable(entries: [string, string][], indent: string): string {
  return [`@{`, ...entries.map(([key, value]) => `${indent}  ${psQuote(key)} = ${value}`), `${indent}}`].join("\n");
}

/** The PowerShell completion script for `model`'s program. */
export function powershellCompletion(model: CompletionModel): string {
  const prog = model.program;
  const i = "  ";
  const nodes = psTable(
    model.nodes.flatMap((n) =>
      n.subcommands.filter((s) => s.word !== "help").map((
        s,
      ): [string, string] => [`${n.path}|${s.word}`, psQuote(s.path)])
    ),
    i,
  );
  const subcommands = psTable(
    model.nodes.filter((n) => n.subcommands.length > 0).map((n) => [n.path, psArray(n.subcommands.map((s) => s.word))]),
    i,
  );
  const flags = psTable(model.nodes.map((n) => [n.path, psArray(flagWords(n.flags))]), i);
  const valueFlags = psTable(model.nodes.map((n) => [n.path, psArray(valueFlagWords(n.flags))]), i);
  const seen = new Set<string>();
  const choices = psTable(
    [...model.globals, ...model.nodes.flatMap((n) => n.flags)].filter((f) => f.choices).flatMap((f) =>
      flagWords([f]).filter((w) => !seen.has(w) && seen.add(w)).map((w): [string, string] => [w, psArray(f.choices!)])
    ),
    i,
  );
  const args = psTable(
    model.nodes.filter((n) => n.argumentChoices).map((n) => [n.path, psArray(n.argumentChoices!)]),
    i,
  );
  return [
    `# PowerShell completion for ${prog}, generated from its command tree by \`${prog} completion powershell\`.`,
    `# Load it in this session:  ${prog} completion powershell | Out-String | Invoke-Expression`,
    `# For every new session, add that line to your $PROFILE.`,
    `Register-ArgumentCompleter -Native -CommandName ${psQuote(prog)} -ScriptBlock {`,
    `  param($wordToComplete, $commandAst, $cursorPosition)`,
    `  $nodes = ${nodes}`,
    `  $subcommands = ${subcommands}`,
    `  $flags = ${flags}`,
    `  $valueFlags = ${valueFlags}`,
    `  $globalFlags = ${psArray(flagWords(model.globals))}`,
    `  $globalValueFlags = ${psArray(valueFlagWords(model.globals))}`,
    `  $choices = ${choices}`,
    `  $arguments = ${args}`,
    `  $words = @($commandAst.CommandElements | Where-Object { $_.Extent.StartOffset -lt $cursorPosition } |`,
    `    ForEach-Object { $_.Extent.Text })`,
    `  # The word being completed is not one of the words typed so far.`,
    `  if ($wordToComplete -ne '' -and $words.Count -gt 0) { $words = @($words | Select-Object -SkipLast 1) }`,
    `  $path = ''`,
    `  $valueOf = $null`,
    `  for ($i = 1; $i -lt $words.Count; $i++) {`,
    `    $word = $words[$i]`,
    `    if ($word -like '-*=*') { continue }`,
    `    if ($word -like '-*') {`,
    `      if (($valueFlags[$path] -ccontains $word) -or ($globalValueFlags -ccontains $word)) {`,
    `        if ($i + 1 -eq $words.Count) { $valueOf = $word; break }`,
    `        $i++`,
    `      }`,
    `      continue`,
    `    }`,
    `    if ($word -eq 'help') { continue }`,
    `    $next = $nodes["$path|$word"]`,
    `    if ($next) { $path = $next }`,
    `  }`,
    `  if ($valueOf) {`,
    `    if (-not $choices.ContainsKey($valueOf)) { return }`,
    `    $candidates = $choices[$valueOf]`,
    `  } elseif ($wordToComplete -like '-*') {`,
    `    $candidates = @($flags[$path]) + $globalFlags`,
    `  } elseif ($subcommands.ContainsKey($path)) {`,
    `    $candidates = $subcommands[$path]`,
    `  } elseif ($arguments.ContainsKey($path)) {`,
    `    $candidates = $arguments[$path]`,
    `  } else {`,
    `    return`,
    `  }`,
    `  $candidates | Where-Object { $_ -like "$wordToComplete*" } | ForEach-Object {`,
    `    [System.Management.Automation.CompletionResult]::new($_, $_, 'ParameterValue', $_)`,
    `  }`,
    `}`,
    "",
  ].join("\n");
}
