/**
 * The query operators the engine took over from mingo only to read their field as MongoDB's matcher
 * does (query-path.ts): equality without a collation, `$exists`, `$size`, `$elemMatch` and `$regex`.
 * Each tests the values the path reaches one by one, as the matching `matchesSingleElement` does.
 */
import { Query } from 'mingo/query';
import type { Options } from 'mingo/types';
import { isEqual } from 'mingo/util';
import { compareBson } from './compare.js';
import type { Predicate, QueryOp } from './operator-types.js';
import { filterPath, someValue, WHOLE_VALUE } from './query-path.js';
import { regexMatches } from './regex-values.js';
import { isTruthy } from './strict-expressions.js';
import { isPlainObject } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/**
 * Equality with `value` by mingo's comparison (no collation; the caller makes numbers plain): a value
 * the path reaches equals it, and `null` also matches a missing one (manual, "Query for Null or Missing
 * Fields"). An array equals an array of equal elements in MongoDB's order (compare.ts), where a
 * document inside is compared field by field in its order, as woCompare does; mingo's `isEqual`
 * ignores that order, so `[{ y: 2, x: 1 }]` matched (and `$pull` removed) `[{ x: 1, y: 2 }]`.
 */
export const valueEquality: QueryOp = (selector, value) => {
  const path = filterPath(selector);
  if (value === null) return (obj) => someValue(obj, path, (v) => v === null || v === undefined);
  if (Array.isArray(value))
    return (obj) => someValue(obj, path, (v) => Array.isArray(v) && compareBson(v, value) === 0);
  return (obj) => someValue(obj, path, (v) => isEqual(v, value));
};

/**
 * `$exists`: a value is reached (ExistsMatchExpression: any element but EOO). A false argument (false,
 * null or a zero of any number type, BSONElement's `trueValue()`) negates it.
 */
const existsQuery: QueryOp = (selector, value) => {
  const path = filterPath(selector);
  const present: Predicate = (obj) => someValue(obj, path, (v) => v !== undefined);
  return isTruthy(value) ? present : (obj) => !present(obj);
};

/** `$size`: an array with that many elements, an array at the end of the path taken whole (kNoTraversal). */
const sizeQuery: QueryOp = (selector, value) => {
  const path = filterPath(selector);
  return (obj) => someValue(obj, path, (v) => Array.isArray(v) && v.length === value, true);
};

/**
 * The operators `parseElemMatch` (src/mongo/db/matcher/expression_parser.cpp) does not read as operators
 * on the element: an `$elemMatch` opening with one of them is a query on the element's fields.
 */
const PATHLESS = new Set(['$and', '$or', '$nor', '$expr', '$jsonSchema', '$where', '$text']);

/**
 * The test of one array element for an `$elemMatch` argument. Operators (`{ $gt: 1, $lt: 5 }`) apply to
 * the element itself, whole (ElemMatchValueMatchExpression); a query (`{ b: 1 }`, `{ $or: … }`) applies
 * to an element that is a document or an array (ElemMatchObjectMatchExpression: `isABSONObj()`).
 */
function elementTest(criteria: Record<string, unknown>, options: Options): (element: unknown) => boolean {
  const first = Object.keys(criteria)[0];
  if (first !== undefined && first.startsWith('$') && !PATHLESS.has(first)) {
    const query = new Query({ [WHOLE_VALUE]: criteria }, options);
    return (element) => query.test(element as Record<string, unknown>);
  }
  const query = new Query(criteria, options);
  return (element) => (isPlainObject(element) || Array.isArray(element)) && query.test(element as never);
}

/** `$elemMatch`: an array, taken whole at the end of the path, with an element that passes. */
const elemMatchQuery: QueryOp = (selector, value, options) => {
  if (!isPlainObject(value)) throw new CommandError(ErrorCodes.BadValue, '$elemMatch needs an Object');
  const path = filterPath(selector);
  const matches = elementTest(value, options);
  return (obj) => someValue(obj, path, (v) => Array.isArray(v) && v.some(matches), true);
};

/**
 * `$regex`: a value the path reaches matches it (regex-values.ts: a string, a symbol, the same stored
 * regex; the regex was made linear-time by query.ts).
 */
const regexQuery: QueryOp = (selector, value) => {
  if (!(value instanceof RegExp)) throw new CommandError(ErrorCodes.BadValue, '$regex has to be a string');
  const path = filterPath(selector);
  return (obj) => someValue(obj, path, (v) => regexMatches(value, v));
};

/** The operators above by name, registered over mingo's (`$size` and `$elemMatch` through numericQuery). */
export const pathOperators: Record<string, QueryOp> = {
  $exists: existsQuery,
  $size: sizeQuery,
  $elemMatch: elemMatchQuery,
  $regex: regexQuery,
};
