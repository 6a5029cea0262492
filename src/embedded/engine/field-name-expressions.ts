/**
 * The expressions that turn field names into strings and strings into field names — `$objectToArray`'s
 * `k`, the `field` of `$getField`, `$setField` and `$unsetField` — over mingo's, so that a field named
 * `__proto__` is that string to them, as to MongoDB, and not the engine's name for it (proto-alias.ts).
 * Without this, `k` held the engine's name (10 code points, equal to no string a pipeline writes) and a
 * `field` computed to `'__proto__'` ({ $literal: '__proto__' }) reached `Object.prototype` or set the
 * result's prototype instead of a field.
 */
import { evalExpr } from 'mingo/core';
import * as expressionOperators from 'mingo/operators/expression';
import type { ExpressionOp } from './operator-types.js';
import { engineName, PROTO_ALIAS } from './proto-alias.js';
import { soleOperand } from './expression-arity.js';
import { isNullish, typeName } from './value-strings.js';
import { isPlainObject } from './values.js';
import { CommandError } from '../errors.js';

const builtin = expressionOperators as unknown as Record<string, ExpressionOp>;

/** mingo's `op`, with the `field` option, when it evaluates to a string, read as the engine names it. */
function withEngineField(op: ExpressionOp): ExpressionOp {
  return (obj, expr, options) => {
    // The short form `{ $getField: 'name' }` is a literal name, renamed on the way in (proto-alias.ts).
    if (!isPlainObject(expr) || !('field' in expr)) return op(obj, expr, options);
    const field = evalExpr(obj, expr['field'], options);
    if (typeof field !== 'string') return op(obj, expr, options);
    return op(obj, { ...expr, field: { $literal: engineName(field) } }, options);
  };
}

/**
 * `$objectToArray`: mingo's, each `k` the field's name as MongoDB has it; its one argument may come in a
 * list (`[{ a: 1 }]`), null and missing give null and anything but a document fails with 40390
 * (`ExpressionObjectToArray::evaluate`), where mingo read the list as the argument and answered code 2.
 */
const objectToArray: ExpressionOp = (obj, expr, options) => {
  const value = evalExpr(obj, soleOperand(expr), options);
  if (isNullish(value)) return null;
  if (!isPlainObject(value)) {
    throw new CommandError(40390, `$objectToArray requires a document input, found: ${typeName(value)}`);
  }
  const entries = builtin['$objectToArray']!(obj, { $literal: value }, options);
  if (Array.isArray(entries)) {
    for (const entry of entries as { k: string }[]) if (entry.k === PROTO_ALIAS) entry.k = '__proto__';
  }
  return entries;
};

/**
 * `$getField`: mingo's, except that an `input` evaluating to null gives null (missing stays missing),
 * as in `ExpressionGetField::evaluate`, where mingo answered missing.
 */
function getFieldOf(op: ExpressionOp): ExpressionOp {
  return (obj, expr, options) => {
    if (isPlainObject(expr) && 'input' in expr && evalExpr(obj, expr['input'], options) === null) return null;
    return op(obj, expr, options);
  };
}

/**
 * `$setField`/`$unsetField`: an `input` that is neither a document nor null or missing fails with 4161105
 * (`ExpressionSetField::evaluate`, which names `$setField` for both), where mingo answered code 2.
 */
function setFieldOf(op: ExpressionOp): ExpressionOp {
  return (obj, expr, options) => {
    if (!isPlainObject(expr) || !('input' in expr)) return op(obj, expr, options);
    const input = evalExpr(obj, expr['input'], options);
    if (!isNullish(input) && !isPlainObject(input)) {
      throw new CommandError(4161105, "$setField requires 'input' to evaluate to type Object");
    }
    return op(obj, { ...expr, input: { $literal: input } }, options);
  };
}

/** The expressions above, to register over mingo's. */
export const fieldNameExpressions: Record<string, ExpressionOp> = {
  $objectToArray: objectToArray,
  $getField: getFieldOf(withEngineField(builtin['$getField']!)),
  $setField: setFieldOf(withEngineField(builtin['$setField']!)),
  // mingo's `$unsetField` calls its `$setField` directly, not through the context.
  $unsetField: setFieldOf(withEngineField(builtin['$unsetField']!)),
};
