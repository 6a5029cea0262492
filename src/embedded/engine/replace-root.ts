/**
 * `$replaceRoot: { newRoot: <expr> }` and `$replaceWith: <expr>`: each document becomes the value of the
 * expression, which must be a document. MongoDB refuses anything else with 40228, naming the value, its
 * type and the input document; mingo's own stages fail with code 2 and a message of their own.
 */
import { evalExpr } from 'mingo/core';
import type { PipelineOp } from './operator-types.js';
import { bsonTypeName, isPlainObject } from './values.js';
import { valueText } from './value-strings.js';
import { CommandError } from '../errors.js';

/** A value as MongoDB's `Value::toString` prints it in messages: `{a: {b: 10}}`, `"x"`, `[1, 2]`. */
function show(value: unknown): string {
  if (value === undefined) return 'MISSING';
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(show).join(', ')}]`;
  if (isPlainObject(value)) {
    return `{${Object.entries(value)
      .map(([k, v]) => `${k}: ${show(v)}`)
      .join(', ')}}`;
  }
  if (value instanceof Date) return value.toISOString();
  // Other BSON values (ObjectId, Long, MaxKey, regexes, BinData …) as value-strings.ts prints them.
  if (value !== null && typeof value === 'object') return valueText(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value);
  }
  return 'null';
}

function replaceWith(expr: unknown): PipelineOp {
  return (collection, _spec, options) =>
    collection.map((doc: unknown) => {
      const root = evalExpr(doc, expr, options);
      if (!isPlainObject(root)) {
        const type = root === undefined ? 'missing' : bsonTypeName(root);
        throw new CommandError(
          40228,
          `'newRoot' expression must evaluate to an object, but resulting value was: ${show(root)}. ` +
            `Type of resulting value: '${type}'. Input document: ${show(doc)}`,
        );
      }
      return root;
    });
}

/** The `$replaceRoot` stage; a spec without `newRoot` is 40231. */
export const replaceRootStage: PipelineOp = (collection, spec, options) => {
  if (!isPlainObject(spec) || !('newRoot' in spec)) {
    throw new CommandError(40231, 'no newRoot specified for the $replaceRoot stage');
  }
  return replaceWith(spec['newRoot'])(collection, spec, options);
};

/** The `$replaceWith` stage: `$replaceRoot` with the expression as its whole spec. */
export const replaceWithStage: PipelineOp = (collection, spec, options) =>
  replaceWith(spec)(collection, spec, options);
