/**
 * Rewrites the bundle's modules so that V8 compiles their functions along with the module, and Deno's code cache
 * holds the functions' bytecode.
 *
 * Why: Deno writes a module's V8 code cache right after compiling the module, before it runs, and V8 compiles a
 * function's body only when the function is first called. So every cold process, its modules' code cache warm,
 * still parsed and compiled each function it called: about 650 functions of the bundle's for `get task`, 20–25 ms
 * of its CPU. V8 compiles a function literal in parentheses together with the code around it (its heuristic for a
 * function that is called at once), and the code cache keeps what was compiled. So:
 *
 * - every function or arrow function expression that is not in parentheses already gets them;
 * - every function declaration at a module's top level, or at the top level of a function's body, becomes a `var`
 *   of the same name bound to that function in parentheses, placed where the declaration was hoisted to: after the
 *   module's imports, at the start of the function's body;
 * - every method of an object literal, `m(a) {…}`, becomes a property bound to a function in parentheses,
 *   `m: (function (a) {…})`, unless it uses `super` (which only a method may);
 * - class methods, getters, setters and constructors have no such form and stay lazily compiled, as do declarations
 *   in blocks and those of a module in a static import cycle (another module of the cycle may call them before the
 *   module runs, which only a declaration allows).
 *
 * What it costs: a process whose code cache is cold compiles every function of the modules it loads, called or not
 * (once per build and machine), and the cache is larger on disk.
 *
 * @module
 */
import { parse } from "acorn";
import { cycles } from "./module_graph.ts";

/** An ESTree node as acorn gives it: a type, its source range and its children under named fields. */
interface Node {
  type: string;
  start: number;
  end: number;
  [field: string]: unknown;
}

/** A function declaration to move, and its name. */
interface Hoisted {
  node: Node;
  name: string;
}

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && typeof (value as Node).type === "string";
}

/** Calls `visit` with every node of `root` and its parent, parents first. */
function walk(root: Node, visit: (node: Node, parent: Node | undefined) => void): void {
  const stack: [Node, Node | undefined][] = [[root, undefined]];
  while (stack.length > 0) {
    const [node, parent] = stack.pop()!;
    visit(node, parent);
    for (const key in node) {
      const value = node[key];
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) if (isNode(value[i])) stack.push([value[i], node]);
      } else if (isNode(value) && key !== "type") {
        stack.push([value, node]);
      }
    }
  }
}

const FUNCTION_TYPES = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"]);

/** A function expression that is a method, getter, setter or constructor: it has no form in parentheses. */
function isMethod(parent: Node | undefined): boolean {
  if (parent?.type === "MethodDefinition") return true;
  return parent?.type === "Property" && (parent.method === true || parent.kind !== "init");
}

/** A key of an object literal's method that holds no function: a name, a literal, `[name]` or `[a.b]`. */
function isPlainKey(key: Node): boolean {
  if (key.type === "Identifier" || key.type === "Literal") return true;
  return key.type === "MemberExpression" && (key.object as Node).type === "Identifier" &&
    (key.property as Node).type === "Identifier" && key.computed === false;
}

/**
 * How an object literal's method, `m(a) {…}`, is written as a property whose value is a function in parentheses, up to
 * its parameters: `m: (function (`. Undefined for getters, setters, class methods, methods that use `super` (only a
 * method may) and keys that are not plain.
 */
function asFunctionProperty(source: string, property: Node, value: Node): string | undefined {
  if (property.type !== "Property" || property.kind !== "init" || !property.method) return undefined;
  const key = property.key as Node;
  if (!isPlainKey(key)) return undefined;
  let usesSuper = false;
  walk(value, (node) => {
    if (node.type === "Super") usesSuper = true;
  });
  if (usesSuper) return undefined;
  const name = source.slice(key.start, key.end);
  return `${property.computed ? `[${name}]` : name}: (${value.async ? "async " : ""}function${
    value.generator ? "*" : ""
  } `;
}

/** Where declarations hoisted in `body` (a module's or a function body's statements) go: before the first statement
 * that is not an import or a directive. */
function hoistPoint(statements: Node[], fallback: number): number {
  const first = statements.find((s) =>
    s.type !== "ImportDeclaration" && !(s.type === "ExpressionStatement" && typeof s.directive === "string")
  );
  return first?.start ?? fallback;
}

/**
 * `source` (an ES module) rewritten so that V8 compiles its functions eagerly (see the module doc). With
 * `hoistTopLevel` false, the module's top-level function declarations stay declarations.
 *
 * @example
 * ```ts
 * eagerCompileSource("function f() { return [1].map((x) => x); }");
 * // 'var f = (function f() { return [1].map(((x) => x)); });'
 * ```
 */
export function eagerCompileSource(source: string, hoistTopLevel = true): string {
  return rewrite(source, parseModule(source), hoistTopLevel);
}

function parseModule(source: string): Node {
  return parse(source, { ecmaVersion: "latest", sourceType: "module", preserveParens: true }) as unknown as Node;
}

/** The files of the bundle `program` imports or re-exports from statically (`./x.js` as `x.js`). */
function staticImports(program: Node): string[] {
  return (program.body as Node[])
    .filter((s) => ["ImportDeclaration", "ExportNamedDeclaration", "ExportAllDeclaration"].includes(s.type))
    .map((s) => (s.source as Node | null)?.value)
    .filter((from): from is string => typeof from === "string" && from.startsWith("./"))
    .map((from) => from.slice(2));
}

/** One more parenthesis at `offset`. */
function increment(counts: Map<number, number>, offset: number): void {
  counts.set(offset, (counts.get(offset) ?? 0) + 1);
}

function rewrite(source: string, program: Node, hoistTopLevel: boolean): string {
  const opens = new Map<number, number>();
  const closes = new Map<number, number>();
  const hoistedTo = new Map<number, Hoisted[]>();
  const moved = new Map<number, Node>();
  // An object literal's method from its start to its parameters, and what replaces that.
  const replaced = new Map<number, { end: number; text: string }>();
  const functionBodies = new Set<Node>();
  walk(program, (node, parent) => {
    if (!FUNCTION_TYPES.has(node.type)) return;
    if (isNode(node.body) && node.body.type === "BlockStatement") functionBodies.add(node.body);
    if (node.type === "FunctionDeclaration") {
      const id = node.id as Node | null;
      const atModuleTop = parent === program && hoistTopLevel;
      if (!id || !parent || !(atModuleTop || functionBodies.has(parent))) return;
      const point = hoistPoint(parent.body as Node[], parent.end);
      const list = hoistedTo.get(point) ?? [];
      list.push({ node, name: id.name as string });
      hoistedTo.set(point, list);
      moved.set(node.start, node);
      return;
    }
    if (parent?.type === "ParenthesizedExpression") return;
    if (isMethod(parent)) {
      const property = asFunctionProperty(source, parent!, node);
      if (property !== undefined) {
        replaced.set(parent!.start, { end: node.start, text: property });
        increment(closes, node.end);
      }
      return;
    }
    increment(opens, node.start);
    increment(closes, node.end);
  });
  const edited = new Set([...opens.keys(), ...closes.keys(), ...hoistedTo.keys(), ...moved.keys(), ...replaced.keys()]);
  const offsets = [...edited].sort((a, b) => a - b);

  /** The first index of `offsets` at or after `offset`. */
  const firstAt = (offset: number): number => {
    let low = 0, high = offsets.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (offsets[mid] < offset) low = mid + 1;
      else high = mid;
    }
    return low;
  };

  /**
   * `source` from `start` to `end` with its edits. A declaration moved elsewhere is left out, unless it is `self`,
   * the one being rendered for where it moves to. Parentheses closed at `start` belong to what precedes the range,
   * those opened at `end` to what follows it.
   */
  const render = (start: number, end: number, self?: Node): string => {
    const out: string[] = [];
    let pos = start;
    // Where a declaration left out ends: what closes there is its own.
    let cutEnd = -1;
    for (let i = firstAt(start); i < offsets.length && offsets[i] <= end;) {
      const at = offsets[i++];
      out.push(source.slice(pos, at));
      pos = at;
      if (at > start && at !== cutEnd) out.push(")".repeat(closes.get(at) ?? 0));
      if (at === end) break;
      // Declarations hoisted to the start of a declaration being moved belong to the range it is moved from.
      for (const { node, name } of at === start && self ? [] : hoistedTo.get(at) ?? []) {
        out.push(`var ${name} = (`, render(node.start, node.end, node), ");\n");
      }
      const replacement = replaced.get(at);
      if (replacement) {
        out.push(replacement.text);
        pos = replacement.end;
        i = firstAt(replacement.end);
        continue;
      }
      const declaration = moved.get(at);
      if (declaration && declaration !== self) {
        pos = cutEnd = declaration.end;
        i = firstAt(declaration.end);
        continue;
      }
      out.push("(".repeat(opens.get(at) ?? 0));
    }
    out.push(source.slice(pos, end));
    return out.join("");
  };
  return render(0, source.length);
}

/** Rewrites every module of the bundle in `dir` with {@link eagerCompileSource}, in place. */
export async function eagerCompileDir(dir: string): Promise<void> {
  const modules = new Map<string, { source: string; program: Node }>();
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.isFile || !entry.name.endsWith(".js")) continue;
    const source = await Deno.readTextFile(`${dir}/${entry.name}`);
    try {
      modules.set(entry.name, { source, program: parseModule(source) });
    } catch (err) {
      // Syntax newer than the parser knows: the build stops, naming the module, rather than ship it unchanged.
      throw new Error(`eager compilation: cannot parse ${entry.name}: ${err instanceof Error ? err.message : err}`);
    }
  }
  const graph = new Map([...modules].map(([name, { program }]) => [name, staticImports(program)]));
  const cyclic = new Set(cycles(graph).flat());
  for (const [name, { source, program }] of modules) {
    await Deno.writeTextFile(`${dir}/${name}`, rewrite(source, program, !cyclic.has(name)));
  }
}
