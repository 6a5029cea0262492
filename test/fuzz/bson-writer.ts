/**
 * A BSON writer for the wire fuzzer that can also write what the `bson` package refuses to: the
 * deprecated types (undefined 0x06, DBPointer 0x0C, symbol 0x0E) and field names holding a NUL byte.
 * Element layout from https://bsonspec.org/spec.html; every other value is written by `bson` itself.
 */
import { BSON } from 'bson';

/** An element written as the given type byte followed by `payload` (a deprecated or hand-made value). */
export class RawValue {
  constructor(
    readonly type: number,
    readonly payload: Buffer,
  ) {}
}

function int32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32LE(n);
  return b;
}

/** A BSON `string` payload: int32 byte length (with the NUL), the UTF-8 bytes, NUL. */
export function stringPayload(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  return Buffer.concat([int32(bytes.length + 1), bytes, Buffer.from([0])]);
}

/** The deprecated `undefined` (0x06). */
export const bsonUndefined = (): RawValue => new RawValue(0x06, Buffer.alloc(0));
/** The deprecated DBPointer (0x0C): a namespace string and a 12-byte ObjectId. */
export const dbPointer = (ns: string): RawValue =>
  new RawValue(0x0c, Buffer.concat([stringPayload(ns), Buffer.alloc(12, 7)]));
/** The deprecated symbol (0x0E), laid out as a string. */
export const symbol = (text: string): RawValue => new RawValue(0x0e, stringPayload(text));

/** A regular expression (0x0B) with any options, even ones `bson` refuses to write. */
export const regex = (pattern: string, options: string): RawValue =>
  new RawValue(0x0b, Buffer.from(`${pattern}\0${options}\0`, 'utf8'));

function isPlainDocument(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  if (value instanceof Date || value instanceof RegExp || value instanceof Uint8Array) return false;
  return !('_bsontype' in value);
}

function element(name: string, value: unknown): Buffer {
  const key = Buffer.concat([Buffer.from(name, 'utf8'), Buffer.from([0])]);
  if (value instanceof RawValue) return Buffer.concat([Buffer.from([value.type]), key, value.payload]);
  if (Array.isArray(value)) {
    const entries: [string, unknown][] = value.map((v, i) => [String(i), v]);
    return Buffer.concat([Buffer.from([0x04]), key, encodeEntries(entries)]);
  }
  if (isPlainDocument(value)) return Buffer.concat([Buffer.from([0x03]), key, encodeEntries(entries(value))]);
  // Let `bson` write the value under a stand-in name, then put the real name in its place.
  const bytes = Buffer.from(BSON.serialize({ k: value }));
  const type = bytes[4]!;
  return Buffer.concat([Buffer.from([type]), key, bytes.subarray(7, bytes.length - 1)]);
}

/** Own entries, `__proto__` included when it is an own data property. */
function entries(doc: Record<string, unknown>): [string, unknown][] {
  return Reflect.ownKeys(doc)
    .filter((k): k is string => typeof k === 'string')
    .map((k) => [k, Object.getOwnPropertyDescriptor(doc, k)!.value]);
}

function encodeEntries(list: [string, unknown][]): Buffer {
  const body = Buffer.concat(list.map(([k, v]) => element(k, v)));
  return Buffer.concat([int32(body.length + 5), body, Buffer.from([0])]);
}

/**
 * Encodes a document. Arrays, plain objects and {@link RawValue}s are written here (to any depth),
 * other values by `bson`. A name with a NUL byte is written as it is, so the bytes are not valid BSON.
 */
export function encodeDocument(doc: Record<string, unknown>): Buffer {
  return encodeEntries(entries(doc));
}
