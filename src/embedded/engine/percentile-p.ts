/**
 * The `p` of `$percentile`, as MongoDB 7.0 reads it (accumulator_percentile.cpp parseP): the expression
 * is parsed and optimized once, when the pipeline is parsed, and must then be a constant (7750300), an
 * array (7750301) of numbers (7750302) from [0, 1] (7750303). It is the same in `$group`,
 * `$setWindowFields` and the expression form, and it never reads a document or a group key.
 *
 * What folds into a constant is modelled here: literals, `$literal`, arrays and documents of constants,
 * operators whose arguments are all constants (ExpressionNary::optimize folds them), `$$REMOVE` and the
 * command's `let` variables (set with setConstantValue). A field path, `$$ROOT`/`$$CURRENT`, `$$NOW`, a
 * `$let`/`$map`/`$filter`/`$reduce` variable, a `$lookup` variable and `$rand`/`$meta` are not. A literal
 * `p` is checked while parsing; one that must be evaluated (an operator, a `let` variable) when first
 * evaluated, against no document.
 */
import { numberKind } from './arithmetic.js';
import { bsonText } from './bson-text.js';
import { numberOf, valueText } from './value-strings.js';
import { isPlainObject } from './values.js';
import type { VariableScope } from './variable-scope.js';
import { CommandError } from '../errors.js';

/**
 * How constant an expression is, from most to least: a literal, a constant to evaluate, one whose user
 * variables cannot be told (checked without a scope), one that varies.
 */
const LITERAL = 0;
const FOLDED = 1;
const UNKNOWN = 2;
const VARYING = 3;

/** Operators the optimizer never folds: they bind variables or read something besides their arguments. */
const NEVER_FOLDED = new Set(['$rand', '$meta', '$let', '$map', '$filter', '$reduce', '$function']);

function variableConstancy(path: string, scope: VariableScope | undefined): number {
  const name = path.slice(2).split('.')[0]!;
  if (name === 'REMOVE' || scope?.isConstant(name)) return FOLDED;
  // The other system variables (ROOT, CURRENT, NOW …) start with a capital, as no user variable does.
  if (/^[A-Z]/.test(name) || scope) return VARYING;
  return UNKNOWN;
}

function constancy(expr: unknown, scope: VariableScope | undefined): number {
  if (typeof expr === 'string') {
    if (!expr.startsWith('$')) return LITERAL;
    return expr.startsWith('$$') ? variableConstancy(expr, scope) : VARYING;
  }
  const parts = Array.isArray(expr) ? expr : isPlainObject(expr) ? Object.values(expr) : [];
  let most = LITERAL;
  if (isPlainObject(expr)) {
    const operator = Object.keys(expr)[0];
    if (operator === '$literal') return LITERAL;
    if (operator !== undefined && NEVER_FOLDED.has(operator)) return VARYING;
    if (operator?.startsWith('$')) most = FOLDED;
  }
  for (const part of parts) most = Math.max(most, constancy(part, scope));
  return most;
}

/** `expr` without its `$literal` wrappers, for an expression `constancy` found LITERAL. */
function literalValue(expr: unknown): unknown {
  if (Array.isArray(expr)) return expr.map(literalValue);
  if (!isPlainObject(expr)) return expr;
  if (Object.keys(expr)[0] === '$literal') return expr['$literal'];
  return Object.fromEntries(Object.entries(expr).map(([k, v]) => [k, literalValue(v)]));
}

const P_MESSAGE = "The $percentile 'p' field must be an array of numbers from [0.0, 1.0], but found: ";

/**
 * The percentiles of a constant `p` (its value, evaluated).
 * @throws CommandError 7750301 for a value that is not a non-empty array, 7750302 for an element that is
 * not a number, 7750303 for one outside [0, 1], with MongoDB's message.
 */
export function percentilesOf(p: unknown): number[] {
  if (!Array.isArray(p) || p.length === 0) throw new CommandError(7750301, P_MESSAGE + valueText(p));
  return p.map((value: unknown) => {
    if (numberKind(value) === undefined) throw new CommandError(7750302, P_MESSAGE + valueText(value));
    const n = numberOf(value);
    if (!(n >= 0 && n <= 1)) throw new CommandError(7750303, P_MESSAGE + valueText(value));
    return n;
  });
}

/**
 * Checks `$percentile`'s `p` as MongoDB parses it; `scope` is where the operator stands (undefined when
 * the caller does not track it: then a user variable is left to evaluation).
 * @throws CommandError 7750300 for a `p` that is not a constant, or `percentilesOf`'s errors for a
 * literal one.
 */
export function checkPercentileP(p: unknown, scope: VariableScope | undefined): void {
  const kind = constancy(p, scope);
  if (kind === VARYING) {
    throw new CommandError(
      7750300,
      `The $percentile 'p' field must be an array of constant values, but found value: ${bsonText(p)}.`,
    );
  }
  if (kind === LITERAL) percentilesOf(literalValue(p));
}
