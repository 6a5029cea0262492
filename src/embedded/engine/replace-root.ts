/**
 * `$replaceRoot: { newRoot: <expr> }` and `$replaceWith: <expr>`: each document becomes the value of the
 * expression, which must be a document. MongoDB refuses anything else with 40228, naming the value, its
 * type and the input document; mingo's own stages fail with code 2 and a message of their own.
 */
import { evalExpr } from 'mingo/core';
import type { PipelineOp } from './operator-types.js';
import { bsonTag, bsonTypeName, isPlainObject } from './values.js';
import { bsonText } from './bson-text.js';
import { CommandError } from '../errors.js';

/**
 * The BSON types whose JS objects do not print themselves as `Value`'s operator<< does (value.cpp):
 * `MaxKey`, `/a/i`, `Code("…")`, `CodeWScope("…", { … })`, `Symbol("…")`, `BinData(0, "0A")`.
 */
function taggedShow(value: unknown): string | undefined {
  const v = value as Record<string, unknown>;
  switch (bsonTag(value)) {
    case 'MinKey':
    case 'MaxKey':
    case 'BSONRegExp':
      // The same text as BSONElement::toString's.
      return bsonText(value);
    case 'BSONSymbol':
      return `Symbol("${String(v['value'])}")`;
    case 'Code':
      return v['scope'] == null
        ? `Code("${String(v['code'])}")`
        : `CodeWScope("${String(v['code'])}", ${bsonText(v['scope'])})`;
    case 'Binary': {
      const binary = value as { sub_type: number; buffer: Uint8Array };
      return `BinData(${binary.sub_type}, "${Buffer.from(binary.buffer).toString('hex').toUpperCase()}")`;
    }
    default:
      return undefined;
  }
}

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
  const tagged = taggedShow(value);
  if (tagged !== undefined) return tagged;
  // BSON values (ObjectId, Long, Decimal128 …) print themselves.
  if (value !== null && typeof value === 'object') return (value as { toString(): string }).toString();
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
