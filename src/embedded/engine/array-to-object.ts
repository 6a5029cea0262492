/**
 * `$arrayToObject` as MongoDB 7.0 evaluates it (ExpressionArrayToObject::evaluate, expression.cpp):
 * null for a null or missing input, else an array of `[k, v]` pairs or of `{ k, v }` documents (the first
 * element decides which), each checked in that order, the key a string without a NUL byte (BSON field
 * names end at one, so MongoDB refuses it here, 4940400 / 4940401, rather than building a document it
 * cannot store). mingo's own version answers a wrong result instead of most of these errors, flattens a
 * pair's array value, and would turn a `__proto__` key into the result's prototype (here it is a field,
 * under the engine's name for it, proto-alias.ts); a repeated key keeps its first place and takes its
 * last value, as in MongoDB's MutableDocument.
 */
import { evalExpr } from 'mingo/core';
import type { ExpressionOp } from './operator-types.js';
import { bsonText } from './bson-text.js';
import { engineName } from './proto-alias.js';
import { bsonTypeName, isPlainObject, setOwn } from './values.js';
import type { Doc } from './values.js';
import { CommandError } from '../errors.js';

function fail(code: number, message: string): never {
  throw new CommandError(code, message);
}

/** A key that BSON can hold as a field name. */
function checkKey(key: string, code: number): void {
  if (key.includes('\0')) fail(code, 'Key field cannot contain an embedded null byte');
}

/** The key and value of one `[k, v]` element. */
function pair(element: unknown): [string, unknown] {
  if (!Array.isArray(element)) {
    fail(
      40396,
      '$arrayToObject requires a consistent input format. Elements mustall be arrays or all be objects. ' +
        `Array was detected, now found: ${bsonTypeName(element)}`,
    );
  }
  if (element.length !== 2)
    fail(40397, `$arrayToObject requires an array of size 2 arrays,found array of size: ${element.length}`);
  const [key, value] = element as [unknown, unknown];
  if (typeof key !== 'string') {
    fail(
      40395,
      '$arrayToObject requires an array of key-value pairs, where the key must be of type string. ' +
        `Found key type: ${bsonTypeName(key)}`,
    );
  }
  checkKey(key, 4940400);
  return [key, value];
}

/** The key and value of one `{ k, v }` element. */
function keyValue(element: unknown): [string, unknown] {
  if (!isPlainObject(element)) {
    fail(
      40391,
      '$arrayToObject requires a consistent input format. Elements mustall be arrays or all be objects. ' +
        `Object was detected, now found: ${bsonTypeName(element)}`,
    );
  }
  const size = Object.keys(element).length;
  if (size !== 2) {
    fail(
      40392,
      `$arrayToObject requires an object keys of 'k' and 'v'. Found incorrect number of keys:${size}`,
    );
  }
  const has = (name: string) => Object.prototype.hasOwnProperty.call(element, name);
  if (!has('k') || !has('v')) {
    fail(
      40393,
      `$arrayToObject requires an object with keys 'k' and 'v'. Missing either or both keys from: ${bsonText(element)}`,
    );
  }
  const key = element['k'];
  if (typeof key !== 'string') {
    fail(
      40394,
      "$arrayToObject requires an object with keys 'k' and 'v', where the value of 'k' must be of type " +
        `string. Found type: ${bsonTypeName(key)}`,
    );
  }
  checkKey(key, 4940401);
  return [key, element['v']];
}

/** `$arrayToObject`: its one argument, alone or in a one-element list, evaluated to an array of entries. */
export const arrayToObject: ExpressionOp = (obj, expr, options) => {
  const input = evalExpr(obj, Array.isArray(expr) && expr.length === 1 ? expr[0] : expr, options);
  if (input === null || input === undefined) return null;
  if (!Array.isArray(input))
    fail(40386, `$arrayToObject requires an array input, found: ${bsonTypeName(input)}`);
  const out: Doc = {};
  if (input.length === 0) return out;
  const first: unknown = input[0];
  const entry = Array.isArray(first)
    ? pair
    : isPlainObject(first)
      ? keyValue
      : fail(40398, `Unrecognised input type format for $arrayToObject: ${bsonTypeName(first)}`);
  for (const element of input) {
    const [key, value] = entry(element);
    setOwn(out, engineName(key), value);
  }
  return out;
};
