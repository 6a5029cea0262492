/**
 * `$bsonSize` and `$binarySize`, which mingo lacks: sizes in bytes as MongoDB stores the value. Null and
 * missing (and undefined) answer null; another type fails with MongoDB's code (expression.cpp,
 * `ExpressionBsonSize::evaluate` 31393, `ExpressionBinarySize::evaluate` 51276).
 */
import { BSON } from 'bson';
import type { Binary } from 'bson';
import { evalExpr } from 'mingo/core';
import type { ExpressionOp } from './operator-types.js';
import { outsideSize } from './proto-alias.js';
import { bsonTag, bsonTypeName, isPlainObject } from './values.js';
import { CommandError } from '../errors.js';

/** The one argument of `{ $op: x }` or `{ $op: [x] }` (the parser has checked the count). */
const argument = (obj: unknown, expr: unknown, options: Parameters<ExpressionOp>[2]): unknown =>
  evalExpr(obj, Array.isArray(expr) ? expr[0] : expr, options);

/**
 * `$bsonSize`: the size of a document's BSON encoding, with a field the engine names
 * `PROTO_ALIAS` counted as the `__proto__` MongoDB stores (proto-alias.ts).
 * @throws CommandError 31393 "$bsonSize requires a document input, found: <type>".
 */
const bsonSize: ExpressionOp = (obj, expr, options) => {
  const value = argument(obj, expr, options);
  if (value === null || value === undefined) return null;
  if (!isPlainObject(value)) {
    throw new CommandError(31393, `$bsonSize requires a document input, found: ${bsonTypeName(value)}`);
  }
  return outsideSize(value, BSON.calculateObjectSize(value));
};

/**
 * `$binarySize`: a string's length in UTF-8 bytes, a binData's length in bytes.
 * @throws CommandError 51276 "$binarySize requires a string or BinData argument, found: <type>".
 */
const binarySize: ExpressionOp = (obj, expr, options) => {
  const value = argument(obj, expr, options);
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return Buffer.byteLength(value, 'utf8');
  if (bsonTag(value) === 'Binary') return (value as Binary).length();
  throw new CommandError(
    51276,
    `$binarySize requires a string or BinData argument, found: ${bsonTypeName(value)}`,
  );
};

/** The size operators, by name, for the engine's context. */
export const sizeExpressions: Record<string, ExpressionOp> = {
  $bsonSize: bsonSize,
  $binarySize: binarySize,
};
