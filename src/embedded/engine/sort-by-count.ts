/**
 * The `$sortByCount` stage, as MongoDB 7.0 parses it (document_source_sort_by_count.cpp): an alias for
 * `{ $group: { _id: <expression>, count: { $sum: 1 } } }` then `{ $sort: { count: -1 } }`, run here by
 * the engine's own `$group` and `$sort`, so its expression is checked and evaluated as a `$group` key is
 * (mingo's own `$sortByCount` evaluated it unchecked: a `$let` with unknown fields answered a
 * JavaScript error, and `{ a: 1 }` grouped by the literal document).
 */
import type { PipelineOp } from './operator-types.js';
import { isPlainObject } from './values.js';
import { CommandError } from '../errors.js';

const MESSAGE =
  'the sortByCount field must be defined as a $-prefixed path or an expression inside an object';

/**
 * Checks a `$sortByCount` argument: a `$`-prefixed path, or an object whose first field starts with `$`.
 * @throws CommandError 40148 for another string, 40147 for another object, 40149 for any other type.
 */
export function checkSortByCount(expr: unknown): void {
  if (typeof expr === 'string') {
    if (!expr.startsWith('$')) throw new CommandError(40148, MESSAGE);
  } else if (isPlainObject(expr)) {
    if (!(Object.keys(expr)[0] ?? '').startsWith('$')) throw new CommandError(40147, MESSAGE);
  } else {
    throw new CommandError(40149, 'the sortByCount field must be specified as a string or as an object');
  }
}

/**
 * `$sortByCount` run by the engine's `group` and `sort` stages (see the file comment).
 * @throws CommandError 40147–40149 for a malformed argument; what `$group` throws for its expression.
 */
export function sortByCountStage(group: PipelineOp, sort: PipelineOp): PipelineOp {
  return (collection, expr, options) => {
    checkSortByCount(expr);
    return sort(group(collection, { _id: expr, count: { $sum: 1 } }, options), { count: -1 }, options);
  };
}
