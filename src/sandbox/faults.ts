/**
 * Fault injection for RPCs, and the latency setting the sandbox applies to each, so retry, timeout and
 * error paths of clients can be tested deterministically against a real server.
 *
 * @module
 */
import { Code, ConnectError } from "@connectrpc/connect";

/**
 * A method name such as `ListTasks`, or `*` for every method.
 *
 * ```ts
 * import { type MethodPattern, startSandbox } from "@fctl/fctl/testing";
 * import { Code } from "@fctl/fctl/types";
 *
 * const sandbox = await startSandbox();
 * const everyMethod: MethodPattern = "*";
 * sandbox.failRatio(everyMethod, Code.Unavailable, 0.5); // every other call fails
 * sandbox.failNext("CreateTask", Code.ResourceExhausted, 2);
 * sandbox.clearFaults();
 * await sandbox.close();
 * ```
 */
export type MethodPattern = string;

interface NextRule {
  method: MethodPattern;
  code: Code;
  remaining: number;
}

interface RatioRule {
  code: Code;
  ratio: number;
  /** Matching calls seen so far. */
  calls: number;
}

/** Decides, per call, whether to fail it; all rules are deterministic. */
export class FaultInjector {
  /** Delay added before every RPC is handled. */
  latencyMs = 0;
  #next: NextRule[] = [];
  #ratios = new Map<MethodPattern, RatioRule>();

  /** Fails the next `count` calls of `method` with `code`, in the order rules were added. */
  failNext(method: MethodPattern, code: Code, count = 1): void {
    if (!Number.isInteger(count) || count < 1) throw new RangeError(`count must be a positive integer, got ${count}`);
    this.#next.push({ method, code, remaining: count });
  }

  /**
   * Fails a `ratio` (0..1) of calls of `method` with `code`, spread evenly and starting with a failure:
   * 0.5 fails calls 1, 3, 5…; 1/3 fails calls 1, 4, 7…. A ratio of 0 removes the rule.
   */
  failRatio(method: MethodPattern, code: Code, ratio: number): void {
    if (!(ratio >= 0 && ratio <= 1)) throw new RangeError(`ratio must be between 0 and 1, got ${ratio}`);
    if (ratio === 0) this.#ratios.delete(method);
    else this.#ratios.set(method, { code, ratio, calls: 0 });
  }

  /** Removes every rule (latency stays). */
  clear(): void {
    this.#next = [];
    this.#ratios.clear();
  }

  /** The injected error for this call of `method`, or undefined to let it through. */
  check(method: string): ConnectError | undefined {
    const code = this.#takeNext(method) ?? this.#takeRatio(method);
    if (code === undefined) return undefined;
    return new ConnectError(`sandbox: injected ${Code[code]} for ${method}`, code);
  }

  #takeNext(method: string): Code | undefined {
    const rule = this.#next.find((r) => r.method === method || r.method === "*");
    if (!rule) return undefined;
    rule.remaining--;
    if (rule.remaining === 0) this.#next.splice(this.#next.indexOf(rule), 1);
    return rule.code;
  }

  #takeRatio(method: string): Code | undefined {
    const rule = this.#ratios.get(method) ?? this.#ratios.get("*");
    if (!rule) return undefined;
    const n = rule.calls++;
    // Call n fails when the running quota ceil(k * ratio) grows; the epsilon absorbs float error (0.7 * 10).
    const quota = (k: number) => Math.ceil(k * rule.ratio - 1e-9);
    return quota(n + 1) > quota(n) ? rule.code : undefined;
  }
}
