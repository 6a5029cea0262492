/**
 * `$percentile` and `$median` (new in MongoDB 7.0), as expressions and as accumulators, computed as
 * MongoDB's discrete percentile (src/mongo/db/pipeline/percentile_algo_discrete.cpp): the numbers, of
 * any type, read as doubles, NaN left out, sorted; percentile `p` is the value at 0-based rank
 * `ceil(p * n) - 1` (the largest for p = 1); the results are doubles, null without a number.
 * As an expression (expression_from_accumulator_quantile.h) a number `input` is every percentile, an
 * array's numbers are ranked, anything else gives null. mingo sorted the numbers as strings (10 before
 * 9), answered ints, ignored longs and decimals and failed on a null `input`. MongoDB's accumulator
 * uses a t-digest whose answers can differ from the exact ones on large inputs.
 */
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';
import { overGroup, type AccumulatorOp, type ExpressionOp } from './operator-types.js';
import { numberKind } from './arithmetic.js';
import { collect } from './number-operators.js';
import { asDouble } from './numbers.js';
import { percentilesOf } from './percentile-p.js';
import { numberOf } from './value-strings.js';
import { isPlainObject } from './values.js';

/**
 * The percentiles `p` asks for; `$median` asks for 0.5. `p` is a constant (percentile-p.ts), evaluated
 * against no document, so it reads only the command's `let` variables.
 */
function percentilesFor(name: string, spec: Record<string, unknown>, options: Options): number[] {
  if (name === '$median') return [0.5];
  return percentilesOf(evalExpr({}, spec['p'], options));
}

/** The discrete percentiles `ps` of the numbers among `values`, as doubles (null for each without one). */
function discrete(values: unknown[], ps: number[]): unknown[] {
  const samples = values
    .filter((v) => numberKind(v) !== undefined)
    .map(numberOf)
    .filter((n) => !Number.isNaN(n))
    .sort((a, b) => a - b);
  const n = samples.length;
  return ps.map((p) => {
    if (n === 0) return null;
    const rank = p >= 1 ? n - 1 : Math.max(0, Math.ceil(n * p) - 1);
    return asDouble(samples[rank]!);
  });
}

/** `$median` is one value, `$percentile` the list. */
const resultOf = (name: string, results: unknown[]): unknown => (name === '$median' ? results[0] : results);

function quantileAccumulator(name: '$median' | '$percentile'): AccumulatorOp {
  return (collection, expr, options) => {
    const spec = isPlainObject(expr) ? expr : {};
    const ps = percentilesFor(name, spec, options);
    return resultOf(name, discrete(collect(collection, spec['input'], options), ps));
  };
}

function quantileExpression(name: '$median' | '$percentile'): ExpressionOp {
  return overGroup(quantileAccumulator(name), (obj, expr, options) => {
    const spec = isPlainObject(expr) ? expr : {};
    const ps = percentilesFor(name, spec, options);
    const input = evalExpr(obj, spec['input'], options);
    if (numberKind(input) !== undefined)
      return resultOf(
        name,
        ps.map(() => asDouble(numberOf(input))),
      );
    return resultOf(name, discrete(Array.isArray(input) ? input : [], ps));
  });
}

/** `$median`/`$percentile` expressions, to register over mingo's. */
export const percentileExpressions: Record<string, ExpressionOp> = {
  $median: quantileExpression('$median'),
  $percentile: quantileExpression('$percentile'),
};

/** `$median`/`$percentile` accumulators, to register over mingo's. */
export const percentileAccumulators: Record<string, AccumulatorOp> = {
  $median: quantileAccumulator('$median'),
  $percentile: quantileAccumulator('$percentile'),
};
