/**
 * MongoDB's limits on stored documents (https://www.mongodb.com/docs/manual/reference/limits/):
 * "The maximum BSON document size is 16 mebibytes" and "MongoDB supports no more than 100 levels of
 * nesting for BSON documents. Each object or array adds a level." Every write path checks a document
 * with {@link checkStorable} before storing it, so nothing is acknowledged that could not be kept.
 */
import { BSON } from 'bson';
import { bsonValueSize } from './bson-size.js';
import { outsideSize } from './proto-alias.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** `maxBsonObjectSize`: the largest document a client may store, in bytes (16 MiB). */
export const MAX_BSON_OBJECT_SIZE = 16 * 1024 * 1024;
/** The largest BSON object MongoDB parses at all (16 MiB + 16 KiB: room for a command around a document). */
export const MAX_BSON_INTERNAL_SIZE = MAX_BSON_OBJECT_SIZE + 16 * 1024;
/** Nesting levels a stored document may have (the document itself is level 1). */
export const MAX_NESTING_DEPTH = 100;
/** Reply batches stop before this many bytes of documents (the 16 MiB BSON limit minus headroom). */
export const MAX_BATCH_BYTES = MAX_BSON_OBJECT_SIZE - 64 * 1024;

/**
 * `s`, when MongoDB could hold it as a value: a string of 16 MiB of UTF-8 or more cannot be built
 * (RCString::create, intrusive_counter.cpp), so an expression that would build one (`$concat`,
 * `$replaceAll` … doubling a string in a `$reduce`) fails.
 * @throws CommandError 16493 "Tried to create string longer than 16MB".
 */
export function checkStringSize(s: string): string {
  // A UTF-16 code unit is at most 3 bytes of UTF-8: only a long string needs counting.
  if (s.length * 3 >= MAX_BSON_OBJECT_SIZE && Buffer.byteLength(s, 'utf8') >= MAX_BSON_OBJECT_SIZE)
    throw new CommandError(16493, 'Tried to create string longer than 16MB');
  return s;
}

/** The largest buffer MongoDB builds BSON in (`BufferMaxSize`, 64 MiB, util/buf_builder.h). */
const MAX_BUFFER_SIZE = 64 * 1024 * 1024;

/**
 * The BSON size of `value` (bson-size.ts: each part it shares measured once), when MongoDB could write it:
 * no BSON buffer grows past 64 MiB. `known` as bson-size.ts `bsonValueSize` takes it.
 * @throws CommandError 13548 "BufBuilder attempted to grow() to N bytes, past the 64MB limit."
 *   (`_BufBuilder::grow_reallocate`, bson/util/builder.h), N being the value's whole BSON size where
 *   MongoDB prints the size at the write that passed the limit.
 */
export function writableSize(value: unknown, known?: WeakMap<object, number>): number {
  const size = bsonValueSize(value, known);
  if (size > MAX_BUFFER_SIZE) {
    throw new CommandError(13548, `BufBuilder attempted to grow() to ${size} bytes, past the 64MB limit.`);
  }
  return size;
}

/**
 * `value`, checked by {@link writableSize} where the engine makes it: each value a variable is bound to
 * and (through {@link checkOutputSize}) each document a stage outputs. A value that shares its parts (a `$reduce` whose step is
 * `{ a: '$$value', b: '$$value' }` doubles its BSON at each step while its memory grows by one object) is
 * thus refused once it passes 64 MiB, before any later walk of it as a tree (a `$project`, a comparison,
 * a copy) could take longer than a walk of 64 MiB.
 * @throws CommandError 13548 as {@link writableSize}.
 */
export function checkValueSize<T>(value: T, known?: WeakMap<object, number>): T {
  if (typeof value === 'object' && value !== null) writableSize(value, known);
  return value;
}

/**
 * The sizes {@link checkOutputSize} measured in the current read, by document. Within a read, only
 * the stages that call {@link forgetOutputSize} may change a document they receive (`$unwind` sets
 * a field of it); each read starts a new map ({@link startMeasuring}), so a write between two reads
 * never leaves a stale size behind.
 */
let measured = new WeakMap<object, number>();

/**
 * Starts a read (an aggregation, a find): the sizes measured before it are dropped. A read nested in
 * another (a view read by a `$lookup`) drops the outer one's too, which then measures again.
 */
export function startMeasuring(): void {
  measured = new WeakMap();
}

/**
 * `doc`, a document a stage outputs, checked as {@link checkValueSize} checks a value (`known` as it
 * takes it), its size kept for {@link checkResultSize} so that a result document no later stage
 * changed is not walked again.
 * @throws CommandError 13548 as {@link writableSize}.
 */
export function checkOutputSize<T>(doc: T, known?: WeakMap<object, number>): T {
  if (typeof doc === 'object' && doc !== null) measured.set(doc, writableSize(doc, known));
  return doc;
}

/** `doc`, output by a stage that may have changed it in place: a size kept for it no longer holds. */
export function forgetOutputSize<T>(doc: T): T {
  if (typeof doc === 'object' && doc !== null) measured.delete(doc);
  return doc;
}

/**
 * Refuses a result document MongoDB could not turn into BSON, before the engine copies it: one past 64 MiB
 * fails as MongoDB's buffer does, one past 16 MiB + 16 KiB is {@link objectTooLarge}, with its exact size.
 * The size {@link checkOutputSize} kept for `doc` is used when there is one.
 * @throws CommandError 13548 (see {@link writableSize}) or BSONObjectTooLarge (10334).
 */
export function checkResultSize(doc: Doc): void {
  const size = measured.get(doc) ?? writableSize(doc);
  if (size > MAX_BSON_INTERNAL_SIZE) throw objectTooLarge(doc, size);
}

/** True for an object or array with at least one element. */
function nonEmpty(value: unknown[] | Doc): boolean {
  return Array.isArray(value) ? value.length > 0 : Object.keys(value).length > 0;
}

/**
 * What makes `value` unstorable, looking at every level without recursion (no stack overflow): `'deep'`
 * when it nests objects or arrays deeper than `max` levels, `'nul'` when a field name holds a NUL byte.
 * With `skipEmpty`, an empty object or array does not count as a level, as MongoDB's insert check
 * (validateDepth in insert.cpp) does not count it.
 */
function unstorable(value: Doc, max: number, skipEmpty: boolean): 'deep' | 'nul' | undefined {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (depth > max) return 'deep';
    let children: unknown[];
    if (Array.isArray(current)) children = current;
    else {
      // BSON field names are NUL-terminated: such a name (only an expression such as `$arrayToObject`
      // can make one) could be kept in memory but never written to the journal or sent to a client.
      if (Object.keys(current as Doc).some((key) => key.includes('\0'))) return 'nul';
      children = Object.values(current as Doc);
    }
    for (const child of children) {
      if (!Array.isArray(child) && !isPlainObject(child)) continue;
      if (!skipEmpty || nonEmpty(child)) stack.push([child, depth + 1]);
    }
  }
  return undefined;
}

/** `_id: ObjectId('…')` as MongoDB names a document's first element in its errors. */
function firstElement(doc: Doc): string {
  const [key] = Object.keys(doc);
  if (key === undefined) return '';
  const value = doc[key];
  const shown =
    value !== null && typeof value === 'object' && 'toHexString' in value
      ? `ObjectId('${(value as { toHexString(): string }).toHexString()}')`
      : JSON.stringify(value)?.slice(0, 80);
  return `${key}: ${shown}`;
}

/**
 * MongoDB's error for a BSON object over {@link MAX_BSON_INTERNAL_SIZE} (`BSONObj::_assertInvalid`):
 * BSONObjectTooLarge (10334) "BSONObj size: N (0xHEX) is invalid. Size must be between 0 and
 * 16793600(16MB) First element: …". `size` is the BSON size of `doc`.
 */
export function objectTooLarge(doc: Doc, size: number): CommandError {
  return new CommandError(
    ErrorCodes.BSONObjectTooLarge,
    `BSONObj size: ${size} (0x${size.toString(16).toUpperCase()}) is invalid. Size must be between 0 and ${MAX_BSON_INTERNAL_SIZE}(16MB) First element: ${firstElement(doc)}`,
  );
}

/**
 * Refuses a document MongoDB would not store: nested deeper than 100 levels (Overflow, 15), or larger
 * than 16 MiB. An insert MongoDB could not even parse (over 16 MiB + 16 KiB) is BSONObjectTooLarge
 * (10334), a smaller one BadValue (2) "object to insert too large"; an update's result over 16 MiB is
 * DocumentTooLarge (17419), as MongoDB answers. A field name with a NUL byte, which BSON cannot hold, is
 * BadValue (2).
 * @throws CommandError as above.
 */
export function checkStorable(doc: Doc, op: 'insert' | 'update'): void {
  const problem = unstorable(doc, MAX_NESTING_DEPTH, op === 'insert');
  if (problem === 'nul') {
    throw new CommandError(ErrorCodes.BadValue, 'Field names cannot contain an embedded null byte');
  }
  if (problem === 'deep') {
    throw new CommandError(
      ErrorCodes.Overflow,
      op === 'insert'
        ? `cannot insert document because it exceeds ${MAX_NESTING_DEPTH} levels of nesting`
        : `Document exceeds maximum nesting depth of ${MAX_NESTING_DEPTH}`,
    );
  }
  let size = BSON.calculateObjectSize(doc);
  if (size <= MAX_BSON_OBJECT_SIZE) return;
  // The engine's name for `__proto__` is longer than the name (proto-alias.ts): only a document near
  // the limit needs the walk that tells its real size.
  size = outsideSize(doc, size);
  if (size <= MAX_BSON_OBJECT_SIZE) return;
  if (op === 'update') {
    throw new CommandError(
      ErrorCodes.DocumentTooLarge,
      `Resulting document after update is larger than ${MAX_BSON_OBJECT_SIZE}`,
    );
  }
  if (size > MAX_BSON_INTERNAL_SIZE) throw objectTooLarge(doc, size);
  throw new CommandError(
    ErrorCodes.BadValue,
    `object to insert too large. size in bytes: ${size}, max size: ${MAX_BSON_OBJECT_SIZE}`,
  );
}

/** Nesting MongoDB parses at all in a BSON object (any command or document), before storage rules. */
export const MAX_PARSE_DEPTH = 200;
