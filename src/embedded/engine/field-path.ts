/**
 * The field paths pipeline stages name (`$project`, `$addFields`/`$set`, `$unset`, `$sort`), checked as
 * MongoDB's FieldPath checks them when it parses the stage, before any document is read.
 */
import { DBREF_FIELDS } from './dbref-fields.js';
import { CommandError } from '../errors.js';

/**
 * MongoDB's 31394 message (projection_parser.cpp, parseElement) for a projection path with parts after
 * a positional `$` (`a.$.b`, `a.$.b.$`), which 4.4+ refuse in find and aggregation alike.
 */
export const MIDDLE_POSITIONAL =
  "As of 4.4, it's illegal to specify positional operator in the middle of a path.Positional " +
  'projection may only be used at the end, for example: a.b.$. If the query previously used a form ' +
  "like a.b.$.d, remove the parts following the '$' and the results will be equivalent.";

/**
 * Checks one dotted path; `positional` is what to do with a trailing `.$` (aggregation projections refuse
 * it with 31324); `dbRefParts` lets a part be a DBRef field name (`$id`, `$ref`, `$db`), as MongoDB's
 * FieldPath does, for the projections that can read them (dbref-projection.ts). Errors: 40352 (empty),
 * 15998 (an empty part), 40353 (a trailing `.`), 16410 (another part starting with `$`), each message
 * after `prefix` (e.g. `Invalid $project :: caused by :: `).
 */
export function checkFieldPath(path: string, prefix = '', positional = false, dbRefParts = false): void {
  const fail = (code: number, message: string): never => {
    throw new CommandError(code, prefix + message);
  };
  if (path === '') fail(40352, 'FieldPath cannot be constructed with empty string');
  const parts = path.split('.');
  if (positional && parts.length > 1 && parts[parts.length - 1] === '$') {
    fail(31324, 'Cannot use positional projection in aggregation projection');
  }
  if (positional && parts.slice(1, -1).includes('$')) {
    fail(31394, MIDDLE_POSITIONAL);
  }
  if (parts[parts.length - 1] === '' && parts.length > 1) fail(40353, "FieldPath must not end with a '.'.");
  if (parts.includes('')) fail(15998, 'FieldPath field names may not be empty strings.');
  if (parts.some((part) => part.startsWith('$') && !(dbRefParts && DBREF_FIELDS.has(part)))) {
    fail(16410, "FieldPath field names may not start with '$'. Consider using $getField or $setField.");
  }
}
