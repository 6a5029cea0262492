/**
 * `$bsonSize` and `$binarySize`, which mingo lacks: sizes in bytes as MongoDB stores the value. Null and
 * missing (and undefined) answer null; another type fails with MongoDB's code (expression.cpp,
 * `ExpressionBsonSize::evaluate` 31393, `ExpressionBinarySize::evaluate` 51276).
 */
import type { Binary } from 'bson';
import { evalExpr } from 'mingo/core';
import type { ExpressionOp } from './operator-types.js';
import { writableSize } from './limits.js';
import { bsonTag, bsonTypeName, isPlainObject } from './values.js';
import { CommandError } from '../errors.js';

/** The one argument of `{ $op: x }` or `{ $op: [x] }` (the parser has checked the count). */
const argument = (obj: unknown, expr: unknown, options: Parameters<ExpressionOp>[2]): unknown =>
  evalExpr(obj, Array.isArray(expr) ? expr[0] : expr, options);

/**
 * `$bsonSize` of `value`: the size of a document's BSON encoding, with a field the engine names
 * `PROTO_ALIAS` counted as the `__proto__` MongoDB stores (proto-alias.ts).
 * @throws CommandError 31393 "$bsonSize requires a document input, found: <type>"; 13548 past 64 MiB.
 */
function bsonSize(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  if (!isPlainObject(value)) {
    throw new CommandError(31393, `$bsonSize requires a document input, found: ${bsonTypeName(value)}`);
  }
  // MongoDB writes the document as BSON to measure it, which fails past 64 MiB (13548).
  return writableSize(value);
}

/**
 * `$binarySize` of `value`: a string's length in UTF-8 bytes, a binData's length in bytes.
 * @throws CommandError 51276 "$binarySize requires a string or BinData argument, found: <type>".
 */
function binarySize(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return Buffer.byteLength(value, 'utf8');
  if (bsonTag(value) === 'Binary') return (value as Binary).length();
  throw new CommandError(
    51276,
    `$binarySize requires a string or BinData argument, found: ${bsonTypeName(value)}`,
  );
}

const SIZES: Record<string, (value: unknown) => number | null> = {
  $bsonSize: bsonSize,
  $binarySize: binarySize,
};

/**
 * The size operator `name` (`$bsonSize`, `$binarySize`) of an evaluated `value`, or undefined for
 * another operator name. MongoDB evaluates a call with a constant argument while it optimizes the
 * pipeline (folded-errors.ts uses this for that).
 * @throws CommandError 31393 / 51276 as above.
 */
export function constantSize(name: string, value: unknown): number | null | undefined {
  const size = SIZES[name];
  return size ? size(value) : undefined;
}

/** The size operators, by name, for the engine's context. */
export const sizeExpressions: Record<string, ExpressionOp> = Object.fromEntries(
  Object.entries(SIZES).map(([name, size]) => [
    name,
    (obj, expr, options) => size(argument(obj, expr, options)),
  ]),
);
