/**
 * A Graphviz DOT document as flytectl writes one (its graph library's layout: a nameless `strict digraph`, edges
 * first, then sub-graphs, then the nodes no sub-graph holds; each list and each attribute list sorted), with
 * every identifier and string escaped so that any text a server sends stays one valid DOT token.
 *
 * @module
 */
import { printable } from "../output/printable.ts";

/** An attribute value: `text` written as an identifier when it is one, else as a quoted string. */
export interface DotValue {
  text: string;
  /** Always quote (flytectl quotes labels, `lhead` and `ltail` whatever they hold). */
  quoted?: boolean;
}

/** Attributes by name; written sorted by name. */
export type DotAttributes = Record<string, DotValue>;

interface DotEdge {
  from: string;
  to: string;
  attributes: DotAttributes;
}

// A DOT identifier that needs no quotes: a letter or underscore then letters, digits, underscores (ASCII only,
// so that no reader's idea of a letter matters), or a numeral.
const BARE_ID = /^(?:[A-Za-z_][A-Za-z0-9_]*|-?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?))$/;

/**
 * `text` as the inside of a DOT quoted string. A backslash is doubled (Graphviz reads `\N`, `\G`, `\l` and the
 * like in labels as escapes), a quote is escaped, a line break becomes `\n` (Graphviz's centred line break), and
 * any other control or bidirectional character is shown as a visible escape, so nothing in a label can end the
 * string or drive the terminal the DOT is printed on.
 */
function quotedBody(text: string): string {
  return text.split(/\r\n|\r|\n/).map((line) => printable(line).replaceAll("\\", "\\\\").replaceAll('"', '\\"'))
    .join("\\n");
}

/** `text` as a DOT identifier: bare when it is a plain name or numeral, quoted otherwise. */
export function dotId(text: string): string {
  return BARE_ID.test(text) ? text : `"${quotedBody(text)}"`;
}

/** `text` as a DOT quoted string. */
export function dotString(text: string): string {
  return `"${quotedBody(text)}"`;
}

/** Orders strings as Go does (by UTF-8 bytes, the same as by code point), not by UTF-16 code unit. */
export function compareCodePoints(a: string, b: string): number {
  const left = a[Symbol.iterator]();
  const right = b[Symbol.iterator]();
  for (;;) {
    const x = left.next();
    const y = right.next();
    if (x.done || y.done) return x.done === y.done ? 0 : x.done ? -1 : 1;
    const diff = x.value.codePointAt(0)! - y.value.codePointAt(0)!;
    if (diff !== 0) return diff;
  }
}

function attributeList(attributes: DotAttributes): string {
  const names = Object.keys(attributes).sort(compareCodePoints);
  if (names.length === 0) return "";
  return `[ ${
    names.map((name) => {
      const value = attributes[name];
      return `${dotId(name)}=${value.quoted ? dotString(value.text) : dotId(value.text)}`;
    }).join(", ")
  } ]`;
}

/** A directed graph of nodes, clusters (sub-graphs) and edges, written as DOT by {@link DotDocument.toString}. */
export class DotDocument {
  readonly #nodes = new Map<string, DotAttributes>();
  readonly #subgraphs = new Map<string, DotAttributes>();
  /** Parent (`""` for the graph itself) → the nodes and sub-graphs directly inside it. */
  readonly #children = new Map<string, Set<string>>();
  readonly #edges = new Map<string, DotEdge>();

  /** Adds a node inside `parent` (`""`: the graph itself); a node added twice keeps the first one's place. */
  addNode(parent: string, name: string, attributes: DotAttributes): void {
    if (this.#nodes.has(name)) {
      Object.assign(this.#nodes.get(name)!, attributes);
      return;
    }
    this.#nodes.set(name, { ...attributes });
    this.#adopt(parent, name);
  }

  /** Whether a node of this name was added. */
  hasNode(name: string): boolean {
    return this.#nodes.has(name);
  }

  /** Adds a sub-graph inside `parent`; name it `cluster_…` for Graphviz to draw a box around it. */
  addSubgraph(parent: string, name: string, attributes: DotAttributes): void {
    if (!this.#subgraphs.has(name)) {
      this.#subgraphs.set(name, {});
      this.#adopt(parent, name);
    }
    Object.assign(this.#subgraphs.get(name)!, attributes);
  }

  /** Whether an edge `from` → `to` exists (a strict graph has at most one). */
  hasEdge(from: string, to: string): boolean {
    return this.#edges.has(`${from}\0${to}`);
  }

  /** Adds the edge `from` → `to` unless it exists: the first one added keeps its attributes. */
  addEdge(from: string, to: string, attributes: DotAttributes): void {
    if (!this.hasEdge(from, to)) this.#edges.set(`${from}\0${to}`, { from, to, attributes });
  }

  #adopt(parent: string, child: string): void {
    const children = this.#children.get(parent) ?? new Set<string>();
    children.add(child);
    this.#children.set(parent, children);
  }

  /** The DOT text: edges sorted by (from, to), then the top sub-graphs and the remaining nodes, each by name. */
  toString(): string {
    const statements: string[] = [];
    const edges = [...this.#edges.values()].sort((a, b) =>
      compareCodePoints(a.from, b.from) || compareCodePoints(a.to, b.to)
    );
    for (const edge of edges) {
      statements.push(`\t${dotId(edge.from)}->${dotId(edge.to)}${attributeList(edge.attributes)}`);
    }
    const written = new Set<string>();
    const top = this.#children.get("") ?? new Set<string>();
    for (const name of [...this.#subgraphs.keys()].sort(compareCodePoints)) {
      if (top.has(name)) statements.push(this.#subgraph(name, "\t", written));
    }
    for (const name of [...this.#nodes.keys()].sort(compareCodePoints)) {
      if (!written.has(name)) statements.push(this.#node(name, "\t", written));
    }
    return `strict digraph  {\n${statements.map((s) => `${s};\n`).join("").replace(/\n$/, "")}\n}\n`;
  }

  #node(name: string, indent: string, written: Set<string>): string {
    written.add(name);
    const attributes = attributeList(this.#nodes.get(name)!);
    return `${indent}${dotId(name)}${attributes ? ` ${attributes}` : ""}`;
  }

  #subgraph(name: string, indent: string, written: Set<string>): string {
    written.add(name);
    const inner = `${indent}\t`;
    const attributes = this.#subgraphs.get(name)!;
    const statements = Object.keys(attributes).sort(compareCodePoints).map((key) => {
      const value = attributes[key];
      return `${inner}${dotId(key)}=${value.quoted ? dotString(value.text) : dotId(value.text)}`;
    });
    const children = [...(this.#children.get(name) ?? [])].sort(compareCodePoints);
    for (const child of children) {
      if (written.has(child)) continue;
      statements.push(
        this.#nodes.has(child) ? this.#node(child, inner, written) : this.#subgraph(child, inner, written),
      );
    }
    const body = statements.map((s) => `${s};\n`).join("").replace(/\n$/, "");
    return `${indent}subgraph ${dotId(name)} {\n${body}\n${indent}}`;
  }
}
