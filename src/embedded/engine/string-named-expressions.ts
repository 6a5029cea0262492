/**
 * The string expression operators that take a document of named arguments, besides the regex ones
 * (regex-expressions.ts): `$trim`, `$ltrim`, `$rtrim` (`{ input, chars? }`) and `$replaceOne`,
 * `$replaceAll` (`{ input, find, replacement }`), with MongoDB 7.0's codes and messages
 * (src/mongo/db/pipeline/expression.cpp, ExpressionTrim and ExpressionReplaceBase): a malformed argument
 * document, a non-string input (`chars`, `find`, `replacement`), and null or missing arguments answering
 * null. mingo would trim `chars` by UTF-16 unit and answer other values without complaint.
 */
import { evalExpr } from 'mingo/core';
import type { ExpressionOp } from './operator-types.js';
import { checkStringSize } from './limits.js';
import { isPlainObject } from './values.js';
import { isNullish, typeName, valueText } from './value-strings.js';
import { CommandError } from '../errors.js';

const fail = (code: number, message: string): never => {
  throw new CommandError(code, message);
};

/** The code points `$trim` removes without `chars` (ExpressionTrim's kDefaultTrimWhitespaceChars). */
const WHITESPACE = ['\0', ' ', '\t', '\n', '\v', '\f', '\r', '\u00a0', '\u1680'].concat(
  Array.from({ length: 11 }, (_, i) => String.fromCharCode(0x2000 + i)),
);

/** The trim operators and the sides they trim. */
const TRIM_SIDES: Record<string, { left: boolean; right: boolean }> = {
  $trim: { left: true, right: true },
  $ltrim: { left: true, right: false },
  $rtrim: { left: false, right: true },
};

/**
 * The argument document of `$trim`/`$ltrim`/`$rtrim`, checked as ExpressionTrim::parse checks it.
 * @throws CommandError 50696 (not a document), 50694 (an unknown field), 50695 (no `input`).
 */
export function trimArguments(name: string, expr: unknown): Record<string, unknown> {
  if (!isPlainObject(expr))
    fail(50696, `${name} only supports an object as an argument, found ${typeName(expr)}`);
  const spec = expr as Record<string, unknown>;
  for (const field of Object.keys(spec)) {
    if (field !== 'input' && field !== 'chars') fail(50694, `${name} found an unknown argument: ${field}`);
  }
  if (!('input' in spec)) fail(50695, `${name} requires an 'input' field`);
  return spec;
}

/**
 * `$trim`/`$ltrim`/`$rtrim` of an input value, with `chars()` giving the `chars` value (called only when
 * given, `hasChars`, and the input is a string): null for a null or missing input or `chars`.
 * @throws CommandError 50699 (input not a string), 50700 (`chars` not a string).
 */
export function trimValue(name: string, input: unknown, hasChars: boolean, chars: () => unknown): unknown {
  if (isNullish(input)) return null;
  if (typeof input !== 'string') {
    fail(
      50699,
      `${name} requires its input to be a string, got ${valueText(input)} (of type ${typeName(input)}) instead.`,
    );
  }
  let points = WHITESPACE;
  if (hasChars) {
    const given = chars();
    if (isNullish(given)) return null;
    if (typeof given !== 'string') {
      fail(
        50700,
        `${name} requires 'chars' to be a string, got ${valueText(given)} (of type ${typeName(given)}) instead.`,
      );
    }
    points = Array.from(given as string);
  }
  const text = Array.from(input as string);
  const { left, right } = TRIM_SIDES[name]!;
  let start = 0;
  let end = text.length;
  while (left && start < end && points.includes(text[start]!)) start++;
  while (right && end > start && points.includes(text[end - 1]!)) end--;
  return text.slice(start, end).join('');
}

/** The `$trim`/`$ltrim`/`$rtrim` operator for mingo's context. */
function trimOperator(name: string): ExpressionOp {
  return (obj, expr, options) => {
    const spec = trimArguments(name, expr);
    const input = evalExpr(obj, spec['input'], options);
    return trimValue(name, input, 'chars' in spec, () => evalExpr(obj, spec['chars'], options));
  };
}

/** The three arguments of `$replaceOne`/`$replaceAll`, in MongoDB's order of checks. */
const REPLACE_FIELDS = [
  ['input', 51749, 51746],
  ['find', 51748, 51745],
  ['replacement', 51747, 51744],
] as const;

/**
 * The argument document of `$replaceOne`/`$replaceAll`, checked as parseExpressionReplaceBase checks it.
 * @throws CommandError 51751 (not a document), 51750 (an unknown field), 51749/51748/51747 (one missing).
 */
export function replaceArguments(name: string, expr: unknown): Record<string, unknown> {
  if (!isPlainObject(expr))
    fail(51751, `${name} requires an object as an argument, found: ${typeName(expr)}`);
  const spec = expr as Record<string, unknown>;
  for (const field of Object.keys(spec)) {
    if (!REPLACE_FIELDS.some(([known]) => known === field))
      fail(51750, `${name} found an unknown argument: ${field}`);
  }
  for (const [field, missingCode] of REPLACE_FIELDS) {
    if (!(field in spec)) fail(missingCode, `${name} requires '${field}' to be specified`);
  }
  return spec;
}

/**
 * `$replaceOne`/`$replaceAll` of evaluated arguments: every one must be a string or null/missing (checked
 * before any null answers null).
 * @throws CommandError 51746, 51745, 51744 for `input`, `find`, `replacement` of another type; 16493 for
 *   a result of 16 MiB or more (limits.ts).
 */
export function replaceValue(name: string, values: [unknown, unknown, unknown]): unknown {
  REPLACE_FIELDS.forEach(([field, , typeCode], i) => {
    const value = values[i];
    if (typeof value !== 'string' && !isNullish(value)) {
      fail(typeCode, `${name} requires that '${field}' be a string, found: ${valueText(value)}`);
    }
  });
  if (values.some(isNullish)) return null;
  const [input, find, replacement] = values as [string, string, string];
  if (name === '$replaceAll') {
    // An empty `find` matches at every position, before each character and at the end.
    if (find === '')
      return checkStringSize(
        Array.from(input)
          .map((c) => replacement + c)
          .join('') + replacement,
      );
    return checkStringSize(input.split(find).join(replacement));
  }
  const at = input.indexOf(find);
  return at < 0 ? input : checkStringSize(input.slice(0, at) + replacement + input.slice(at + find.length));
}

/** The `$replaceOne`/`$replaceAll` operator for mingo's context. */
function replaceOperator(name: string): ExpressionOp {
  return (obj, expr, options) => {
    const spec = replaceArguments(name, expr);
    const values = REPLACE_FIELDS.map(([field]) => evalExpr(obj, spec[field], options));
    return replaceValue(name, values as [unknown, unknown, unknown]);
  };
}

/** The operators above, registered over mingo's (strict-expressions.ts). */
export const stringNamedExpressions: Record<string, ExpressionOp> = {
  $trim: trimOperator('$trim'),
  $ltrim: trimOperator('$ltrim'),
  $rtrim: trimOperator('$rtrim'),
  $replaceOne: replaceOperator('$replaceOne'),
  $replaceAll: replaceOperator('$replaceAll'),
};
