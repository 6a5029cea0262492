/**
 * `$sortArray` as MongoDB 7.0 sorts (src/mongo/db/pipeline/expression.cpp, `ExpressionSortArray`): whole
 * values (`sortBy: 1`/`-1`) in MongoDB's comparison order across types (compare.ts: null < numbers <
 * strings < documents < arrays …, numbers of every type by value), documents by the fields of a
 * `sortBy` document, under the aggregation's collation. mingo compared across types in its own order
 * (documents before strings, arrays before null descending) and ordered `NumberLong(3)` before `2.5`.
 */
import { evalExpr } from 'mingo/core';
import type { ExpressionOp } from './operator-types.js';
import { normalizeCollation } from './collation.js';
import { compareBson } from './compare.js';
import { sortByFields, sortFieldsOf } from './sort.js';
import type { SortField } from './sort.js';
import { isNullish, numberOf, typeName } from './value-strings.js';
import { isPlainObject } from './values.js';
import { numberKind } from './arithmetic.js';
import { CommandError } from '../errors.js';

/** A `sortBy`: the sign of a whole-value sort, or the fields of a document sort (2942505–2942507). */
function sortOrder(sortBy: unknown): 1 | -1 | SortField[] {
  if (isPlainObject(sortBy)) {
    const fields = sortFieldsOf(sortBy);
    if (!fields) {
      throw new CommandError(
        2942505,
        'BadValue: $sort key ordering must be 1 (for ascending) or -1 (for descending)',
      );
    }
    return fields;
  }
  if (numberKind(sortBy) !== undefined) {
    const n = numberOf(sortBy);
    if (n !== 1 && n !== -1)
      throw new CommandError(2942506, 'The $sort element value must be either 1 or -1');
    return n;
  }
  throw new CommandError(
    2942507,
    'The $sort is invalid: use 1/-1 to sort the whole element, or {field:1/-1} to sort embedded fields',
  );
}

/**
 * The sort order of a `$sortArray` argument, checked as `ExpressionSortArray::parse` checks it, which
 * MongoDB does when it parses the pipeline (operator-arguments.ts) and the evaluation repeats.
 * @throws CommandError 2942500–2942503, 2942505–2942507.
 */
export function sortArrayOrder(expr: unknown): 1 | -1 | SortField[] {
  if (!isPlainObject(expr)) {
    throw new CommandError(2942500, `$sortArray requires an object as an argument, found: ${typeName(expr)}`);
  }
  for (const name of Object.keys(expr)) {
    if (name !== 'input' && name !== 'sortBy') {
      throw new CommandError(2942501, `$sortArray found an unknown argument: ${name}`);
    }
  }
  if (!('input' in expr)) throw new CommandError(2942502, "$sortArray requires 'input' to be specified");
  if (!('sortBy' in expr)) throw new CommandError(2942503, "$sortArray requires 'sortBy' to be specified");
  return sortOrder(expr['sortBy']);
}

/** `$sortArray: { input, sortBy }`: a sorted copy of the array; null for null or missing, else 2942504. */
const sortArray: ExpressionOp = (obj, expr, options) => {
  const order = sortArrayOrder(expr);
  const input = evalExpr(obj, (expr as Record<string, unknown>)['input'], options);
  if (isNullish(input)) return null;
  if (!Array.isArray(input)) {
    throw new CommandError(
      2942504,
      `The input argument to $sortArray must be an array, but was of type: ${typeName(input)}`,
    );
  }
  const collation = normalizeCollation(options.collation);
  if (Array.isArray(order)) return sortByFields(input as unknown[], order, collation);
  return [...(input as unknown[])].sort((a, b) => order * compareBson(a, b, collation));
};

/** `$sortArray`, to register over mingo's. */
export const sortArrayExpression: Record<string, ExpressionOp> = { $sortArray: sortArray };
