/**
 * `$range` as MongoDB 7.0 evaluates it (ExpressionRange::evaluate in expression.cpp): every argument is
 * a number that fits 32 bits, the step is not zero, and an array that would take more than
 * `internalQueryMaxRangeBytes` (100 MiB by default, a `setParameter` knob; 16 bytes per element) is
 * refused before it is built. Without
 * that bound `{ $range: [0, 2 ** 40] }` grew one JS array until V8 aborted the whole process.
 */
import { evalExpr } from 'mingo/core';
import type { ExpressionOp } from './operator-types.js';
import { numberKind } from './arithmetic.js';
import { isIntegral32, numberOf } from './value-strings.js';
import { memoryLimits } from './memory-limits.js';
import { bsonTypeName } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** What MongoDB counts per element (`sizeof(Value)`) and for the array itself (`sizeof(std::vector)`). */
const ELEMENT_BYTES = 16;
const ARRAY_BYTES = 24;

/** One argument as an int32, or MongoDB's error: `codes` are [not numeric, not a 32-bit integer]. */
function int32Argument(value: unknown, what: string, codes: [number, number]): number {
  if (numberKind(value) === undefined) {
    const type = value === undefined ? 'missing' : bsonTypeName(value);
    // MongoDB's step message has no space after the colon.
    const gap = what === 'step' ? '' : ' ';
    throw new CommandError(
      codes[0],
      `$range requires a numeric ${what} value, found value of type:${gap}${type}`,
    );
  }
  if (!isIntegral32(value)) {
    throw new CommandError(
      codes[1],
      `$range requires a${what === 'ending' ? 'n' : ''} ${what} value that can be represented as a 32-bit integer, found value: ${String(value)}`,
    );
  }
  return numberOf(value);
}

/**
 * `{ $range: [start, end, step?] }`.
 * @throws CommandError 34443 to 34449 for arguments MongoDB refuses, ExceededMemoryLimit (146) for a
 *   range over `internalQueryMaxRangeBytes`; arity errors come from mingo's own `$range` (`fallback`), as before.
 */
export function rangeExpression(fallback: ExpressionOp): ExpressionOp {
  return (obj, expr, options) => {
    if (!Array.isArray(expr) || expr.length < 2 || expr.length > 3) return fallback(obj, expr, options);
    const args = evalExpr(obj, expr, options) as unknown[];
    const start = int32Argument(args[0], 'starting', [34443, 34444]);
    const end = int32Argument(args[1], 'ending', [34445, 34446]);
    const step = args.length === 3 ? int32Argument(args[2], 'step', [34447, 34448]) : 1;
    if (step === 0) throw new CommandError(34449, '$range requires a non-zero step value');
    const steps = Math.trunc((end - start) / step);
    const memNeeded = ARRAY_BYTES + (steps >= 0 ? 1 + steps : 0) * ELEMENT_BYTES;
    const limit = memoryLimits().knobs.internalQueryMaxRangeBytes;
    if (memNeeded >= limit) {
      throw new CommandError(
        ErrorCodes.ExceededMemoryLimit,
        `$range would use too much memory (${memNeeded} bytes) and cannot spill to disk. Memory limit: ${limit} bytes`,
      );
    }
    const out: number[] = [];
    for (let i = start; step > 0 ? i < end : i > end; i += step) out.push(i);
    return out;
  };
}
