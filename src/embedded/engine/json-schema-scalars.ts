/**
 * The scalar `$jsonSchema` keywords as MongoDB 7.0 parses them (`translateScalarKeywords` in
 * `json_schema_parser.cpp`, in its order): `pattern`, `maxLength`, `minLength`, `multipleOf`, `maximum` with
 * `exclusiveMaximum`, `minimum` with `exclusiveMinimum`. Argument types are checked at every level; a
 * `pattern` is compiled only below the top level (a top-level restriction never applies, documents being
 * objects, so MongoDB builds no regex for it).
 */
import { numberKind } from './arithmetic.js';
import { checkCount } from './json-schema-count.js';
import { checkMultipleOf } from './multiple-of.js';
import { LinearRegExp } from './linear-regex.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/**
 * `pattern`: a string; below the top level, a regex the engine can run (schema.ts matches it on RE2 with
 * `u` syntax). MongoDB compiles it with PCRE in RegexMatchExpression and refuses it with 51091.
 */
function checkPattern(pattern: unknown, nested: boolean): void {
  if (typeof pattern !== 'string')
    throw new CommandError(ErrorCodes.TypeMismatch, "$jsonSchema keyword 'pattern' must be a string");
  if (nested) LinearRegExp.compile(pattern, 'u');
}

/** `maximum`/`minimum` and their `exclusive…` flag (`parseMaximum`, `parseMinimum` and their caller). */
function checkBound(schema: Doc, bound: 'maximum' | 'minimum'): void {
  const exclusive = bound === 'maximum' ? 'exclusiveMaximum' : 'exclusiveMinimum';
  if (!Object.hasOwn(schema, bound)) {
    if (Object.hasOwn(schema, exclusive))
      // MongoDB's message does say "must be a present".
      throw new CommandError(
        ErrorCodes.FailedToParse,
        `$jsonSchema keyword '${bound}' must be a present if ${exclusive} is present`,
      );
    return;
  }
  if (Object.hasOwn(schema, exclusive) && typeof schema[exclusive] !== 'boolean')
    throw new CommandError(ErrorCodes.TypeMismatch, `$jsonSchema keyword '${exclusive}' must be a boolean`);
  if (numberKind(schema[bound]) === undefined && typeof schema[bound] !== 'bigint')
    throw new CommandError(ErrorCodes.TypeMismatch, `$jsonSchema keyword '${bound}' must be a number`);
}

/**
 * Checks the scalar keywords of one schema; `nested` is false for the `$jsonSchema` document itself.
 * @throws CommandError TypeMismatch (14) "$jsonSchema keyword 'minimum' must be a number" and the like;
 *   FailedToParse (9) for a bad length (json-schema-count.ts), a bad `multipleOf` (multiple-of.ts) or an
 *   `exclusiveMinimum` without `minimum`; 51091 for a nested `pattern` that does not compile.
 */
export function checkScalarKeywords(schema: Doc, nested: boolean): void {
  if (Object.hasOwn(schema, 'pattern')) checkPattern(schema['pattern'], nested);
  for (const keyword of ['maxLength', 'minLength'])
    if (Object.hasOwn(schema, keyword)) checkCount(keyword, schema[keyword]);
  if (Object.hasOwn(schema, 'multipleOf')) checkMultipleOf(schema['multipleOf'], nested);
  checkBound(schema, 'maximum');
  checkBound(schema, 'minimum');
}
