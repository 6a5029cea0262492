/**
 * Filter preparation and compilation: BSON regexes (all options, `x` included) become JS RegExps,
 * `$text` is split off (the engine evaluates it against the text index), and compiled mingo queries
 * are cached by filter and collation.
 */
import { Query } from 'mingo/query';
import { mingoOptions } from './mingo-options.js';
import { checkFilter } from './filter-check.js';
import { checkFilterSchemas } from './schema-check.js';
import { isTooLong, LinearRegExp } from './linear-regex.js';
import { withWritten } from './regex-values.js';
import { stripExtended } from './regex-extended.js';
import { rewritePathless } from './pathless-operators.js';
import type { Collation } from './collation.js';
import { isExpressionDocument, PATH_KEYWORDS } from './match-arguments.js';
import { elementQuery } from './pull-object.js';
import { WHOLE_VALUE } from './query-path.js';
import { SERVER_JAVASCRIPT, serverJavaScriptError } from './javascript-operators.js';
import { bsonTag, isPlainObject, keyOf } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/**
 * Builds a RegExp from a MongoDB pattern and options string (`i m s x` and `u`); it matches in linear
 * time (linear-regex.ts).
 * @throws CommandError BadValue (2) for a pattern past 32,764 UTF-8 bytes or a NUL byte in the pattern or
 *   options (MongoDB's RegexMatchExpression), 51108 on an unknown option, 51091 on a pattern RE2
 *   cannot run.
 */
export function makeRegExp(source: string, options: string): RegExp {
  // RegexMatchExpression::_init's checks, in its order, on the pattern as written (before `x`).
  if (isTooLong(source)) throw new CommandError(ErrorCodes.BadValue, 'Regular expression is too long');
  if (source.includes('\0'))
    throw new CommandError(ErrorCodes.BadValue, 'Regular expression cannot contain an embedded null byte');
  if (options.includes('\0'))
    throw new CommandError(
      ErrorCodes.BadValue,
      'Regular expression options string cannot contain an embedded null byte',
    );
  let flags = '';
  let pattern = source;
  for (const opt of options) {
    if (opt === 'i' || opt === 'm' || opt === 's') {
      if (!flags.includes(opt)) flags += opt;
    } else if (opt === 'x') pattern = stripExtended(pattern);
    else if (opt !== 'u' && opt !== 'l') {
      throw new CommandError(51108, `invalid flag in regex options: ${opt}`);
    }
  }
  return withWritten(LinearRegExp.compile(pattern, flags), source, options);
}

function convertRegex(value: unknown): unknown {
  if (bsonTag(value) === 'BSONRegExp') {
    const r = value as { pattern: string; options: string };
    return makeRegExp(r.pattern, r.options);
  }
  return value;
}

/** Rewrites a filter for mingo (regexes). Never mutates its input. */
export function prepareFilter(filter: unknown): Doc {
  if (filter === undefined || filter === null) return {};
  if (typeof filter !== 'object' || Array.isArray(filter)) {
    throw new CommandError(ErrorCodes.TypeMismatch, 'filter must be an object');
  }
  checkFilter(filter as Doc);
  checkFilterSchemas(filter as Doc);
  // `$comment` only labels the query (for logs and profilers); `$alwaysTrue`/`$alwaysFalse` are constants.
  return prepareValue(rewritePathless(filter as Doc)) as Doc;
}

/**
 * A `$pull` condition prepared for mingo's `$pull` as MongoDB's PullNode reads it (pull_node.cpp): a
 * document whose first field is not a field operator is a query on the element's fields, pathless
 * operators (`$ref`, `$and` …) included (pull-object.ts); one that opens with a field operator
 * (`{ $gt: 1 }`, `{ $elemMatch: … }`) or a regex applies to the element itself, an array element's
 * elements included; any other value is compared with each element whole (EqualityMatcher: `5` does
 * not pull `[5]`), as a query on query-path.ts's {@link WHOLE_VALUE}, which mingo's `$pull` runs on the
 * element itself.
 * Never mutates its input. The condition was checked by pull-condition.ts.
 */
export function preparePullCondition(condition: unknown): unknown {
  // A regex matches each element as `{ $regex }` does (PullNode's WrappedObjectMatcher).
  if (bsonTag(condition) === 'BSONRegExp') return convertRegex(condition);
  if (!isPlainObject(condition)) return { [WHOLE_VALUE]: { $eq: condition } };
  const first = Object.keys(condition)[0];
  if (first !== undefined && PATH_KEYWORDS.has(first)) return prepareValue(condition);
  return elementQuery(prepareValue(rewritePathless(condition)) as Doc);
}

/** Geospatial query operators, which the embedded engine does not implement. */
const geospatial = new Set(['$near', '$nearSphere', '$geoWithin', '$geoIntersects', '$within']);

function prepareValue(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(prepareValue);
  if (value instanceof Date || value instanceof RegExp) return value;
  const tag = bsonTag(value);
  if (tag === 'BSONRegExp') return convertRegex(value);
  if (tag !== undefined) return value;
  const obj = value as Doc;
  if ('$regex' in obj) {
    const raw = obj['$regex'];
    const options = typeof obj['$options'] === 'string' ? obj['$options'] : '';
    let regex: RegExp;
    if (typeof raw === 'string') regex = makeRegExp(raw, options);
    else if (bsonTag(raw) === 'BSONRegExp') {
      const r = raw as { pattern: string; options: string };
      regex = makeRegExp(r.pattern, options || r.options);
    } else if (raw instanceof RegExp) regex = options ? makeRegExp(raw.source, options) : raw;
    else throw new CommandError(ErrorCodes.BadValue, '$regex has to be a string');
    const out: Doc = {};
    for (const key of Object.keys(obj)) {
      if (key === '$options') continue;
      out[key] = key === '$regex' ? regex : prepareValue(obj[key]);
    }
    return out;
  }
  if ('$options' in obj) throw new CommandError(ErrorCodes.BadValue, '$options needs a $regex');
  const out: Doc = {};
  for (const key of Object.keys(obj)) {
    if (SERVER_JAVASCRIPT.has(key)) throw serverJavaScriptError(key);
    if (geospatial.has(key)) {
      throw new CommandError(
        ErrorCodes.NotImplemented,
        `${key} is a geospatial query, which the embedded database does not support`,
      );
    }
    out[key] = isDocumentValue(key, obj[key])
      ? { $eq: obj[key] }
      : prepareValue(elemMatchQuery(key, obj[key]));
  }
  return out;
}

/**
 * A field's value that is a document holding `$` names but no operators: a DBRef-shaped one
 * (`{ d: { $ref: 'c', $id: 5 } }`, MatchExpressionParser's isDBRefDocument) or one whose first name has
 * no `$`. MongoDB matches it as a value, by document equality, where mingo would read its `$` names as
 * operators.
 */
function isDocumentValue(key: string, value: unknown): boolean {
  return (
    !key.startsWith('$') &&
    isPlainObject(value) &&
    !isExpressionDocument(value, false) &&
    Object.keys(value).some((name) => name.startsWith('$'))
  );
}

/**
 * An `$elemMatch` argument with its pathless operators rewritten as pathless-operators.ts rewrites a
 * filter's (`{ $ref: 'c', extra: 1 }`, `{ $and: [{ $id: 5 }] }`): mingo reads `$ref` beside `extra` as
 * an unknown top-level operator. An argument of operators on the element (`{ $gt: 1 }`) holds none of
 * those names and comes back as it was; any other value is returned as it is.
 */
function elemMatchQuery(key: string, value: unknown): unknown {
  return key === '$elemMatch' && isPlainObject(value) ? rewritePathless(value) : value;
}

/** Splits a top-level `$text` clause off a prepared filter. */
export function splitText(filter: Doc): { rest: Doc; text?: Doc } {
  if (!('$text' in filter)) return { rest: filter };
  const { $text, ...rest } = filter;
  if (!$text || typeof $text !== 'object')
    throw new CommandError(ErrorCodes.BadValue, '$text expects an object');
  return { rest, text: $text as Doc };
}

const cache = new Map<string, Query>();
const CACHE_LIMIT = 1000;

/**
 * A compiled (and cached) mingo query for a prepared filter.
 * @throws CommandError BadValue when mingo rejects the filter (unknown operator, bad argument).
 */
export function compile(filter: Doc, collation?: Collation, variables?: Doc): Query {
  const key =
    keyOf(filter) +
    '|' +
    (collation ? JSON.stringify(collation) : '') +
    (variables ? '|' + keyOf(variables) : '');
  let q = cache.get(key);
  if (q) return q;
  try {
    q = new Query(filter, mingoOptions(collation, variables ? { variables } : {}));
  } catch (error) {
    if (error instanceof CommandError) throw error;
    throw new CommandError(ErrorCodes.BadValue, (error as Error).message);
  }
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(key, q);
  return q;
}

/** True when the filter is `{}`. */
export function isEmptyFilter(filter: Doc): boolean {
  for (const _ in filter) return false;
  return true;
}
