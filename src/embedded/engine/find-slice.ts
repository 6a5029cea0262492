/**
 * The `$slice` of a find projection checked as MongoDB 7.0 checks it. MongoDB first reads it with the
 * find syntax (a number, or `[skip, limit]` with a positive limit); failing that, with the expression
 * syntax (`$slice: [array, n]` or `[array, position, n]`). An argument neither syntax takes fails when
 * the projection is parsed (28667, naming both reasons); an expression whose first argument is a literal
 * that is not an array fails when it meets a document (28724). mingo answers both differently.
 */
import { bsonText } from './bson-text.js';
import { numberKind } from './arithmetic.js';
import { bsonTypeName, isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError } from '../errors.js';

function isNumber(value: unknown): boolean {
  return numberKind(value) !== undefined;
}

/** True when `[skip, limit]` is the find syntax: two numbers, a positive limit. */
function isFindPair(arg: unknown[]): boolean {
  return arg.length === 2 && isNumber(arg[0]) && isNumber(arg[1]) && Number(String(arg[1])) > 0;
}

function syntaxError(arg: unknown, reason: string, count: number): CommandError {
  return new CommandError(
    28667,
    `Invalid $slice syntax. The given syntax { $slice: ${bsonText(arg)} } did not match the find() syntax ` +
      `because :: ${reason} :: The given syntax did not match the expression $slice syntax. :: caused by :: ` +
      `Expression $slice takes at least 2 arguments, and at most 3, but ${count} were passed in.`,
  );
}

/** One `$slice` argument. */
function checkSlice(arg: unknown, hasDocuments: boolean): void {
  if (isNumber(arg)) return;
  if (!Array.isArray(arg)) {
    throw syntaxError(arg, 'Location31273: $slice only supports numbers and [skip, limit] arrays', 1);
  }
  if (isFindPair(arg)) return;
  if (arg.length < 2 || arg.length > 3) {
    throw syntaxError(
      arg,
      'Location31272: $slice array argument should be of form [skip, limit]',
      arg.length,
    );
  }
  // The expression `$slice`: a literal first argument that is not an array fails on the first document.
  // Any null argument makes the expression null, before its types are checked.
  const args = arg as unknown[];
  if (args.some((a) => a === null)) return;
  const first = args[0];
  const literal = first !== null && first !== undefined && !Array.isArray(first) && !isPlainObject(first);
  if (hasDocuments && literal && !(typeof first === 'string' && first.startsWith('$'))) {
    throw new CommandError(
      28724,
      `First argument to $slice must be an array, but is of type: ${bsonTypeName(first)}`,
    );
  }
}

/**
 * Checks every top-level `$slice` of a find projection; `hasDocuments` says whether any document will be
 * projected. @throws CommandError 28667 or 28724 as MongoDB answers.
 */
export function checkFindSlices(projection: Doc, hasDocuments: boolean): void {
  for (const value of Object.values(projection)) {
    if (isPlainObject(value) && '$slice' in value) checkSlice(value['$slice'], hasDocuments);
  }
}

/** A find-syntax count truncated toward zero, as MongoDB reads it; infinities take the whole array. */
function truncated(value: unknown): number {
  const n = Number(String(value));
  if (!Number.isFinite(n)) return n > 0 ? Number.MAX_SAFE_INTEGER : -Number.MAX_SAFE_INTEGER;
  return Math.trunc(n);
}

/**
 * A find projection with each find-syntax `$slice` made integral (`1.4` is `1`, `[-2.5, 2]` is `[-2, 2]`,
 * `Infinity` the whole array), as MongoDB reads them (mingo refuses fractions), and each expression
 * `$slice` with a null argument made the null it evaluates to.
 */
export function integralSlices(projection: Doc): Doc {
  const out: Doc = {};
  for (const [field, value] of Object.entries(projection)) {
    const arg = isPlainObject(value) ? value['$slice'] : undefined;
    if (isNumber(arg)) out[field] = { ...(value as Doc), $slice: truncated(arg) };
    else if (Array.isArray(arg) && isFindPair(arg))
      out[field] = { ...(value as Doc), $slice: [truncated(arg[0]), truncated(arg[1])] };
    else if (Array.isArray(arg) && arg.some((a) => a === null)) out[field] = { $literal: null };
    else out[field] = value;
  }
  return out;
}
