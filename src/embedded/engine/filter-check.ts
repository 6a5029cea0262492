/**
 * Query filters checked as MongoDB's match-expression parser checks them, before a document is read: an
 * unknown operator (at the top level or on a field), a malformed `$and`/`$or`/`$nor`, `$not`, `$size`,
 * `$type`, `$in`/`$nin`, `$all` or `$elemMatch` argument fails with MongoDB's code and message even on an
 * empty collection, where mingo would either answer differently or not complain until it meets a document.
 * Operators whose arguments need more (`$mod`, the bit operators, `$regex`) check them where they compile.
 */
import { numberKind } from './arithmetic.js';
import { bsonTag, isPlainObject, typeAlias } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** Operators MongoDB takes at the top of a filter (or of a `$and`/`$or`/`$nor` entry). */
const TOP_LEVEL = new Set([
  '$and',
  '$or',
  '$nor',
  '$expr',
  '$text',
  '$where',
  '$comment',
  '$jsonSchema',
  '$alwaysTrue',
  '$alwaysFalse',
  '$sampleRate',
]);

/** Operators MongoDB takes on a field. */
const FIELD_OPERATORS = new Set([
  '$eq',
  '$ne',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$in',
  '$nin',
  '$exists',
  '$type',
  '$size',
  '$all',
  '$elemMatch',
  '$regex',
  '$options',
  '$not',
  '$mod',
  '$bitsAllSet',
  '$bitsAllClear',
  '$bitsAnySet',
  '$bitsAnyClear',
  '$near',
  '$nearSphere',
  '$geoWithin',
  '$geoIntersects',
  '$within',
  '$maxDistance',
  '$minDistance',
  '$uniqueDocs',
]);

/** The `$type` codes MongoDB knows (`-1` is MinKey, `127` MaxKey). */
const TYPE_CODES = new Set([-1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 127]);

function badValue(message: string): never {
  throw new CommandError(ErrorCodes.BadValue, message);
}

function isRegex(value: unknown): boolean {
  return value instanceof RegExp || bsonTag(value) === 'BSONRegExp';
}

/** True when an object is an operator object (`{ $gt: 1 }`), not a literal document or a DBRef. */
function isOperatorObject(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value)) return false;
  const first = Object.keys(value)[0];
  return first !== undefined && first.startsWith('$') && !['$ref', '$id', '$db'].includes(first);
}

/** A number as MongoDB prints a bad `$type` code: `nan`, `inf`, `-1.123`. */
function codeText(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  return String(n);
}

function checkType(arg: unknown): void {
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

/** The operators of one field (`{ $gt: 1, $lt: 5 }`), in order. */
function checkOperators(ops: Record<string, unknown>): void {
  for (const [op, arg] of Object.entries(ops)) {
    if (!FIELD_OPERATORS.has(op)) badValue(`unknown operator: ${op}`);
    switch (op) {
      case '$size':
        checkSize(arg);
        break;
      case '$type':
        checkType(arg);
        break;
      case '$in':
      case '$nin':
        if (!Array.isArray(arg)) badValue(`${op} needs an array`);
        break;
      case '$all':
        if (!Array.isArray(arg)) badValue('$all needs an array');
        break;
      case '$not':
        if (isRegex(arg)) break;
        if (!isPlainObject(arg)) badValue('$not needs a regex or a document');
        if (Object.keys(arg).length === 0) badValue('$not cannot be empty');
        if (isOperatorObject(arg)) checkOperators(arg);
        break;
      case '$elemMatch':
        if (!isPlainObject(arg)) badValue('$elemMatch needs an Object');
        if (isOperatorObject(arg) && !TOP_LEVEL.has(Object.keys(arg)[0]!)) checkOperators(arg);
        else checkFilter(arg);
        break;
    }
  }
}

/**
 * Checks a filter document as MongoDB parses it.
 * @throws CommandError BadValue (2) or TypeMismatch (14) with MongoDB's message.
 */
export function checkFilter(filter: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(filter)) {
    if (key.startsWith('$')) {
      if (!TOP_LEVEL.has(key)) {
        badValue(
          `unknown top level operator: ${key}. If you have a field name that starts with a '$' symbol, ` +
            'consider using $getField or $setField.',
        );
      }
      if (key === '$and' || key === '$or' || key === '$nor') {
        if (!Array.isArray(value)) badValue(`${key} must be an array`);
        if (value.length === 0) badValue('$and/$or/$nor must be a nonempty array');
        for (const entry of value as unknown[]) {
          if (!isPlainObject(entry)) badValue('$or/$and/$nor entries need to be full objects');
          checkFilter(entry);
        }
      }
    } else if (isOperatorObject(value)) {
      checkOperators(value);
    }
  }
}
