/**
 * `$bucketAuto`'s `granularity`: rounding bucket boundaries up and down to a preferred number series
 * (Renard R5–R80, E6–E192, 1-2-5, each scaled by powers of 10) or to powers of two, as MongoDB 7.0's
 * granularity_rounder_preferred_numbers.cpp and granularity_rounder_powers_of_two.cpp do. Rounding up
 * gives the smallest series number strictly greater than the value, rounding down the largest strictly
 * smaller one. Doubles are scaled in doubles and decimals in decimals, step by step as the server does,
 * so that boundaries come out with the same bits (`0.63` is `63 × 0.01`, after 1 ÷ 10 ÷ 10).
 */
import { Decimal128, Double } from 'bson';
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';
import { divideDecimal, multiply, numberKind } from './arithmetic.js';
import { compareBson } from './compare.js';
import { asDouble } from './numbers.js';
import { typeName } from './value-strings.js';
import { CommandError } from '../errors.js';

/** Rounds a bucket boundary to the granularity's series. */
export interface GranularityRounder {
  roundUp(value: unknown): unknown;
  roundDown(value: unknown): unknown;
}

const SERIES: Record<string, readonly number[]> = {
  R5: [10, 16, 25, 40, 63],
  R10: [100, 125, 160, 200, 250, 315, 400, 500, 630, 800],
  R20: [100, 112, 125, 140, 160, 180, 200, 224, 250, 280, 315, 355, 400, 450, 500, 560, 630, 710, 800, 900],
  R40: [
    100, 106, 112, 118, 125, 132, 140, 150, 160, 170, 180, 190, 200, 212, 224, 236, 250, 265, 280, 300, 315,
    355, 375, 400, 425, 450, 475, 500, 530, 560, 600, 630, 670, 710, 750, 800, 850, 900, 950,
  ],
  R80: [
    103, 109, 115, 122, 128, 136, 145, 155, 165, 175, 185, 195, 206, 218, 230, 243, 258, 272, 290, 307, 325,
    345, 365, 387, 412, 437, 462, 487, 515, 545, 575, 615, 650, 690, 730, 775, 825, 875, 925, 975,
  ],
  '1-2-5': [10, 20, 50],
  E6: [10, 15, 22, 33, 47, 68],
  E12: [10, 12, 15, 18, 22, 27, 33, 39, 47, 56, 68, 82],
  E24: [10, 11, 12, 13, 15, 16, 18, 20, 22, 24, 27, 30, 33, 36, 39, 43, 47, 51, 56, 62, 68, 75, 82, 91],
  E48: [
    100, 105, 110, 115, 121, 127, 133, 140, 147, 154, 162, 169, 178, 187, 196, 205, 215, 226, 237, 249, 261,
    274, 287, 301, 316, 332, 348, 365, 383, 402, 422, 442, 464, 487, 511, 536, 562, 590, 619, 649, 681, 715,
    750, 787, 825, 866, 909, 953,
  ],
  E96: [
    100, 102, 105, 107, 110, 113, 115, 118, 121, 124, 127, 130, 133, 137, 140, 143, 147, 150, 154, 158, 162,
    165, 169, 174, 178, 182, 187, 191, 196, 200, 205, 210, 215, 221, 226, 232, 237, 243, 249, 255, 261, 267,
    274, 280, 287, 294, 301, 309, 316, 324, 332, 340, 348, 357, 365, 374, 383, 392, 402, 412, 422, 432, 442,
    453, 464, 475, 487, 499, 511, 523, 536, 549, 562, 576, 590, 604, 619, 634, 649, 665, 681, 698, 715, 732,
    750, 768, 787, 806, 825, 845, 866, 887, 909, 931, 953, 976,
  ],
  E192: [
    100, 101, 102, 104, 105, 106, 107, 109, 110, 111, 113, 114, 115, 117, 118, 120, 121, 123, 124, 126, 127,
    129, 130, 132, 133, 135, 137, 138, 140, 142, 143, 145, 147, 149, 150, 152, 154, 156, 158, 160, 162, 164,
    165, 167, 169, 172, 174, 176, 178, 180, 182, 184, 187, 189, 191, 193, 196, 198, 200, 203, 205, 208, 210,
    213, 215, 218, 221, 223, 226, 229, 232, 234, 237, 240, 243, 246, 249, 252, 255, 258, 261, 264, 267, 271,
    274, 277, 280, 284, 287, 291, 294, 298, 301, 305, 309, 312, 316, 320, 324, 328, 332, 336, 340, 344, 348,
    352, 357, 361, 365, 370, 374, 379, 383, 388, 392, 397, 402, 407, 412, 417, 422, 427, 432, 437, 442, 448,
    453, 459, 464, 470, 475, 481, 487, 493, 499, 505, 511, 517, 523, 530, 536, 542, 549, 556, 562, 569, 576,
    583, 590, 597, 604, 612, 619, 626, 634, 642, 649, 657, 665, 673, 681, 690, 698, 706, 715, 723, 732, 741,
    750, 759, 768, 777, 787, 796, 806, 816, 825, 835, 845, 856, 866, 876, 887, 898, 909, 920, 931, 942, 953,
    965, 976, 988,
  ],
};

/**
 * The numbers a series is scaled in: JS doubles, or decimals (each series number converted from its
 * double at 15 significant digits, as `Decimal128(double)` converts it).
 */
interface Scale<N> {
  one: N;
  times(seriesNumber: number, multiplier: N): N;
  up(multiplier: N): N;
  down(multiplier: N): N;
  isZero(multiplier: N): boolean;
  compare(a: N, b: N): number;
  result(n: N): unknown;
}

const doubles: Scale<number> = {
  one: 1,
  times: (s, m) => s * m,
  up: (m) => m * 10,
  down: (m) => m / 10,
  isZero: (m) => m === 0,
  compare: (a, b) => a - b,
  result: asDouble,
};

const TEN = Decimal128.fromString('10');
const decimals: Scale<unknown> = {
  one: Decimal128.fromString('1'),
  times: (s, m) => multiply([new Double(s), m]),
  up: (m) => multiply([m, TEN]),
  down: (m) => divideDecimal(m, 10),
  isZero: (m) => compareBson(m, 0) === 0,
  compare: (a, b) => compareBson(a, b),
  result: (n) => n,
};

/**
 * MongoDB's checks of a value to round (40262/40263/40268 for a series, 40265–40267 for powers of
 * two), plus one of ours: an infinite value, where the server's scaling loops never end.
 */
function checkRoundable(value: unknown, codes: readonly [number, number, number]): number {
  if (numberKind(value) === undefined)
    throw new CommandError(
      codes[0],
      `A granularity rounder can only round numeric values, but found type: ${typeName(value)}`,
    );
  const n = Number(String(value));
  if (Number.isNaN(n)) throw new CommandError(codes[1], 'A granularity rounder cannot round NaN');
  if (n < 0) throw new CommandError(codes[2], 'A granularity rounder can only round non-negative numbers');
  if (!Number.isFinite(n)) throw new CommandError(codes[1], 'A granularity rounder cannot round infinity');
  return n;
}

const SERIES_CODES = [40262, 40263, 40268] as const;

function seriesRounder(series: readonly number[]): GranularityRounder {
  const first = series[0]!;
  const last = series[series.length - 1]!;
  function roundUp<N>(number: N, s: Scale<N>): unknown {
    let m = s.one;
    while (s.compare(number, s.times(last, m)) >= 0) m = s.up(m);
    while (s.compare(number, s.times(first, m)) < 0) {
      const previousMin = s.times(first, m);
      m = s.down(m);
      if (s.compare(number, s.times(last, m)) >= 0) return s.result(previousMin);
    }
    const next = series.find((x) => s.compare(number, s.times(x, m)) < 0)!;
    return s.result(s.times(next, m));
  }
  function roundDown<N>(number: N, s: Scale<N>): unknown {
    let m = s.one;
    while (!s.isZero(m) && s.compare(number, s.times(first, m)) <= 0) m = s.down(m);
    // A value below the smallest multiplier (a subnormal double) rounds down to zero.
    if (s.isZero(m)) return s.result(m);
    while (s.compare(number, s.times(last, m)) > 0) {
      const previousMax = s.times(last, m);
      m = s.up(m);
      if (s.compare(number, s.times(first, m)) <= 0) return s.result(previousMax);
    }
    const index = series.findIndex((x) => s.compare(s.times(x, m), number) >= 0);
    return s.result(s.times(series[index - 1]!, m));
  }
  return {
    roundUp(value) {
      if (checkRoundable(value, SERIES_CODES) === 0) return value;
      return numberKind(value) === 'decimal'
        ? roundUp(value, decimals)
        : roundUp(Number(String(value)), doubles);
    },
    roundDown(value) {
      if (checkRoundable(value, SERIES_CODES) === 0) return value;
      return numberKind(value) === 'decimal'
        ? roundDown(value, decimals)
        : roundDown(Number(String(value)), doubles);
    },
  };
}

const POWER_CODES = [40265, 40266, 40267] as const;

/**
 * Rounds to powers of two: the exponent from `log2` for doubles and decimals, from the bits for integers,
 * then `$pow: [2, exponent]`, so that the result has the type `$pow` gives (an int or long for whole
 * powers, a double below 1, a decimal for a decimal).
 */
function powersOfTwoRounder(options: Options): GranularityRounder {
  const power = (exponent: unknown): unknown => evalExpr({}, { $pow: [2, { $literal: exponent }] }, options);
  const exponentOf = (value: unknown, n: number, up: boolean): unknown => {
    const kind = numberKind(value);
    if (kind === 'int' || kind === 'long') {
      const bits = BigInt(String(value)).toString(2).length;
      const isPower = (BigInt(String(value)) & (BigInt(String(value)) - 1n)) === 0n;
      return up ? bits : isPower ? bits - 2 : bits - 1;
    }
    const log = Math.log2(n);
    const exponent = up ? Math.floor(log) + 1 : Math.ceil(log) - 1;
    return kind === 'decimal' ? Decimal128.fromString(String(exponent)) : exponent;
  };
  return {
    roundUp(value) {
      const n = checkRoundable(value, POWER_CODES);
      return n === 0 ? value : power(exponentOf(value, n, true));
    },
    roundDown(value) {
      const n = checkRoundable(value, POWER_CODES);
      return n === 0 ? value : power(exponentOf(value, n, false));
    },
  };
}

/**
 * The rounder for a `granularity` name.
 * @throws CommandError 40257 "Unknown rounding granularity 'X'" for a name MongoDB does not know.
 */
export function granularityRounder(name: string, options: Options): GranularityRounder {
  if (name === 'POWERSOF2') return powersOfTwoRounder(options);
  const series = Object.hasOwn(SERIES, name) ? SERIES[name] : undefined;
  if (series === undefined) throw new CommandError(40257, `Unknown rounding granularity '${name}'`);
  return seriesRounder(series);
}
