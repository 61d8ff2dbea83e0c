/**
 * Kubernetes resource quantities (`500m`, `1Gi`, `1.5`, `2e3`) as FlyteAdmin reads a task's resources: parsed as
 * Kubernetes' ParseQuantity parses them (refusing with its words), compared on the rounded-up integers FlyteAdmin
 * compares (`Value()`, `MilliValue()`), and printed in the canonical form Kubernetes' `String()` prints.
 *
 * @module
 */

/** How Kubernetes prints a quantity: the kind of suffix it was written with. */
export type QuantityFormat = "DecimalSI" | "BinarySI" | "DecimalExponent";

/** A parsed quantity: exactly `unscaled` × 10^`exponent`. */
export interface Quantity {
  readonly unscaled: bigint;
  readonly exponent: number;
  readonly format: QuantityFormat;
  /**
   * Kubernetes keeps small quantities as a scaled int64 (rounding away from zero) and others as a big decimal
   * (rounding up, towards +infinity): the two round a negative fraction differently.
   */
  readonly big: boolean;
  /** The text as written, which Kubernetes prints as is when it is already canonical. */
  readonly text?: string;
}

/** Why a quantity does not parse, in Kubernetes' words. */
export class QuantityError extends Error {}

const SPLIT_PATTERN = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$";
const FORMAT_WRONG = `quantities must match the regular expression '${SPLIT_PATTERN}'`;
const NUMERIC = "unable to parse numeric part of quantity";
const SUFFIX = "unable to parse quantity's suffix";

const DECIMAL_SUFFIXES: Record<string, number> = {
  "n": -9,
  "u": -6,
  "m": -3,
  "": 0,
  "k": 3,
  "M": 6,
  "G": 9,
  "T": 12,
  "P": 15,
  "E": 18,
};
const BINARY_SUFFIXES: Record<string, number> = { "Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60 };
const SUFFIX_CHARS = "eEinumkKMGTP";
const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);
/** The smallest exponent a quantity keeps: finer values round up to a nano. */
const NANO = -9;

const isDigit = (ch: string | undefined) => ch !== undefined && ch >= "0" && ch <= "9";

interface Scanned {
  positive: boolean;
  /** The number as written, sign included. */
  value: string;
  /** The integer digits, leading zeros removed ("0" when none). */
  num: string;
  denom: string;
  suffix: string;
}

/** Kubernetes' parseQuantityString: splits a quantity into its number and its suffix. */
function scan(str: string): Scanned {
  let positive = true;
  let pos = 0;
  const end = str.length;
  if (str[0] === "-") {
    positive = false;
    pos++;
  } else if (str[0] === "+") pos++;
  while (pos < end && str[pos] === "0") pos++;
  if (pos >= end) return { positive, value: "0", num: "0", denom: "", suffix: "" };
  let i = pos;
  while (i < end && isDigit(str[i])) i++;
  if (i >= end) return { positive, value: str, num: str.slice(pos), denom: "", suffix: "" };
  const num = str.slice(pos, i) || "0";
  pos = i;
  let denom = "";
  if (str[pos] === ".") {
    pos++;
    let j = pos;
    while (j < end && isDigit(str[j])) j++;
    if (j >= end) return { positive, value: str, num, denom: str.slice(pos), suffix: "" };
    denom = str.slice(pos, j);
    pos = j;
  }
  const value = str.slice(0, pos);
  const suffixStart = pos;
  while (pos < end && SUFFIX_CHARS.includes(str[pos])) pos++;
  if (pos < end && (str[pos] === "-" || str[pos] === "+")) pos++;
  while (pos < end && isDigit(str[pos])) pos++;
  if (pos < end) throw new QuantityError(FORMAT_WRONG);
  return { positive, value, num, denom, suffix: str.slice(suffixStart) };
}

/** What a suffix means: its base, its power of that base and the format it gives. */
function interpret(suffix: string): { base: 2 | 10; exponent: number; format: QuantityFormat } | undefined {
  if (Object.hasOwn(DECIMAL_SUFFIXES, suffix)) {
    return { base: 10, exponent: DECIMAL_SUFFIXES[suffix], format: "DecimalSI" };
  }
  if (Object.hasOwn(BINARY_SUFFIXES, suffix)) return { base: 2, exponent: BINARY_SUFFIXES[suffix], format: "BinarySI" };
  if (suffix.length > 1 && (suffix[0] === "e" || suffix[0] === "E") && /^[+-]?[0-9]+$/.test(suffix.slice(1))) {
    const parsed = BigInt(suffix.slice(1));
    // Go parses the exponent as an int64 and keeps it as an int32.
    if (parsed < INT64_MIN || parsed > INT64_MAX) return undefined;
    return { base: 10, exponent: Number(BigInt.asIntN(32, parsed)), format: "DecimalExponent" };
  }
  return undefined;
}

/**
 * Parses `text` as Kubernetes' ParseQuantity does, or throws {@link QuantityError} with its message.
 *
 * ```ts
 * import { parseQuantity, quantityString } from "./k8s_quantity.ts";
 *
 * console.log(quantityString(parseQuantity("1.5"))); // 1500m
 * ```
 */
export function parseQuantity(text: string): Quantity {
  if (text === "") throw new QuantityError(FORMAT_WRONG);
  if (text === "0") return { unscaled: 0n, exponent: 0, format: "DecimalSI", big: false, text };
  const { positive, value, num, denom, suffix } = scan(text);
  const meaning = interpret(suffix);
  if (!meaning) throw new QuantityError(SUFFIX);
  const { base, exponent, format } = meaning;

  // The fast path: a number of at most 18 digits that stays an int64.
  let precision: number;
  let scale = 0;
  let mantissa = 1n;
  if (format !== "BinarySI") {
    scale = exponent;
    precision = 18 - (num.length + denom.length);
  } else if (exponent >= 0 && denom === "") {
    mantissa = 1n << BigInt(exponent);
    precision = 15 - num.length - Math.trunc(exponent * 3 / 10) - 1;
  } else {
    precision = -1;
  }
  if (precision >= 0) {
    scale = (scale - denom.length) | 0;
    if (scale >= NANO) {
      const shifted = num + denom;
      const digits = BigInt(shifted);
      const result = digits * mantissa;
      if (result <= INT64_MAX) {
        const canonical = format === "BinarySI"
          ? exponent % 10 === 0 && (digits & 7n) !== 0n
          : scale % 3 === 0 && !shifted.endsWith("000") && shifted[0] !== "0";
        return {
          unscaled: positive ? result : -result,
          exponent: scale,
          format,
          big: false,
          ...(canonical ? { text } : {}),
        };
      }
    }
  }

  // The slow path: an exact decimal, rounded up to a nano, a binary one capped at 2^63-1.
  const parts = /^([+-]?)([0-9]*)(?:\.([0-9]*))?$/.exec(value);
  if (!parts || (parts[2] === "" && (parts[3] ?? "") === "")) throw new QuantityError(NUMERIC);
  const fraction = parts[3] ?? "";
  let unscaled = BigInt(`${parts[1]}${parts[2]}${fraction}`);
  let scaleExponent = -fraction.length;
  if (base === 10) scaleExponent += exponent;
  else unscaled *= 1n << BigInt(exponent);
  if (unscaled !== 0n && scaleExponent < NANO) {
    const negative = unscaled < 0n;
    const magnitude = negative ? -unscaled : unscaled;
    const drop = NANO - scaleExponent;
    // Dropping more digits than the number has leaves a single nano.
    let rounded = 1n;
    if (drop <= magnitude.toString().length) {
      const divisor = 10n ** BigInt(drop);
      rounded = magnitude / divisor + (magnitude % divisor === 0n ? 0n : 1n);
    }
    unscaled = negative ? -rounded : rounded;
    scaleExponent = NANO;
  }
  let parsedFormat = format;
  if (format === "BinarySI") {
    const quantity = { unscaled, exponent: scaleExponent };
    if (compare(quantity, INT64_MAX) > 0) [unscaled, scaleExponent] = [INT64_MAX, 0];
    if (compare(quantity, 1n) < 0 && compare(quantity, 0n) > 0) parsedFormat = "DecimalSI";
  }
  return { unscaled, exponent: scaleExponent, format: parsedFormat, big: true };
}

/** Compares unscaled × 10^exponent with an integer of int64 size. */
function compare(quantity: Pick<Quantity, "unscaled" | "exponent">, other: bigint): number {
  const { unscaled, exponent } = quantity;
  let left = unscaled;
  let right = other;
  if (exponent >= 0) {
    // Beyond 10^40 the quantity outweighs any int64.
    if (exponent > 40 && unscaled !== 0n) return unscaled > 0n ? 1 : -1;
    left = unscaled * 10n ** BigInt(exponent);
  } else {
    right = other * 10n ** BigInt(-exponent);
  }
  return left === right ? 0 : left > right ? 1 : -1;
}

/**
 * Kubernetes' `ScaledValue`: the quantity in units of 10^`scale`, rounded up. Simplified: Kubernetes leaves a
 * value beyond int64 undefined (it wraps or gives 0); here it stays exact up to 10^40 and is clamped beyond.
 */
export function scaledValue(quantity: Quantity, scale: number): bigint {
  const { unscaled } = quantity;
  const shift = quantity.exponent - scale;
  if (shift >= 0) {
    const clamped = Math.min(shift, 40);
    return unscaled * 10n ** BigInt(clamped);
  }
  const divisor = 10n ** BigInt(-shift);
  const quotient = unscaled / divisor; // truncates towards zero
  if (unscaled % divisor === 0n) return quotient;
  // The int64 form rounds away from zero, the big decimal form towards +infinity.
  if (unscaled > 0n) return quotient + 1n;
  return quantity.big ? quotient : quotient - 1n;
}

/**
 * Kubernetes' `Value()`: the quantity rounded up to an integer.
 *
 * ```ts
 * import { parseQuantity, quantityValue } from "./k8s_quantity.ts";
 *
 * console.log(quantityValue(parseQuantity("1500m"))); // 2n
 * ```
 */
export function quantityValue(quantity: Quantity): bigint {
  return scaledValue(quantity, 0);
}

/** Kubernetes' `MilliValue()`: the quantity in thousandths, rounded up. */
export function quantityMilliValue(quantity: Quantity): bigint {
  return scaledValue(quantity, -3);
}

const DECIMAL_BY_EXPONENT = new Map(Object.entries(DECIMAL_SUFFIXES).map(([suffix, exponent]) => [exponent, suffix]));
const BINARY_BY_POWER = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"];

/**
 * Kubernetes' `String()`: the text as written when it is already canonical, otherwise the canonical form: no
 * fractional digits, the largest suffix of the quantity's kind that loses nothing (`1.5` → `1500m`, `2000` → `2k`,
 * `1.5Gi` → `1536Mi`, `1024Mi` → `1Gi`), a binary quantity under 1024 or with a fraction printed as a decimal one.
 *
 * ```ts
 * import { parseQuantity, quantityString } from "./k8s_quantity.ts";
 *
 * console.log(quantityString(parseQuantity("1024Mi"))); // 1Gi
 * ```
 */
export function quantityString(quantity: Quantity): string {
  if (quantity.text !== undefined) return quantity.text;
  let { unscaled, exponent } = quantity;
  if (unscaled === 0n) return "0";
  let format = quantity.format;
  if (format === "BinarySI") {
    const small = compare(quantity, -1024n) > 0 && compare(quantity, 1024n) < 0;
    const whole = exponent >= 0 || unscaled % 10n ** BigInt(-exponent) === 0n;
    if (small || !whole) format = "DecimalSI";
  }
  if (format === "BinarySI") {
    // Whole and below 2^63 here: Kubernetes caps a binary quantity when it parses it.
    let value = scaledValue(quantity, 0);
    let power = 0;
    while (value % 1024n === 0n && power < BINARY_BY_POWER.length - 1) {
      value /= 1024n;
      power++;
    }
    return `${value}${BINARY_BY_POWER[power]}`;
  }
  while (unscaled % 10n === 0n) {
    unscaled /= 10n;
    exponent++;
  }
  while (exponent % 3 !== 0) {
    unscaled *= 10n;
    exponent--;
  }
  const decimal = format === "DecimalSI" ? DECIMAL_BY_EXPONENT.get(exponent) : undefined;
  if (decimal !== undefined) return `${unscaled}${decimal}`;
  return exponent === 0 ? `${unscaled}` : `${unscaled}e${exponent}`;
}
