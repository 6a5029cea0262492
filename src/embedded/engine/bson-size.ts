/**
 * The BSON size of a value, measured without walking it as a tree. Expressions build values that share
 * their parts: a `$reduce` whose step is `{ a: '$$value', b: '$$value' }` holds one new object per step,
 * yet its BSON doubles at each step (2^40 fields after 40 steps). Each distinct object or array is
 * measured once here, so the time is that of the memory the value holds, not of its BSON.
 */
import { BSON, Binary } from 'bson';
import type { BSONRegExp, BSONSymbol, Code } from 'bson';
import { aliasExtraBytes } from './proto-alias.js';
import { bsonTag, isPlainObject } from './values.js';
import type { Doc } from './values.js';

type Container = Doc | unknown[];

function isContainer(value: unknown): value is Container {
  return Array.isArray(value) || isPlainObject(value);
}

/** The bytes of a BSON element's value that is not a document or an array (its type byte and name aside). */
function leafSize(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return 5 + utf8Length(value);
    case 'number':
      // js-bson writes an integer in the int32 range as an int32, any other number (-0 too: an int32
      // has no negative zero) as a double.
      return Number.isInteger(value) && value >= -0x80000000 && value <= 0x7fffffff && !Object.is(value, -0)
        ? 4
        : 8;
    case 'boolean':
      return 1;
    case 'undefined':
      return 0; // written as null
    default:
      if (value === null) return 0;
      if (value instanceof Date) return 8;
      return bsonTypeSize(value as object) ?? otherSize(value);
  }
}

/**
 * The bytes of a js-bson value, a regex or a binary view, read from its type as js-bson writes it
 * (bsonspec.org), without the allocation of a measuring document: an ObjectId's 12 bytes, a binData's
 * int32 length, subtype byte and bytes (subtype 2 repeats the length inside), a regex's pattern and
 * options as two cstrings … Undefined for another object (a DBRef, a Code with a scope, a class with
 * `toBSON`), which {@link otherSize} measures.
 */
function bsonTypeSize(value: object): number | undefined {
  if (value instanceof RegExp) {
    const flags = (value.global ? 1 : 0) + (value.ignoreCase ? 1 : 0) + (value.multiline ? 1 : 0);
    return Buffer.byteLength(value.source, 'utf8') + 1 + flags + 1;
  }
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return 5 + value.byteLength;
  switch (bsonTag(value)) {
    case 'ObjectId':
      return 12;
    case 'Int32':
      return 4;
    case 'Long':
    case 'Double':
    case 'Timestamp':
      return 8;
    case 'Decimal128':
      return 16;
    case 'MinKey':
    case 'MaxKey':
      return 0;
    case 'Binary': {
      const { position, sub_type } = value as Binary;
      return 5 + position + (sub_type === Binary.SUBTYPE_BYTE_ARRAY ? 4 : 0);
    }
    case 'BSONSymbol':
      return 5 + Buffer.byteLength((value as BSONSymbol).value, 'utf8');
    case 'BSONRegExp': {
      const { pattern, options } = value as BSONRegExp;
      return Buffer.byteLength(pattern, 'utf8') + 1 + Buffer.byteLength(options, 'utf8') + 1;
    }
    case 'Code': {
      const { code, scope } = value as Code;
      return scope == null ? 5 + Buffer.byteLength(code, 'utf8') : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * The bytes of any other value, measured by js-bson: `{ v: value }` is a 4-byte length, a type byte,
 * `v` and its NUL, the value and the closing NUL.
 */
function otherSize(value: unknown): number {
  return BSON.calculateObjectSize({ v: value }) - 8;
}

/**
 * The UTF-8 bytes of `s` as MongoDB holds it, the engine's name for `__proto__` (proto-alias.ts) counted
 * as `__proto__`. Field names and most strings are ASCII, counted without a native call.
 */
function utf8Length(s: string): number {
  if (s.length <= 32) {
    let ascii = true;
    for (let i = 0; i < s.length && ascii; i++) ascii = s.charCodeAt(i) < 0x80;
    if (ascii) return s.length;
  }
  return Buffer.byteLength(s, 'utf8') - aliasExtraBytes(s);
}

/**
 * The BSON size of `node` given `valueSize`, the size of each element's value, or -1 as soon as
 * `valueSize` answers -1. An element is a type byte, a name and its NUL, and the value; an array's names
 * are its indexes in decimal.
 */
function containerSize(node: Container, valueSize: (child: unknown) => number): number {
  let total = 5; // the 4-byte length and the closing NUL
  if (Array.isArray(node)) {
    let digits = 1;
    let nextDigit = 10;
    for (let i = 0; i < node.length; i++) {
      if (i === nextDigit) {
        digits++;
        nextDigit *= 10;
      }
      const size = valueSize(node[i]);
      if (size < 0) return -1;
      total += 2 + digits + size;
    }
    return total;
  }
  for (const key of Object.keys(node)) {
    const child = node[key];
    // BSON.calculateObjectSize leaves undefined, functions and symbols out of a document.
    if (child === undefined || typeof child === 'function' || typeof child === 'symbol') continue;
    const size = valueSize(child);
    if (size < 0) return -1;
    total += 2 + utf8Length(key) + size;
  }
  return total;
}

/**
 * The bytes `value` takes as a BSON element's value (type byte and name aside): a document's or an array's
 * full BSON size, as `BSON.calculateObjectSize` gives it for a document but with a field or string
 * named `__proto__` counted as MongoDB holds it (proto-alias.ts), in time and memory proportional to the
 * distinct objects and arrays it holds, at any nesting depth. `known` keeps the sizes measured across
 * calls that measure values built from one another (`$reduce`'s steps), whose objects and arrays must not
 * change meanwhile: each is then measured once over all the calls.
 */
export function bsonValueSize(value: unknown, known?: WeakMap<object, number>): number {
  if (!isContainer(value)) return leafSize(value);
  if (known) return sharedSize(value, known);
  budget = TREE_BUDGET;
  depth = 0;
  const size = treeSize(value);
  return size < 0 ? sharedSize(value) : size;
}

/** Containers a value may hold to be measured as a plain tree, the common case, without bookkeeping. */
const TREE_BUDGET = 10_000;
/** Recursion depth past which a value is measured by {@link sharedSize}, which needs no stack. */
const TREE_DEPTH = 100;
let budget = 0;
let depth = 0;

/** `node`'s BSON size walked as a tree, or -1 once the walk passes the budget or the depth. */
function treeSize(node: Container): number {
  if (--budget < 0 || depth > TREE_DEPTH) return -1;
  return containerSize(node, treeValueSize);
}

function treeValueSize(child: unknown): number {
  if (!isContainer(child)) return leafSize(child);
  depth++;
  const size = treeSize(child);
  depth--;
  return size;
}

/**
 * `value`'s BSON size with each distinct object or array measured once, without recursion: a container
 * whose children are not all in `sizes` yet is left on the stack under them and measured again after.
 */
function sharedSize(value: Container, sizes = new WeakMap<object, number>()): number {
  const stack: Container[] = [value];
  let missing = false;
  const valueSize = (child: unknown): number => {
    if (typeof child !== 'object' || child === null) return leafSize(child);
    const size = sizes.get(child);
    if (size !== undefined) return size;
    if (!isContainer(child)) return leafSize(child);
    stack.push(child);
    missing = true;
    return 0;
  };
  while (stack.length > 0) {
    const node = stack[stack.length - 1]!;
    if (sizes.has(node)) {
      stack.pop();
      continue;
    }
    missing = false;
    const size = containerSize(node, valueSize);
    if (!missing) {
      sizes.set(node, size);
      stack.pop();
    }
  }
  return sizes.get(value)!;
}
