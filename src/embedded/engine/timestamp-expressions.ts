/**
 * `$tsSecond` and `$tsIncrement` (MongoDB 5.1+): the seconds and the increment of a BSON timestamp, as
 * longs; null for a nullish argument, and 5687301/5687302 for anything else (the message's leading
 * space is MongoDB's own). mingo has neither, so a pipeline naming them was refused as unknown.
 */
import { Long } from 'bson';
import type { Timestamp } from 'bson';
import { evalExpr } from 'mingo/core';
import type { ExpressionOp } from './operator-types.js';
import { isNullish, typeName } from './value-strings.js';
import { bsonTag } from './values.js';
import { CommandError } from '../errors.js';

function timestampPart(name: string, code: number, part: (ts: Timestamp) => number): ExpressionOp {
  return (obj, expr, options) => {
    const value = evalExpr(obj, Array.isArray(expr) ? (expr[0] as unknown) : expr, options);
    if (isNullish(value)) return null;
    if (bsonTag(value) !== 'Timestamp')
      throw new CommandError(code, ` Argument to ${name} must be a timestamp, but is ${typeName(value)}`);
    return Long.fromNumber(part(value as Timestamp));
  };
}

/** The timestamp expressions, to register in the engine's context. */
export const timestampExpressions: Record<string, ExpressionOp> = {
  $tsSecond: timestampPart('$tsSecond', 5687301, (ts) => ts.getHighBitsUnsigned()),
  $tsIncrement: timestampPart('$tsIncrement', 5687302, (ts) => ts.getLowBitsUnsigned()),
};
