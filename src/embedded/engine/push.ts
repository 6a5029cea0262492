/**
 * `$push` and its modifiers (`$each`, `$position`, `$sort`, `$slice`), computed by the engine: mingo's
 * sorts elements of different BSON types, int64s and strings under a collation in its own order, and
 * refuses int64 modifier values. MongoDB applies the modifiers in a fixed order whatever their order in
 * the update: insert at the position, sort, then slice.
 */
import type { Collation } from './collation.js';
import { compareBson } from './compare.js';
import { integralValue, numberKind } from './arithmetic.js';
import { sortByFields, sortFieldsOf } from './sort.js';
import type { SortField } from './sort.js';
import { bsonTypeName, cloneValue, isPlainObject } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

const MODIFIERS = new Set(['$each', '$position', '$sort', '$slice']);

const elementValueError = (): never => {
  throw new CommandError(ErrorCodes.BadValue, 'The $sort element value must be either 1 or -1');
};

/** A `$sort` direction as push_node.cpp reads it: the number's double value, exactly 1 or -1. */
function pushDirection(value: unknown): 1 | -1 | undefined {
  if (numberKind(value) === undefined) return undefined;
  const n = Number(value);
  return n === 1 || n === -1 ? n : undefined;
}

/**
 * The `$sort` modifier, checked as MongoDB 7.0's PushNode::init and checkSortClause (push_node.cpp) check
 * it when the update is parsed: a document of `field: 1 | -1` (an empty one, a direction that is not 1 or
 * -1, of any number type, or an empty field name or part is BadValue) or a whole-element 1 or -1.
 */
function sortOrder(spec: unknown): SortField[] | 1 | -1 {
  if (isPlainObject(spec)) {
    const entries = Object.entries(spec);
    if (entries.length === 0) {
      throw new CommandError(
        ErrorCodes.BadValue,
        'The $sort pattern is empty when it should be a set of fields.',
      );
    }
    for (const [path, direction] of entries) {
      if (pushDirection(direction) === undefined) elementValueError();
      if (path === '') throw new CommandError(ErrorCodes.BadValue, 'The $sort field cannot be empty');
      if (path.split('.').includes('')) {
        throw new CommandError(
          ErrorCodes.BadValue,
          `The $sort field is a dotted field but has an empty part: ${path}`,
        );
      }
    }
    return sortFieldsOf(spec, pushDirection)!;
  }
  if (numberKind(spec) !== undefined) return pushDirection(spec) ?? elementValueError();
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
    const order = sortOrder(value['$sort']);
    if (Array.isArray(order)) next = sortByFields(next, order, collation);
    else next = next.sort((a, b) => order * compareBson(a, b, collation));
  }
  if (value['$slice'] !== undefined) {
    const slice = integerModifier('$slice', value['$slice']);
    next = slice >= 0 ? next.slice(0, slice) : next.slice(Math.max(0, next.length + slice));
  }
  return next;
}
