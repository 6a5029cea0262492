/**
 * `$all` as MongoDB's match-expression parser builds it (`parseAll` in `expression_parser.cpp`): not an
 * operator of its own but an `$and` of one clause per entry on the same path. `{ a: { $all: [v1, v2] } }`
 * is `{ $and: [{ a: v1 }, { a: v2 }] }`, so an entry that is an array matches a field equal to that array
 * or an array field holding it as an element (manual, "$all": "$all with a nested array"), a value matches
 * a non-array field equal to it, a regex is a `$regex` clause, and when the first entry is an
 * `{ $elemMatch }` every entry is an `$elemMatch` clause. No entries is MongoDB's AlwaysFalse. mingo's own
 * `$all` compares the field's elements only, so an array entry never matched and a scalar field never did.
 * Each clause is compiled by the operators of the query's own context, so equality keeps the engine's
 * collation, number and BSON rules and regexes stay linear-time.
 */
import { OpType } from 'mingo/core';
import type { Predicate, QueryOp } from './operator-types.js';
import { isPlainObject } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** True when `entry` is an `{ $elemMatch: … }` document (MongoDB looks at its first field only). */
function isElemMatch(entry: unknown): entry is Record<string, unknown> {
  return isPlainObject(entry) && Object.keys(entry)[0] === '$elemMatch';
}

/**
 * `$all` compiled to the conjunction of its entries' clauses on `selector`.
 * Takes the selector, the `$all` argument and the query's mingo options; returns the predicate.
 * @throws CommandError BadValue (2) "$all needs an array" when the argument is not an array, and
 *   "$all/$elemMatch has to be consistent" when an `$elemMatch` list holds something else (filter-check.ts
 *   refuses both earlier for filters; this guards other callers).
 */
export const allQuery: QueryOp = (selector, value, options) => {
  if (!Array.isArray(value)) throw new CommandError(ErrorCodes.BadValue, '$all needs an array');
  if (value.length === 0) return () => false;
  const operator = (name: string): QueryOp => options.context.getOperator(OpType.QUERY, name) as QueryOp;
  const elemMatchMode = isElemMatch(value[0]);
  const clauses: Predicate[] = value.map((entry: unknown) => {
    if (elemMatchMode) {
      if (!isElemMatch(entry))
        throw new CommandError(ErrorCodes.BadValue, '$all/$elemMatch has to be consistent');
      return operator('$elemMatch')(selector, entry['$elemMatch'], options);
    }
    if (entry instanceof RegExp) return operator('$regex')(selector, entry, options);
    return operator('$eq')(selector, entry, options);
  });
  return (obj) => clauses.every((clause) => clause(obj));
};
