/**
 * Block YAML for JSON documents, written for YAML 1.1 readers (Go's yaml.v2, viper): the same bytes as the
 * `yaml` library's `stringify(value, { version: "1.1", aliasDuplicateObjects: false, lineWidth: 0 })`, at
 * a fraction of its cost. The library builds a node tree of the whole document and threads an options
 * context through every scalar; 10,000 tasks took it 20 times as long as their table. This writes the text
 * directly, and takes from the library only what decides a scalar's style: its YAML 1.1 schema's tests
 * for plain text that would read as something else than a string (`yes`, `no`, `on`, `12:30`,
 * `2021-05-24`, `0x1f`, `~`). Its rules for the rest (quoting, block scalars, escapes) are ported below,
 * as the library states them in `stringify/stringifyString.js`; `yaml_test.ts` compares the two on
 * generated documents. One deliberate difference: a `<<` key is quoted, which the library writes plain and
 * YAML 1.1 readers take for a merge key. What this does not write (a scalar as the whole document, keys longer than 1024
 * characters) is left to the library.
 *
 * @module
 */
import type { JsonValue } from "@bufbuild/protobuf";

/** Tests (of a YAML schema's implicit types other than string) that make plain text read as another type. */
export interface ImplicitTypes {
  /** Whether plain `text` would not read back as a string. */
  test(text: string): boolean;
}

/** Marks a document this emitter leaves to the library. */
class Unsupported extends Error {}

const INDENT_STEP = "  ";
/** Characters or positions that make plain text mean something else (library: plainString). */
const PLAIN_UNSAFE = /^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/;
/** Control characters and unpaired surrogates: only double quotes can carry them. */
// deno-lint-ignore no-control-regex -- control characters are exactly what this finds
const NEEDS_ESCAPES = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u{D800}-\u{DFFF}]/u;
/** Lines that a YAML 1.1 parser reads as a directive or a document boundary. */
const DOCUMENT_MARKER = /^(%|---|\.\.\.)/m;
/** Newline runs inside a block scalar's trailing whitespace that need indenting. */
const BLOCK_END_NEWLINES = /(^|(?<!\n))\n+(?!\n|$)/g;
/** The library's `doubleQuotedMinMultiLineLength`: shorter double-quoted strings keep `\n` escapes. */
const MIN_MULTI_LINE_LENGTH = 40;
/**
 * Text that is plain whatever else holds: a letter, then letters, digits and `_ . / -` (names, types, enum
 * values), but not an exponent alone (`e5`, `E-12`, `E00000`), which the library's YAML 1.1 schema reads as a
 * float. Such text can only read as another type in YAML 1.1 as one of the short words `y`, `n`, `yes`, `no`, `on`,
 * `off`, `true`, `false`, `null` in their spellings (`yaml_test.ts` checks this against the schema).
 */
const SIMPLE = /^(?![eE]-?[0-9]+$)[A-Za-z][A-Za-z0-9_./-]*$/;
/** Longest of those words (`false`). */
const MAX_WORD_LENGTH = 5;
/** YAML 1.1's merge key. */
const MERGE_KEY = "<<";
/** Longest key written as `key:`; a longer one needs the explicit `? key` form. */
const MAX_IMPLICIT_KEY_LENGTH = 1024;

/**
 * The YAML text of `value` (an object or an array; ends with a newline), or undefined when the value is one
 * this emitter leaves to the library.
 */
export function emitYaml(value: JsonValue, types: ImplicitTypes): string | undefined {
  if (value === null || typeof value !== "object") return undefined;
  try {
    const emitter = new Emitter(types);
    emitter.node(value, 0);
    emitter.flush();
    emitter.chunks.push("\n");
    return emitter.chunks.join("");
  } catch (err) {
    if (err instanceof Unsupported) return undefined;
    throw err;
  }
}

/**
 * `parts` as one flat string. Concatenation makes a rope, which every join of the output would walk again;
 * the prefixes written for every entry are made flat once.
 */
function flat(...parts: string[]): string {
  return parts.join("");
}

/** The keys of an object that are written (those with a value), in order. */
function definedKeys(value: { [key: string]: JsonValue | undefined }): string[] {
  const keys = Object.keys(value);
  return keys.every((key) => value[key] !== undefined) ? keys : keys.filter((key) => value[key] !== undefined);
}

/** Per depth: its indentation, and the text written before its map entries and list items. */
interface Level {
  indent: string;
  /** `\n` + indent + `- `: before every list item but the first. */
  item: string;
  /** Per key: what precedes its value when first, and when not (`key: `, `\n  key: `), per value kind. */
  keys: Map<string, KeyPrefixes>;
}

/** The text before an entry's value: `key: ` before a scalar or empty collection, `key:\n<indent>` before items. */
interface KeyPrefixes {
  first: string;
  next: string;
  firstNested: string;
  nextNested: string;
}

class Emitter {
  /**
   * The output: pieces of the current top-level item (mostly the cached strings of {@link Level}), joined
   * into a chunk per item, so no piece outlives its item and nothing builds one long string piece by piece.
   */
  parts: string[] = [];
  readonly chunks: string[] = [];
  #levels: Level[] = [];

  constructor(private readonly types: ImplicitTypes) {}

  flush(): void {
    this.chunks.push(this.parts.join(""));
    this.parts = [];
  }

  #level(depth: number): Level {
    let level = this.#levels[depth];
    if (!level) {
      const indent = INDENT_STEP.repeat(depth);
      level = { indent, item: flat("\n", indent, "- "), keys: new Map() };
      this.#levels[depth] = level;
    }
    return level;
  }

  /** The prefixes of `key` in a map whose entries are indented `depth` steps. */
  #key(key: string, depth: number): KeyPrefixes {
    const level = this.#level(depth);
    let prefixes = level.keys.get(key);
    if (prefixes === undefined) {
      // A key is written as the library writes it at its value's indentation (one step deeper).
      const text = this.scalar(key, this.#level(depth + 1).indent, true);
      if (text.length > MAX_IMPLICIT_KEY_LENGTH) throw new Unsupported();
      const inner = this.#level(depth + 1).indent;
      prefixes = {
        first: flat(text, ": "),
        next: flat("\n", level.indent, text, ": "),
        firstNested: flat(text, ":\n", inner),
        nextNested: flat("\n", level.indent, text, ":\n", inner),
      };
      level.keys.set(key, prefixes);
    }
    return prefixes;
  }

  /**
   * Writes a value whose own lines are indented `depth` steps (its first line follows what precedes it);
   * `keys` are an object's {@link definedKeys} when the caller has them already.
   */
  node(value: JsonValue | undefined, depth: number, keys?: string[]): void {
    if (value === null || value === undefined) {
      this.parts.push("null");
      return;
    }
    switch (typeof value) {
      case "string":
        this.parts.push(this.scalar(value, this.#level(depth).indent, false));
        return;
      case "number":
        this.parts.push(number(value));
        return;
      case "boolean":
        this.parts.push(value ? "true" : "false");
        return;
    }
    if (Array.isArray(value)) {
      if (value.length === 0) {
        this.parts.push("[]");
        return;
      }
      const item = this.#level(depth).item;
      for (let i = 0; i < value.length; i++) {
        this.parts.push(i === 0 ? "- " : item);
        this.node(value[i], depth + 1);
        if (depth === 0) this.flush();
      }
      return;
    }
    keys ??= definedKeys(value);
    if (keys.length === 0) {
      this.parts.push("{}");
      return;
    }
    for (let i = 0; i < keys.length; i++) {
      const item = value[keys[i]];
      const prefixes = this.#key(keys[i], depth);
      // A collection with items starts on the next line; `[]`, `{}` and scalars follow the key.
      let itemKeys: string[] | undefined;
      let nested = false;
      if (item !== null && typeof item === "object") {
        if (Array.isArray(item)) nested = item.length > 0;
        else nested = (itemKeys = definedKeys(item)).length > 0;
      }
      if (nested) this.parts.push(i === 0 ? prefixes.firstNested : prefixes.nextNested);
      else this.parts.push(i === 0 ? prefixes.first : prefixes.next);
      this.node(item, depth + 1, itemKeys);
      if (depth === 0) this.flush();
    }
  }

  /** A string scalar in the style the library picks (library: stringifyString, plainString). */
  scalar(value: string, indent: string, implicitKey: boolean): string {
    if (SIMPLE.test(value)) {
      return value.length <= MAX_WORD_LENGTH && this.types.test(value) ? quoted(value, indent, implicitKey) : value;
    }
    if (NEEDS_ESCAPES.test(value)) return doubleQuoted(value, indent, implicitKey);
    const multiLine = value.includes("\n");
    if (implicitKey && multiLine) return quoted(value, indent, implicitKey);
    if (PLAIN_UNSAFE.test(value)) {
      return implicitKey || !multiLine ? quoted(value, indent, implicitKey) : block(value, indent, implicitKey);
    }
    if (!implicitKey && multiLine) return block(value, indent, implicitKey);
    if (DOCUMENT_MARKER.test(value) && implicitKey && indent === INDENT_STEP) {
      return quoted(value, indent, implicitKey);
    }
    // The library writes `<<` plain, where a YAML 1.1 reader reads it as a string, but a `<<` key as a merge key:
    // that one is quoted (the one way this output differs from the library's).
    if (value === MERGE_KEY) return implicitKey ? doubleQuoted(value, indent, implicitKey) : value;
    return this.types.test(value) ? quoted(value, indent, implicitKey) : value;
  }
}

/** A number as the library writes it (library: stringifyNumber). */
function number(value: number): string {
  if (!Number.isFinite(value)) return Number.isNaN(value) ? ".nan" : value < 0 ? "-.inf" : ".inf";
  return Object.is(value, -0) ? "-0" : String(value);
}

/** Single quotes for text with `"` and no `'`, else double quotes (library: quotedString). */
function quoted(value: string, indent: string, implicitKey: boolean): string {
  return value.includes('"') && !value.includes("'")
    ? singleQuoted(value, indent, implicitKey)
    : doubleQuoted(value, indent, implicitKey);
}

function singleQuoted(value: string, indent: string, implicitKey: boolean): string {
  if ((implicitKey && value.includes("\n")) || /[ \t]\n|\n[ \t]/.test(value)) {
    return doubleQuoted(value, indent, implicitKey);
  }
  const lineIndent = indent || (DOCUMENT_MARKER.test(value) ? INDENT_STEP : "");
  return "'" + value.replace(/'/g, "''").replace(/\n+/g, `$&\n${lineIndent}`) + "'";
}

/** JSON's escapes in YAML's spelling; outside keys, `\n` in long strings becomes a folded line break. */
function doubleQuoted(value: string, indent: string, implicitKey: boolean): string {
  const json = JSON.stringify(value);
  // Without escapes, JSON's quoting is YAML's.
  if (!json.includes("\\")) return json;
  const lineIndent = indent || (DOCUMENT_MARKER.test(value) ? INDENT_STEP : "");
  let str = "";
  let start = 0;
  for (let i = 0, ch = json[i]; ch; ch = json[++i]) {
    if (ch === " " && json[i + 1] === "\\" && json[i + 2] === "n") {
      // A space before a line break is escaped, or folding would eat it.
      str += json.slice(start, i) + "\\ ";
      i += 1;
      start = i;
      ch = "\\";
    }
    if (ch !== "\\") continue;
    switch (json[i + 1]) {
      case "u": {
        str += json.slice(start, i);
        const code = json.substr(i + 2, 4);
        str += SHORT_ESCAPES[code] ?? (code.startsWith("00") ? "\\x" + code.substr(2) : json.substr(i, 6));
        i += 5;
        start = i + 1;
        break;
      }
      case "n":
        if (implicitKey || json[i + 2] === '"' || json.length < MIN_MULTI_LINE_LENGTH) {
          i += 1;
        } else {
          // Folding eats the first line break.
          str += json.slice(start, i) + "\n\n";
          while (json[i + 2] === "\\" && json[i + 3] === "n" && json[i + 4] !== '"') {
            str += "\n";
            i += 2;
          }
          str += lineIndent;
          // A space after a line break is escaped, or folding would eat it.
          if (json[i + 2] === " ") str += "\\";
          i += 1;
          start = i + 1;
        }
        break;
      default:
        i += 1;
    }
  }
  return start ? str + json.slice(start) : json;
}

const SHORT_ESCAPES: Record<string, string> = {
  "0000": "\\0",
  "0007": "\\a",
  "000b": "\\v",
  "001b": "\\e",
  "0085": "\\N",
  "00a0": "\\_",
  "2028": "\\L",
  "2029": "\\P",
};

/** A literal block scalar (`|`, `|-`, `|+`), with an indentation indicator when it starts with a space. */
function block(value: string, indent: string, implicitKey: boolean): string {
  // A block cannot end in whitespace after its last line break.
  if (/\n[\t ]+$/.test(value)) return quoted(value, indent, implicitKey);
  const lineIndent = indent || (DOCUMENT_MARKER.test(value) ? INDENT_STEP : "");
  let endStart = value.length;
  while (endStart > 0 && "\n\t ".includes(value[endStart - 1])) endStart--;
  let end = value.substring(endStart);
  const endNewline = end.indexOf("\n");
  const chomp = endNewline === -1 ? "-" : value === end || endNewline !== end.length - 1 ? "+" : "";
  if (end) {
    value = value.slice(0, -end.length);
    if (end[end.length - 1] === "\n") end = end.slice(0, -1);
    end = end.replace(BLOCK_END_NEWLINES, `$&${lineIndent}`);
  }
  let startWithSpace = false;
  let startEnd = 0;
  let startNewline = -1;
  for (; startEnd < value.length; ++startEnd) {
    const ch = value[startEnd];
    if (ch === " ") startWithSpace = true;
    else if (ch === "\n") startNewline = startEnd;
    else break;
  }
  let start = value.substring(0, startNewline < startEnd ? startNewline + 1 : startEnd);
  if (start) {
    value = value.substring(start.length);
    start = start.replace(/\n+/g, `$&${lineIndent}`);
  }
  const header = (startWithSpace ? (lineIndent ? "2" : "1") : "") + chomp;
  return `|${header}\n${lineIndent}${start}${value.replace(/\n+/g, `$&${lineIndent}`)}${end}`;
}
