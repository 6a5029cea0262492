/**
 * `$push` and its modifiers (`$each`, `$position`, `$sort`, `$slice`), computed by the engine: mingo's
 * sorts elements of different BSON types, int64s and strings under a collation in its own order, and
 * refuses int64 modifier values. MongoDB applies the modifiers in a fixed order whatever their order in
 * the update: insert at the position, sort, then slice.
 */
import type { Collation } from './collation.js';
import { compareBson } from './compare.js';
import { integralValue } from './arithmetic.js';
import { sortByFields, sortFieldsOf } from './sort.js';
import type { SortField } from './sort.js';
import { bsonTypeName, cloneValue, isPlainObject } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

const MODIFIERS = new Set(['$each', '$position', '$sort', '$slice']);

const isDirection = (value: unknown): boolean => {
  const n = integralValue(value);
  return n === 1 || n === -1;
};

function sortFields(spec: unknown): SortField[] | 'whole' {
  if (isDirection(spec)) return 'whole';
  const fields = sortFieldsOf(spec);
  if (fields) return fields;
  throw new CommandError(
    ErrorCodes.BadValue,
    'The $sort is invalid: use 1/-1 to sort the whole element, or {field:1/-1} to sort embedded fields',
  );
}

function integerModifier(name: '$slice' | '$position', value: unknown): number {
  const n = integralValue(value);
  if (n !== undefined) return n;
  throw new CommandError(
    ErrorCodes.BadValue,
    name === '$slice'
      ? `The value for $slice must be an integer value but was given type: ${bsonTypeName(value)}`
      : `The value for $position must be an integer value, not of type: ${bsonTypeName(value)}`,
  );
}

/**
 * The array `$push` leaves in a field holding `current` (undefined when the field is missing), or
 * undefined when `value` is a document of `$`-prefixed fields without `$each`, which mingo refuses.
 * @throws CommandError BadValue for an unknown modifier or a modifier of the wrong type.
 */
export function computePush(
  current: unknown[] | undefined,
  value: unknown,
  collation: Collation | undefined,
): unknown[] | undefined {
  const existing = current ?? [];
  if (!isPlainObject(value) || !('$each' in value)) {
    if (isPlainObject(value) && Object.keys(value).some((k) => k.startsWith('$'))) return undefined;
    return [...existing, cloneValue(value)];
  }
  for (const key of Object.keys(value)) {
    if (!MODIFIERS.has(key))
      throw new CommandError(ErrorCodes.BadValue, `Unrecognized clause in $push: ${key}`);
  }
  const each = value['$each'];
  if (!Array.isArray(each)) {
    throw new CommandError(
      ErrorCodes.BadValue,
      `The argument to $each in $push must be an array but it was of type: ${bsonTypeName(each)}`,
    );
  }
  const added = (each as unknown[]).map((item) => cloneValue(item));
  let next: unknown[];
  if (value['$position'] === undefined) next = [...existing, ...added];
  else {
    const position = integerModifier('$position', value['$position']);
    const at = position < 0 ? Math.max(0, existing.length + position) : Math.min(position, existing.length);
    next = [...existing.slice(0, at), ...added, ...existing.slice(at)];
  }
  if (value['$sort'] !== undefined) {
    const fields = sortFields(value['$sort']);
    if (fields === 'whole') {
      const sign = Number(value['$sort']);
      next = next.sort((a, b) => sign * compareBson(a, b, collation));
    } else next = sortByFields(next, fields, collation);
  }
  if (value['$slice'] !== undefined) {
    const slice = integerModifier('$slice', value['$slice']);
    next = slice >= 0 ? next.slice(0, slice) : next.slice(Math.max(0, next.length + slice));
  }
  return next;
}
