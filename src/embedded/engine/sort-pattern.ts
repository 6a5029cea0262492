/**
 * A sort specification checked as MongoDB 7.0's SortPattern parses it (src/mongo/db/query/sort_pattern.cpp),
 * for the `$sort` stage, a find's `sort` and `$setWindowFields`' `sortBy`: each key a `{ $meta: … }`
 * document (17312 for another document) or a number (15974) whose value is 1 or -1 (15975), of any
 * number type (`NumberLong(-1)` sorts descending), on a valid field path.
 */
import { integralValue, numberKind } from './arithmetic.js';
import { elementText } from './bson-text.js';
import { checkFieldPath } from './field-path.js';
import { isPlainObject } from './values.js';
import { CommandError } from '../errors.js';

/**
 * Checks the direction of the sort key `path`; a document (`{ $meta: 'textScore' }`) is left to the
 * caller, which knows which metadata it has.
 * @throws CommandError 17312 for a document without `$meta`, 15974 for a value that is not a number,
 *   15975 for a number other than 1 and -1.
 */
export function checkSortKey(path: string, direction: unknown): void {
  if (isPlainObject(direction)) {
    if ('$meta' in direction) return;
    throw new CommandError(17312, '$meta is the only expression supported by $sort right now');
  }
  if (numberKind(direction) === undefined)
    throw new CommandError(15974, `Illegal key in $sort specification: ${elementText(path, direction)}`);
  const n = integralValue(direction);
  if (n !== 1 && n !== -1)
    throw new CommandError(15975, '$sort key ordering must be 1 (for ascending) or -1 (for descending)');
}

/**
 * Checks each key of the sort document `spec` (a document: callers check that): its field path
 * (field-path.ts: 40352, 15998, 40353, 16410) and its direction ({@link checkSortKey}).
 */
export function checkSortKeys(spec: Record<string, unknown>): void {
  for (const [path, direction] of Object.entries(spec)) {
    checkFieldPath(path);
    checkSortKey(path, direction);
  }
}
