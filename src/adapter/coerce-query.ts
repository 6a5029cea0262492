import { BadRequest } from '../errors/index.js';
import type { Query } from '../core/index.js';
import { isDecimalNumber, roundedIntegerOf } from '../core/index.js';
import type { QueryConverter } from './declarations.js';
import { describeValue, isPlainObject } from './filter-query.js';

/** Types `coerceQuery` can convert URL strings to. */
export type CoercedType = 'number' | 'integer' | 'boolean';

/** Operators whose value is compared with the stored value, so it needs the stored type. */
const COMPARISON_OPERATORS = new Set(['$eq', '$ne', '$lt', '$lte', '$gt', '$gte']);
const LIST_OPERATORS = new Set(['$in', '$nin']);

function coerceScalar(value: unknown, type: CoercedType, field: string): unknown {
  if (typeof value !== 'string') return value;
  if (type === 'boolean') {
    if (value === 'true') return true;
    if (value === 'false') return false;
    throw new BadRequest(`Invalid value '${describeValue(value)}' for '${field}': expected true or false`);
  }
  // Decimal digits only: Number() would also read '0x10', '1e1' and ' 5 ', which a client did not mean.
  const number = isDecimalNumber(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(number) || (type === 'integer' && !Number.isInteger(number))) {
    throw new BadRequest(
      `Invalid value '${describeValue(value)}' for '${field}': expected ${type === 'integer' ? 'an integer' : 'a number'}`,
    );
  }
  const rounded = roundedIntegerOf(value);
  if (rounded !== undefined) {
    throw new BadRequest(
      `Invalid value '${describeValue(value)}' for '${field}': expected an integer a number holds exactly (it would be ${rounded})`,
    );
  }
  return number;
}

function coerceValue(value: unknown, type: CoercedType, field: string): unknown {
  if (Array.isArray(value)) return value.map((item) => coerceScalar(item, type, field));
  if (!isPlainObject(value)) return coerceScalar(value, type, field);
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (COMPARISON_OPERATORS.has(key)) result[key] = coerceScalar(item, type, field);
    else if (LIST_OPERATORS.has(key) && Array.isArray(item)) {
      result[key] = item.map((entry) => coerceScalar(entry, type, field));
    } else result[key] = item;
  }
  return result;
}

function coerceLevel(query: Query, types: Readonly<Record<string, CoercedType>>): Query {
  const result: Query = {};
  for (const [key, value] of Object.entries(query)) {
    const type = Object.hasOwn(types, key) ? types[key] : undefined;
    if ((key === '$or' || key === '$and') && Array.isArray(value)) {
      result[key] = (value as unknown[]).map((entry) =>
        isPlainObject(entry) ? coerceLevel(entry, types) : entry,
      );
    } else if (type !== undefined) {
      result[key] = coerceValue(value, type, key);
    } else {
      result[key] = value;
    }
  }
  return result;
}

/**
 * Builds a query converter for the adapters' `converter` option that turns the strings of a URL
 * query into the stored types (spec: "Request params (HTTP transports)": values stay strings).
 *
 * `coerceQuery({ age: 'number' })` turns `{ age: { $gt: '20' } }` into `{ age: { $gt: 20 } }`,
 * for direct values, `$eq $ne $lt $lte $gt $gte`, the items of `$in`/`$nin`, and inside `$or`/`$and`.
 * Values that are already of another type are left alone. Numbers must be written in decimal digits
 * (`'20'`, `'-1.5'`, core's `isDecimalNumber`), and an integer only when a number holds it exactly
 * (core's `roundedIntegerOf`: not `'9007199254740993'`), booleans as `true` or `false`. Throws
 * `BadRequest` (400) naming the field when a string does not convert (`'abc'`, `'0x10'`, `'1e1'`,
 * `' 5'` or `'9007199254740993'` for a number field).
 */
export function coerceQuery(types: Readonly<Record<string, CoercedType>>): QueryConverter {
  return (query) => coerceLevel(query, types);
}
