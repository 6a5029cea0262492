/**
 * Query filters checked as MongoDB's match-expression parser checks them, before a document is read: an
 * unknown operator (at the top level or on a field), a malformed `$and`/`$or`/`$nor`, `$not`, `$size`,
 * `$type`, `$in`/`$nin`, `$all` or `$elemMatch` argument fails with MongoDB's code and message even on an
 * empty collection, where mingo would either answer differently or not complain until it meets a document.
 * It also checks `$regex`/`$options`, comparisons, `$in`/`$nin` and `$all` entries (match-arguments.ts),
 * operators allowed only at the top (`$text`, `$where`, `$expr` under `$elemMatch`) and `$alwaysTrue`/
 * `$alwaysFalse`. `$mod` and the bit operators check their arguments where they compile. Each `$expr`
 * (at the top or in a `$and`/`$or`/`$nor` entry) is parsed as an aggregation expression then too
 * (expression-check.ts): an unknown operator is 168 and, when the caller gives the command's variable
 * scope, a read of an undefined variable is 17276, as MongoDB's ExprMatchExpression parses it.
 */
import { numberKind } from './arithmetic.js';
import {
  checkAllEntries,
  checkComparison,
  checkInEntries,
  checkRegexDocument,
  isExpressionDocument,
  isRegexValue,
  PATH_KEYWORDS,
  PATHLESS_OPERATORS,
} from './match-arguments.js';
import { DBREF_FIELDS } from './dbref-fields.js';
import { checkExpression } from './expression-check.js';
import { checkAlwaysBoolean } from './pathless-operators.js';
import { isPlainObject, typeAlias } from './values.js';
import type { VariableScope } from './variable-scope.js';
import { CommandError, ErrorCodes } from '../errors.js';

/**
 * Operators MongoDB takes on a field: its path keywords (match-arguments.ts) with `$not` and the geo
 * modifiers; `$geoNear` stays refused here, as geo queries are not supported.
 */
const FIELD_OPERATORS = new Set(
  [...PATH_KEYWORDS, '$not', '$maxDistance', '$minDistance', '$uniqueDocs'].filter((op) => op !== '$geoNear'),
);

/** The `$type` codes MongoDB knows (`-1` is MinKey, `127` MaxKey). */
const TYPE_CODES = new Set([-1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 127]);

/**
 * MongoDB 7.0's BadValue (2) for a `$` name at the top of a query that is no pathless operator, with
 * the parser's hint (parseTopLevel in expression_parser.cpp).
 */
export function unknownTopLevelOperator(key: string): CommandError {
  const hint =
    key === '$not'
      ? 'If you are trying to negate an entire expression, use $nor.'
      : "If you have a field name that starts with a '$' symbol, consider using $getField or $setField.";
  return new CommandError(ErrorCodes.BadValue, `unknown top level operator: ${key}. ${hint}`);
}

function badValue(message: string): never {
  throw new CommandError(ErrorCodes.BadValue, message);
}

/** A number as MongoDB prints a bad `$type` code: `nan`, `inf`, `-1.123`. */
function codeText(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  return String(n);
}

function checkType(arg: unknown, path: string): void {
  if (Array.isArray(arg) && arg.length === 0)
    throw new CommandError(ErrorCodes.FailedToParse, `${path} must match at least one type`);
  for (const spec of Array.isArray(arg) ? arg : [arg]) {
    if (numberKind(spec) !== undefined) {
      const n = Number(String(spec));
      if (!Number.isInteger(n) || !TYPE_CODES.has(n)) badValue(`Invalid numerical type code: ${codeText(n)}`);
    } else if (typeof spec === 'string') {
      if (typeAlias(spec) === undefined) badValue(`Unknown type name alias: ${spec}`);
    } else {
      throw new CommandError(ErrorCodes.TypeMismatch, 'type must be represented as a number or a string');
    }
  }
}

function checkSize(arg: unknown): void {
  const kind = numberKind(arg);
  if (kind === undefined) badValue('$size needs a number');
  const n = Number(String(arg));
  if ((kind === 'double' || kind === 'decimal') && !Number.isInteger(n))
    badValue('$size must be a whole number');
  if (n < 0) badValue('$size may not be negative');
}

/** Operators MongoDB refuses below the top of a filter (inside `$elemMatch`). */
const TOP_LEVEL_ONLY = new Set(['$text', '$where', '$expr', '$sampleRate']);

/** The operators of the field `path` (`{ $gt: 1, $lt: 5 }`), in order. */
function checkOperators(ops: Record<string, unknown>, path: string): void {
  for (const [op, arg] of Object.entries(ops)) {
    if (!FIELD_OPERATORS.has(op)) {
      if (op === '$where') badValue('$where cannot be applied to a field');
      badValue(`unknown operator: ${op}`);
    }
    switch (op) {
      case '$eq':
      case '$ne':
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        checkComparison(op, arg, path);
        break;
      case '$size':
        checkSize(arg);
        break;
      case '$type':
        checkType(arg, path);
        break;
      case '$regex':
        checkRegexDocument(ops);
        break;
      case '$in':
      case '$nin':
        if (!Array.isArray(arg)) badValue(`${op} needs an array`);
        checkInEntries(arg);
        break;
      case '$all':
        if (!Array.isArray(arg)) badValue('$all needs an array');
        for (const inner of checkAllEntries(arg)) checkElemMatch(inner);
        break;
      case '$not':
        if (isRegexValue(arg)) break;
        if (!isPlainObject(arg)) badValue('$not needs a regex or a document');
        if (Object.keys(arg).length === 0) badValue('$not cannot be empty');
        checkOperators(arg, path);
        break;
      case '$elemMatch':
        checkElemMatch(arg);
        break;
    }
  }
}

/** An `$elemMatch` argument: operators on the elements, or a filter on them (below the top level). */
function checkElemMatch(arg: unknown): void {
  if (!isPlainObject(arg)) badValue('$elemMatch needs an Object');
  const first = Object.keys(arg)[0] ?? '';
  if (isExpressionDocument(arg, true) && !PATHLESS_OPERATORS.has(first)) checkOperators(arg, '');
  else checkLevel(arg, false);
}

/**
 * Checks a filter document as MongoDB parses it. `scope` holds the variables its `$expr` clauses may read
 * (the command's `let` names); without it their variable reads are not checked, only their spelling.
 * @throws CommandError BadValue (2) or TypeMismatch (14) with MongoDB's message, or the expression errors
 * of `checkExpression` for an `$expr` (168 for an unknown operator, 17276 for an undefined variable …).
 */
export function checkFilter(filter: Record<string, unknown>, scope?: VariableScope): void {
  checkLevel(filter, true, scope);
}

/** A filter, at the top of the query (`top`) or below an `$elemMatch`. */
function checkLevel(filter: Record<string, unknown>, top: boolean, scope?: VariableScope): void {
  for (const [key, value] of Object.entries(filter)) {
    // A DBRef's names ({ $ref: 'c', $id: 5 }, at the top or in an `$elemMatch` on documents): MongoDB's
    // pathless parseDBRef matches each as its field's equality (expression_parser.cpp; dbref-filter.ts).
    if (DBREF_FIELDS.has(key)) continue;
    if (key.startsWith('$')) {
      if (!PATHLESS_OPERATORS.has(key)) throw unknownTopLevelOperator(key);
      if (!top && TOP_LEVEL_ONLY.has(key)) badValue(`${key} can only be applied to the top-level document`);
      if (key === '$alwaysTrue' || key === '$alwaysFalse') checkAlwaysBoolean(key, value);
      if (key === '$expr') checkExpression(value, '', scope);
      if (key === '$and' || key === '$or' || key === '$nor') {
        if (!Array.isArray(value)) badValue(`${key} must be an array`);
        if (value.length === 0) badValue('$and/$or/$nor must be a nonempty array');
        for (const entry of value as unknown[]) {
          if (!isPlainObject(entry)) badValue('$or/$and/$nor entries need to be full objects');
          checkLevel(entry, top, scope);
        }
      }
    } else if (isExpressionDocument(value, false)) {
      checkOperators(value as Record<string, unknown>, key);
    }
  }
}
