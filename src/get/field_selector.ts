/**
 * flytectl's field selector (`--filter.fieldSelector`) translated to FlyteAdmin's filter string
 * as flytectl does: `task.name=t1,created_at>=2021-05-24T21:43:12Z` → `eq(task.name,t1)+gte(created_at,…)`.
 *
 * fctl fixes flytectl's silent failures: a term without an operator, ` in ` without parentheses, an
 * unknown escape and a value FlyteAdmin cannot be sent are all handled explicitly, and every problem is a
 * one-line {@link UsageError} that quotes the bad term.
 *
 * A value cannot contain `,` or `+`: the admin's filter grammar splits on them and has no escape, so
 * `task.name=a\,b` would reach it as `eq(task.name,a,b)`. Such values are refused before any call.
 *
 * @module
 */
import { quote, UsageError } from "../errors.ts";

/** Selector operators in the order they are tried at each position, with their filter function. */
const OPERATORS: readonly (readonly [string, string])[] = [
  ["!=", "ne"],
  ["=", "eq"],
  [">=", "gte"],
  [">", "gt"],
  ["<=", "lte"],
  ["<", "lt"],
  [" contains ", "contains"],
  [" in ", "value_in"],
];

const VALID_OPERATORS = '=, !=, >, >=, <, <=, " contains ", " in (a;b)"';

/** Admin filter fields are dotted identifiers (`task.name`, `execution.phase`, `created_at`). */
const FIELD = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/** One character of a term; escaped characters are literal and never act as operators or separators. */
interface Char {
  ch: string;
  literal: boolean;
}

function invalid(term: string, reason: string): UsageError {
  return new UsageError(
    `Please add a valid field selector: ${reason} in term ${quote(term)} ` +
      `(terms are <field><operator><value> separated by ","; operators: ${VALID_OPERATORS})`,
  );
}

/** The raw text of the term that starts at `start` and contains `at`, for error messages. */
function termAround(selector: string, start: number, at: number): string {
  const end = selector.indexOf(",", at + 2);
  return selector.slice(start, end < 0 ? undefined : end);
}

/** Splits on unescaped commas and resolves the escapes `\\`, `\,` and `\=`. */
function splitTerms(selector: string): { raw: string; chars: Char[] }[] {
  const terms: { raw: string; chars: Char[] }[] = [];
  let chars: Char[] = [];
  let start = 0;
  for (let i = 0; i < selector.length; i++) {
    const ch = selector[i];
    if (ch === "\\") {
      const next = selector[i + 1];
      if (next === undefined) throw invalid(termAround(selector, start, i), "a trailing backslash");
      if (next !== "\\" && next !== "," && next !== "=") {
        throw invalid(
          termAround(selector, start, i),
          `unsupported escape ${quote("\\" + next)} (only \\\\, \\, and \\= are allowed)`,
        );
      }
      chars.push({ ch: next, literal: true });
      i++;
    } else if (ch === ",") {
      terms.push({ raw: selector.slice(start, i), chars });
      chars = [];
      start = i + 1;
    } else {
      chars.push({ ch, literal: false });
    }
  }
  terms.push({ raw: selector.slice(start), chars });
  return terms;
}

/** The earliest operator in `chars` (ties broken by {@link OPERATORS} order), made of unescaped characters. */
function findOperator(chars: Char[]): { at: number; text: string; fn: string } | undefined {
  for (let at = 0; at < chars.length; at++) {
    for (const [text, fn] of OPERATORS) {
      if (at + text.length > chars.length) continue;
      let hit = true;
      for (let k = 0; k < text.length && hit; k++) {
        const c = chars[at + k];
        hit = !c.literal && c.ch === text[k];
      }
      if (hit) return { at, text, fn };
    }
  }
  return undefined;
}

function text(chars: Char[]): string {
  return chars.map((c) => c.ch).join("");
}

/** `,` and `+` separate FlyteAdmin's filter arguments and terms, with no way to escape them. */
const INEXPRESSIBLE = /[,+]/;

function refuseInexpressible(raw: string, value: string): void {
  if (INEXPRESSIBLE.test(value)) {
    throw invalid(raw, `the value ${quote(value)} contains "," or "+", which FlyteAdmin's filters cannot express`);
  }
}

function translateTerm(raw: string, chars: Char[]): string {
  const op = findOperator(chars);
  if (!op) throw invalid(raw, "no operator");
  const field = text(chars.slice(0, op.at));
  const value = text(chars.slice(op.at + op.text.length));
  if (field === "" || value === "") throw invalid(raw, field === "" ? "an empty field" : "an empty value");
  if (!FIELD.test(field)) throw invalid(raw, `invalid field name ${quote(field)}`);
  refuseInexpressible(raw, value);
  if (op.fn !== "value_in") return `${op.fn}(${field},${value})`;
  const list = /^\((.*)\)$/s.exec(value);
  if (!list) throw invalid(raw, `" in " needs a parenthesised list like (a;b), got ${quote(value)}`);
  if (list[1].split(";").some((item) => item === "")) throw invalid(raw, "an empty value in the list");
  return `value_in(${field},${list[1]})`;
}

/**
 * Translates a field selector into an admin filter string; "" (or only spaces) means no filter.
 * Throws {@link UsageError} naming the bad term.
 *
 * ```ts
 * import { fieldSelectorToFilters } from "@fctl/fctl";
 *
 * fieldSelectorToFilters("task.name=core.basic.hello"); // "eq(task.name,core.basic.hello)"
 * fieldSelectorToFilters("task.name contains basic,task.version!=v1"); // two filters joined by "+"
 * ```
 */
export function fieldSelectorToFilters(selector: string): string {
  if (selector.trim() === "") return "";
  return splitTerms(selector).map(({ raw, chars }) => {
    if (chars.length === 0) throw invalid(raw, "an empty term");
    return translateTerm(raw, chars);
  }).join("+");
}

/**
 * Escapes a value for a selector term (`\` → `\\`, `,` → `\,`, `=` → `\=`). It reaches the filter string
 * unchanged, unless it contains `,` or `+`: then {@link fieldSelectorToFilters} refuses it, as no filter can hold it.
 *
 * ```ts
 * import { escapeSelectorValue, fieldSelectorToFilters } from "@fctl/fctl";
 *
 * fieldSelectorToFilters(`task.name=${escapeSelectorValue("a=b")}`); // "eq(task.name,a=b)"
 * ```
 */
export function escapeSelectorValue(value: string): string {
  return value.replace(/[\\,=]/g, (ch) => "\\" + ch);
}
