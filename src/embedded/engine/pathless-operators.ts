/**
 * The pathless filter operators mingo lacks, as MongoDB 7.0 reads them: `$comment` (a label, at any
 * level of `$and`/`$or`/`$nor`), `$alwaysTrue: 1` (matches everything), `$alwaysFalse: 1` (matches
 * nothing) and a DBRef's `$ref`/`$id`/`$db` (equality on that field, dbref-filter.ts). `checkAlwaysBoolean` refuses a bad argument as MongoDB does; `rewritePathless` turns a
 * checked filter into one mingo evaluates (no such operator left).
 */
import { numberKind } from './arithmetic.js';
import { elementText } from './bson-text.js';
import { dbRefClause } from './dbref-filter.js';
import { DBREF_FIELDS } from './dbref-fields.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/**
 * The argument of `$alwaysTrue`/`$alwaysFalse`: the integer 1.
 * @throws CommandError FailedToParse (9) with MongoDB's message.
 */
export function checkAlwaysBoolean(op: string, arg: unknown): void {
  const fail = (message: string): never => {
    throw new CommandError(ErrorCodes.FailedToParse, message);
  };
  if (numberKind(arg) === undefined) fail(`Expected a number in: ${elementText(op, arg)}`);
  const n = Number(String(arg));
  if (!Number.isInteger(n)) fail(`Expected an integer: ${elementText(op, arg)}`);
  if (n !== 1) fail(`${op} must be an integer value of 1`);
}

/** A filter that matches nothing. */
const NOTHING: Doc = { $nor: [{}] };

/**
 * Rewrites the pathless operators of a checked filter level (and of its `$and`/`$or`/`$nor` entries),
 * a DBRef's `$ref`/`$id`/`$db` included (dbref-filter.ts).
 */
export function rewritePathless(filter: Doc): Doc {
  const out: Doc = {};
  const extra: Doc[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$comment' || key === '$alwaysTrue') continue;
    if (key === '$alwaysFalse') extra.push(NOTHING);
    else if (DBREF_FIELDS.has(key)) extra.push(dbRefClause(key, value));
    else if ((key === '$and' || key === '$or' || key === '$nor') && Array.isArray(value))
      out[key] = (value as unknown[]).map((entry) => (isPlainObject(entry) ? rewritePathless(entry) : entry));
    else out[key] = value;
  }
  if (extra.length === 0) return out;
  return Object.keys(out).length === 0 ? { $and: extra } : { $and: [out, ...extra] };
}
