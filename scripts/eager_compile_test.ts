/**
 * The bundle's rewrite for eager compilation keeps what its code does, leaves no function but methods outside
 * parentheses, keeps the declarations of modules in an import cycle, and has V8 take the functions from Deno's code
 * cache.
 */
import { deepEqual as assertEquals, ok as assert } from "node:assert/strict";
import { parse } from "acorn";
import { eagerCompileDir, eagerCompileSource } from "./eager_compile.ts";

/** A module with every form of function, each used in a way that would show a change of meaning. */
const SAMPLE = `
export const early = later(1);
function later(x) { return helper(x) + 1; }
function helper(x) { return x * 10; }
async function asyncDeclaration(x) { return x + 1; }
function* generator() { yield 1; yield 2; }
const arrow = (x) => x + 2;
const anonymous = function () { return "anonymous"; };
const nested = function outer(x) {
  return inner(x);
  function inner(y) { "use strict"; return [y].map((z) => z * 3)[0]; }
};
function withDirective() {
  "use strict";
  return typeof hoistedInside;
  function hoistedInside() {}
}
class Counter {
  #count = 0;
  step = () => ++this.#count;
  constructor(start) { this.#count = start; }
  get count() { return this.#count; }
  static make() { return new Counter(5); }
}
const object = {
  method() { return "method"; },
  get value() { return 7; },
  field: () => "field",
  *generate() { yield 3; },
  async later() { return 4; },
  [Symbol.iterator]() { return [5].values(); },
  toString() { return "s" + super.toString().length; },
};
function usesThis() { return this?.tag; }
export default () => "default";
export const results = {
  early,
  asyncValue: await asyncDeclaration(1),
  generated: [...generator()],
  arrow: arrow(1),
  names: [later.name, arrow.name, anonymous.name, nested.name, Counter.make.name, object.field.name],
  nested: nested(2),
  directive: withDirective(),
  counter: (() => { const c = Counter.make(); c.step(); return c.count; })(),
  object: [object.method(), object.value, object.field(), [...object.generate()], await object.later(), [...object]],
  objectNames: [object.method.name, object.generate.name, object.later.name, object[Symbol.iterator].name],
  superCall: object.toString(),
  thisValue: usesThis.call({ tag: "t" }),
  functionCount: [later, helper, asyncDeclaration, generator].map((f) => f.length),
};
`;

async function importSource(source: string): Promise<Record<string, unknown>> {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/module.js`, source);
    return await import(`file://${dir}/module.js`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("eagerCompileSource keeps what every form of function does", async () => {
  const before = await importSource(SAMPLE);
  const after = await importSource(eagerCompileSource(SAMPLE));
  assertEquals(after.results, before.results);
  assertEquals((after.default as () => string)(), "default");
  assertEquals((after.default as () => string).name, "default");
  assertEquals(before.results, {
    early: 11,
    asyncValue: 2,
    generated: [1, 2],
    arrow: 3,
    names: ["later", "arrow", "anonymous", "outer", "make", "field"],
    nested: 6,
    directive: "function",
    counter: 6,
    object: ["method", 7, "field", [3], 4, [5]],
    objectNames: ["method", "generate", "later", "[Symbol.iterator]"],
    superCall: "s15",
    thisValue: "t",
    functionCount: [1, 1, 1, 0],
  });
});

interface Node {
  type: string;
  [field: string]: unknown;
}

/** The function literals of `source` V8 compiles lazily: those not in parentheses but the methods that have no other
 * form (getters, setters, constructors, class methods and the object literal methods that use `super`). */
function lazyFunctions(source: string): string[] {
  const program = parse(source, { ecmaVersion: "latest", sourceType: "module", preserveParens: true });
  const lazy: string[] = [];
  const visit = (node: Node, parent?: Node) => {
    const isMethod = parent?.type === "MethodDefinition" ||
      (parent?.type === "Property" && (parent.kind !== "init" ||
        (parent.method === true && source.slice(node.start as number, node.end as number).includes("super"))));
    if (node.type === "FunctionDeclaration") lazy.push(String((node.id as Node | null)?.name));
    else if (/Function/.test(node.type) && parent?.type !== "ParenthesizedExpression" && !isMethod) {
      lazy.push(source.slice(node.start as number, node.end as number));
    }
    for (const value of Object.values(node)) {
      for (const child of Array.isArray(value) ? value : [value]) {
        if (typeof child === "object" && child !== null && typeof child.type === "string") visit(child, node);
      }
    }
  };
  visit(program as unknown as Node);
  return lazy;
}

Deno.test("eagerCompileSource leaves no function literal but methods outside parentheses", () => {
  assert(lazyFunctions(SAMPLE).length > 10);
  assertEquals(lazyFunctions(eagerCompileSource(SAMPLE)), []);
});

Deno.test("eagerCompileSource hoists declarations where they were hoisted to: after imports and directives", () => {
  const source =
    'import { a } from "./a.js";\nexport const b = f();\nfunction f() { "use strict"; return g(); function g() { return a; } }\n';
  assertEquals(
    eagerCompileSource(source),
    'import { a } from "./a.js";\nvar f = (function f() { "use strict"; var g = (function g() { return a; });\n' +
      "return g();  });\nexport const b = f();\n\n",
  );
});

Deno.test("eagerCompileSource without hoistTopLevel keeps the module's own declarations", () => {
  assertEquals(
    eagerCompileSource("export function e() {}\nfunction f() { return () => 1; }\n", false),
    "export function e() {}\nfunction f() { return (() => 1); }\n",
  );
});

Deno.test("eagerCompileDir keeps the declarations of modules in an import cycle, which the cycle may call early", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/a.js`,
      'import { b } from "./b.js";\nexport function a() { return 1; }\nexport const x = b();\n',
    );
    await Deno.writeTextFile(
      `${dir}/b.js`,
      'import { a } from "./a.js";\nfunction b() { return a(); }\nexport { b };\n',
    );
    await Deno.writeTextFile(
      `${dir}/c.js`,
      'import { a } from "./a.js";\nfunction c() { return a(); }\nexport { c };\n',
    );
    await eagerCompileDir(dir);
    assertEquals((await import(`file://${dir}/c.js`)).c(), 1);
    assertEquals(lazyFunctions(await Deno.readTextFile(`${dir}/c.js`)), []);
    assertEquals(lazyFunctions(await Deno.readTextFile(`${dir}/b.js`)), ["b"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** The functions of `file` V8 compiled lazily in a second run of it (the first filled Deno's code cache). */
async function lazilyCompiled(dir: string, file: string): Promise<string[]> {
  const log = `${dir}/v8.log`;
  const run = () =>
    new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-config",
        `--v8-flags=--log-function-events,--logfile=${log},--no-logfile-per-isolate`,
        `${dir}/${file}`,
      ],
      env: { DENO_DIR: `${dir}/deno_dir` },
      stdout: "null",
      stderr: "piped",
    }).output();
  const first = await run();
  assert(first.success, new TextDecoder().decode(first.stderr));
  await run();
  const lines = (await Deno.readTextFile(log)).split("\n").map((line) => line.split(","));
  const scripts = new Set(
    lines.filter((f) => f[0] === "script-details" && f[2]?.endsWith(`/${file}`)).map((f) => f[1]),
  );
  return lines.filter((f) => f[0] === "function" && f[1] === "parse-function" && scripts.has(f[2])).map((f) => f[7]);
}

Deno.test("V8 takes the rewritten module's functions from Deno's code cache instead of compiling them on first call", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const source = "function twice(x) { return [x].map((y) => y * 2)[0]; }\n" +
      "const add = function add(a, b) { return a + b; };\n" +
      "class Box { get value() { return 1; } }\n" +
      "const object = { method() { return 3; } };\n" +
      "console.log(twice(2), add(1, 2), new Box().value, object.method());\n";
    await Deno.writeTextFile(`${dir}/lazy.js`, source);
    await Deno.writeTextFile(`${dir}/eager.js`, eagerCompileSource(source));
    assertEquals((await lazilyCompiled(dir, "lazy.js")).sort(), ["", "Box", "add", "get value", "method", "twice"]);
    // The class's constructor and getter have no form in parentheses.
    assertEquals((await lazilyCompiled(dir, "eager.js")).sort(), ["Box", "get value"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("eagerCompileDir names a module it cannot parse", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/broken.js`, "export const x = ;\n");
    const error = await eagerCompileDir(dir).then(() => undefined, (err: Error) => err);
    assert(error?.message.startsWith("eager compilation: cannot parse broken.js: "), error?.message);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
