/**
 * The errors Flyte's workflow compiler collects, and the text FlyteAdmin answers with them: each error once,
 * sorted by code and then by text, under "Collected Errors: N".
 *
 * @module
 */

/** One compiler error: its code (`ParameterNotBound`, …), the node it is about and what is wrong. */
export interface CompileError {
  code: string;
  nodeId: string;
  description: string;
}

/** The errors of one compilation, each kept once. */
export class CompileErrors {
  readonly #errors = new Map<string, CompileError>();
  #collected = 0;

  /** Adds an error (again: kept once). */
  collect(code: string, nodeId: string, description: string): void {
    const error = { code, nodeId, description };
    this.#errors.set(errorText(error), error);
    this.#collected++;
  }

  /** How many distinct errors there are. */
  get size(): number {
    return this.#errors.size;
  }

  /**
   * How many errors were collected, each time counted: a check fails when it collects an error, even one already
   * collected elsewhere (the compiler's scopes count so), which {@link size} would not show.
   */
  get collected(): number {
    return this.#collected;
  }

  /**
   * The compiler's text of the errors.
   *
   * ```ts
   * import { CompileErrors } from "./compile_errors.ts";
   *
   * const errors = new CompileErrors();
   * errors.collect("ParameterNotBound", "n0", "Parameter not bound [a].");
   * console.log(errors.text()); // Collected Errors: 1\n\tError 0: Code: ParameterNotBound, Node Id: n0, …
   * ```
   */
  text(): string {
    const sorted = [...this.#errors.values()].sort((a, b) =>
      a.code !== b.code ? (a.code < b.code ? -1 : 1) : compare(errorText(a), errorText(b))
    );
    return `Collected Errors: ${sorted.length}\n` +
      sorted.map((error, i) => `\tError ${i}: ${errorText(error)}\n`).join("");
  }
}

const compare = (a: string, b: string) => a < b ? -1 : a > b ? 1 : 0;

function errorText(error: CompileError): string {
  return `Code: ${error.code}, Node Id: ${error.nodeId}, Description: ${error.description}`;
}
