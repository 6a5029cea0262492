/**
 * The string operators MongoDB evaluates while it optimizes an expression, before any document is read
 * (expression.cpp): a list operator (`$substrBytes`, `$strLenCP`, `$split` …) whose arguments are all
 * constants is folded (ExpressionNary::optimize), a `$trim` whose `input` and `chars` are (ExpressionTrim::
 * optimize), and a regex operator compiles a constant `regex`/`options` (ExpressionRegex::optimize, even
 * when `input` reads the document). So `{ $strLenBytes: 1 }` fails with 34473 and
 * `{ $regexMatch: { input: '$a', regex: '(' } }` with 51111 on an empty collection. `$replaceOne` and
 * `$replaceAll` are not folded. Constants are literals, `$literal`, arrays and documents of constants and
 * string operators of constants; any other operator counts as not constant, so fewer calls fold here than
 * in MongoDB (those fail when a document reaches them).
 */
import { isPlainObject } from './values.js';
import { compileRegex } from './regex-expressions.js';
import { checkStringArity, STRING_FUNCTIONS } from './string-expressions.js';
import { trimValue } from './string-named-expressions.js';

type Constant = { value: unknown } | undefined;

/** A list operator's written arguments (a single non-array argument is the one-argument form). */
const argumentList = (argument: unknown): unknown[] => (Array.isArray(argument) ? argument : [argument]);

/**
 * The values of `exprs` when every one is a constant (within what is modelled here: literals,
 * `$literal`, arrays and documents of constants, string operators of constants), else undefined.
 */
export function constantValues(exprs: unknown[]): unknown[] | undefined {
  const values: unknown[] = [];
  for (const expr of exprs) {
    const constant = constantValue(expr);
    if (!constant) return undefined;
    values.push(constant.value);
  }
  return values;
}

/** A list string operator's value when its arguments are constants and their number is right. */
function foldedList(name: string, argument: unknown): Constant {
  const list = argumentList(argument);
  const values = constantValues(list);
  if (!values) return undefined;
  try {
    checkStringArity(name, list.length);
  } catch {
    return undefined; // the parser's arity error, not a fold
  }
  return { value: STRING_FUNCTIONS[name]!({ count: values.length, get: (i) => values[i] }) };
}

/** `expr`'s value when MongoDB's optimizer makes it a constant (within what is modelled here). */
function constantValue(expr: unknown): Constant {
  if (typeof expr === 'string') return expr.startsWith('$') ? undefined : { value: expr };
  if (Array.isArray(expr)) {
    const values = constantValues(expr);
    return values && { value: values };
  }
  if (!isPlainObject(expr)) return { value: expr };
  const keys = Object.keys(expr);
  if (keys.length === 1 && keys[0] === '$literal') return { value: expr['$literal'] };
  if (keys.length === 1 && keys[0]! in STRING_FUNCTIONS) return foldedList(keys[0]!, expr[keys[0]!]);
  if (keys.some((k) => k.startsWith('$'))) return undefined;
  const values = constantValues(Object.values(expr));
  return values && { value: Object.fromEntries(keys.map((k, i) => [k, values[i]])) };
}

/** The constant value of an optional named argument: absent counts as constant (allNullOrConstant). */
function optionalConstant(spec: Record<string, unknown>, field: string): Constant {
  return field in spec ? constantValue(spec[field]) : { value: undefined };
}

/**
 * Evaluates string operator `name` as MongoDB's optimizer does when the parts it folds are constants, so
 * that its evaluation errors surface before any document is read. `argument` is the operator's argument
 * as written; a malformed one is left to the operator (its errors are parse errors, not folds).
 * @throws CommandError the operator's own evaluation error (34473, 16034, 50699, 51111 …), unprefixed.
 */
export function foldStringExpression(name: string, argument: unknown): void {
  if (name in STRING_FUNCTIONS) {
    foldedList(name, argument);
    return;
  }
  if (!isPlainObject(argument)) return;
  const keys = Object.keys(argument);
  if (name === '$trim' || name === '$ltrim' || name === '$rtrim') {
    if (!('input' in argument) || keys.some((k) => k !== 'input' && k !== 'chars')) return;
    const input = constantValue(argument['input']);
    const chars = optionalConstant(argument, 'chars');
    if (input && chars) trimValue(name, input.value, 'chars' in argument, () => chars.value);
    return;
  }
  if (name === '$regexMatch' || name === '$regexFind' || name === '$regexFindAll') {
    if (!('input' in argument && 'regex' in argument)) return;
    if (keys.some((k) => k !== 'input' && k !== 'regex' && k !== 'options')) return;
    const regex = constantValue(argument['regex']);
    const options = optionalConstant(argument, 'options');
    if (regex && options) compileRegex(name, regex.value, options.value ?? null);
  }
}
