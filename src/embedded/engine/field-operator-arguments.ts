/**
 * The arguments of `$getField`, `$setField` and `$unsetField` checked as MongoDB 7.0 parses them
 * (src/mongo/db/pipeline/expression.cpp, `ExpressionGetField::parse` and `ExpressionSetField::parse`).
 * In 7.0 `field` must be a constant string when the pipeline is parsed: a field path or variable is
 * refused with a hint to wrap it in `$literal`, any other expression (an operator, an object or array
 * literal) as non-constant, even one that would compute a string. (Computed names arrived in 7.2.)
 * mingo evaluated such a `field` per document.
 */
import { checkPathExpression } from './expression-paths.js';
import { outsideText } from './proto-alias.js';
import { bsonTypeName, isPlainObject } from './values.js';
import { CommandError } from '../errors.js';

type Fail = (code: number, message: string) => never;

/** The error codes of one operator's checks, in the order of `ExpressionSetField::parse`. */
interface Codes {
  unknown: number;
  missingField: number;
  missingInput: number;
  fieldPath: number;
  nonConstant: number;
  nonString: number;
}

const GET_FIELD: Codes = {
  unknown: 3041701,
  missingField: 3041702,
  missingInput: 3041703,
  fieldPath: 5654600,
  nonConstant: 5654601,
  nonString: 5654602,
};
const SET_FIELD: Codes = {
  unknown: 4161101,
  missingField: 4161102,
  missingInput: 4161109,
  fieldPath: 4161108,
  nonConstant: 4161106,
  nonString: 4161107,
};

/**
 * What the parser makes of `expr` as a `field`: the value of a constant (a literal that is not a
 * `$`-string, array or document; `$literal`/`$const`), 'path' for a field path or variable, or
 * 'expression' for anything computed.
 */
function parsedField(expr: unknown): { constant: unknown } | 'path' | 'expression' {
  if (typeof expr === 'string' && expr.startsWith('$')) return 'path';
  if (Array.isArray(expr)) return 'expression';
  if (!isPlainObject(expr)) return { constant: expr };
  const keys = Object.keys(expr);
  if (keys.length === 1 && (keys[0] === '$literal' || keys[0] === '$const')) {
    return { constant: expr[keys[0]] };
  }
  return 'expression';
}

/**
 * A path as MongoDB's `FieldPath::fullPathWithPrefix` prints it: `'$a.b'` reads `$$CURRENT`, so it
 * is `$CURRENT.a.b`; `'$$ROOT.a'` is `$ROOT.a`.
 */
function printedPath(path: string): string {
  const text = outsideText(path);
  return text.startsWith('$$') ? text.slice(1) : `$CURRENT.${text.slice(1)}`;
}

function checkField(name: string, field: unknown, codes: Codes, fail: Fail, prefix: string): void {
  const parsed = parsedField(field);
  if (parsed === 'path') {
    // The path itself is parsed first: `'$'` or a bad variable name fails as it would anywhere.
    checkPathExpression(field as string, prefix);
    const path = printedPath(field as string);
    fail(
      codes.fieldPath,
      `'${path}' is a field path reference which is not allowed in this context. Did you mean {$literal: '${path}'}?`,
    );
  }
  if (parsed === 'expression') {
    fail(
      codes.nonConstant,
      `${name} requires 'field' to evaluate to a constant, but got a non-constant argument`,
    );
  }
  if (typeof parsed.constant !== 'string') {
    fail(
      codes.nonString,
      `${name} requires 'field' to evaluate to type String, but got ${bsonTypeName(parsed.constant)}`,
    );
  }
}

function checkGetField(arg: unknown, fail: Fail, prefix: string): void {
  // `{ $getField: <expr> }` is the short form, an object whose first name starts with `$` included.
  if (!isPlainObject(arg) || Object.keys(arg)[0]?.startsWith('$')) {
    return checkField('$getField', arg, GET_FIELD, fail, prefix);
  }
  for (const key of Object.keys(arg)) {
    if (key !== 'field' && key !== 'input')
      fail(GET_FIELD.unknown, `$getField found an unknown argument: ${key}`);
  }
  if (!('field' in arg)) fail(GET_FIELD.missingField, "$getField requires 'field' to be specified");
  if (!('input' in arg)) fail(GET_FIELD.missingInput, "$getField requires 'input' to be specified");
  checkField('$getField', arg['field'], GET_FIELD, fail, prefix);
}

function checkSetField(name: string, arg: unknown, fail: Fail, prefix: string): void {
  if (!isPlainObject(arg)) fail(4161100, `${name} only supports an object as its argument`);
  const unset = name === '$unsetField';
  for (const key of Object.keys(arg)) {
    if (key !== 'field' && key !== 'input' && (unset || key !== 'value')) {
      fail(SET_FIELD.unknown, `${name} found an unknown argument: ${key}`);
    }
  }
  if (!('field' in arg)) fail(SET_FIELD.missingField, `${name} requires 'field' to be specified`);
  if (!unset && !('value' in arg)) fail(4161103, `${name} requires 'value' to be specified`);
  if (!('input' in arg)) fail(SET_FIELD.missingInput, `${name} requires 'input' to be specified`);
  checkField(name, arg['field'], SET_FIELD, fail, prefix);
}

/** Whether `name` is one of the operators {@link checkFieldOperatorArguments} checks. */
export function isFieldOperator(name: string): boolean {
  return name === '$getField' || name === '$setField' || name === '$unsetField';
}

/**
 * Checks the argument `arg` of `$getField`, `$setField` or `$unsetField` (`name`); `prefix` is put
 * before each message.
 * @throws CommandError 3041701–3041703 and 5654600–5654602 for `$getField`, 4161100–4161103,
 *   4161106–4161109 for `$setField`/`$unsetField` (an unknown or missing argument, a field path
 *   `field`, a non-constant `field`, a constant `field` that is not a string).
 */
export function checkFieldOperatorArguments(name: string, arg: unknown, prefix = ''): void {
  const fail: Fail = (code, message) => {
    throw new CommandError(code, prefix + message);
  };
  if (name === '$getField') checkGetField(arg, fail, prefix);
  else checkSetField(name, arg, fail, prefix);
}
