/**
 * The new values the engine computes itself for `$inc`, `$mul`, `$min`, `$max`, `$addToSet`, `$push`
 * (push.ts), `$bit` and `$currentDate`, rather than leaving them to mingo: mingo's lose longs and
 * decimals, compare numbers by type and write no timestamps. Kept apart from update-modifier.ts, which
 * decides per document which operators come here and which go to mingo; this file only does the
 * arithmetic, comparisons and set membership with MongoDB's types, order and equality.
 */
import { Timestamp } from 'bson';
import type { Long } from 'bson';
import type { Collation } from './collation.js';
import { compareBson } from './compare.js';
import { add, bitwise, LongOverflowError, multiply, numberKind, zeroLike } from './arithmetic.js';
import type { BitOperation } from './arithmetic.js';
import { computePush } from './push.js';
import { bsonTypeName, cloneValue, isPlainObject, keyOf } from './values.js';
import { idText as describeId } from './bson-text.js';
import { checkBitSpec } from './update-parse.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/**
 * `$inc`/`$mul` on numbers, `$min`/`$max` on an existing value, `$addToSet`, `$push` (push.ts), `$bit`
 * on ints and longs and `$currentDate`, with MongoDB's types, order and equality (mingo's lose longs
 * and decimals, compare numbers by type and write no timestamps): computes the new value into
 * `computed` and returns true; returns false to leave the operator to mingo (positional paths, values it
 * reports as errors).
 * @throws CommandError BadValue when int64 arithmetic overflows, as MongoDB does.
 */
export function computeUpdate(
  op: string,
  path: string,
  current: unknown,
  value: unknown,
  computed: Doc,
  doc: Doc,
  collation: Collation | undefined,
): boolean {
  if (op === '$addToSet' && (current === undefined || Array.isArray(current))) {
    // Set membership by MongoDB's equality (5 and Long(5) are one value; strings under the collation).
    const each = isPlainObject(value) && Object.keys(value)[0] === '$each' ? value['$each'] : undefined;
    if (each !== undefined && !Array.isArray(each)) return false;
    const next = [...((current as unknown[] | undefined) ?? [])];
    const keys = new Set(next.map((v) => keyOf(v, collation)));
    for (const item of (each as unknown[] | undefined) ?? [value]) {
      const key = keyOf(item, collation);
      if (keys.has(key)) continue;
      keys.add(key);
      next.push(cloneValue(item));
    }
    computed[path] = next;
    return true;
  }
  if (op === '$inc' || op === '$mul') {
    if (numberKind(value) === undefined) return false;
    if (current === undefined) {
      computed[path] = op === '$inc' ? add([0, value]) : zeroLike(value);
      return true;
    }
    if (numberKind(current) === undefined) return false;
    try {
      computed[path] = (op === '$inc' ? add : multiply)([current, value], 'throw');
    } catch (error) {
      if (!(error instanceof LongOverflowError)) throw error;
      throw new CommandError(
        ErrorCodes.BadValue,
        `Failed to apply ${op} operations to current value ((${numberKind(current) === 'int' ? 'NumberInt' : 'NumberLong'})${(current as Long).toString()}) for document ${describeId(doc)}`,
      );
    }
    return true;
  }
  if (op === '$push' && (current === undefined || Array.isArray(current))) {
    const next = computePush(current, value, collation);
    if (next === undefined) return false;
    computed[path] = next;
    return true;
  }
  if (op === '$currentDate') {
    computed[path] = currentDate(value);
    return true;
  }
  if (op === '$bit') {
    checkBitSpec(value);
    if (current !== undefined && !isInteger(current)) {
      throw new CommandError(
        ErrorCodes.BadValue,
        `Cannot apply $bit to a value of non-integral type.${describeId(doc)} has the field ${path} of non-integer type ${bsonTypeName(current)}`,
      );
    }
    let result: unknown = current ?? 0;
    for (const [operation, operand] of Object.entries(value)) {
      result = bitwise(operation as BitOperation, result, operand);
    }
    computed[path] = result;
    return true;
  }
  if ((op === '$min' || op === '$max') && current !== undefined) {
    // MongoDB's comparison order (mingo's puts ObjectId, booleans and int64 elsewhere).
    const order = compareBson(current, value);
    if (op === '$min' ? order > 0 : order < 0) computed[path] = value;
    return true;
  }
  return false;
}

const isInteger = (value: unknown): boolean => numberKind(value) === 'int' || numberKind(value) === 'long';

let timestampIncrement = 0;

/**
 * The value `$currentDate` sets (its operand checked when parsed): a `Date`, or a `Timestamp` (seconds,
 * and an increment that orders timestamps of the same second) for `{ $type: 'timestamp' }`.
 */
function currentDate(spec: unknown): Date | Timestamp {
  if (!isPlainObject(spec) || spec['$type'] !== 'timestamp') return new Date();
  timestampIncrement = (timestampIncrement % 0xffffffff) + 1;
  return new Timestamp({ t: Math.floor(Date.now() / 1000), i: timestampIncrement });
}
