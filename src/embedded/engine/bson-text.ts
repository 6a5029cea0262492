/**
 * Values as MongoDB prints them in update error messages (`BSONElement::toString`): documents as
 * `{ a: 1, b: "x" }`, arrays as `[ 1, 2 ]`, doubles with a fraction (`1.0`, `nan.0`), ObjectIds as
 * `ObjectId('…')`, regexes as `/a/i`, BinData as `BinData(0, 0A0B)`, JavaScript as its code text
 * (`CodeWScope( code, { scope })` with a scope). Messages such as "Cannot create field 'b' in element
 * {a: [ 1, 2 ]}" embed them, and answering exactly what MongoDB answers means printing them the same way (JSON differs: `[1,2]`).
 */
import { bsonTag, isPlainObject } from './values.js';

function doubleText(n: number): string {
  if (Number.isNaN(n)) return 'nan.0';
  if (!Number.isFinite(n)) return n > 0 ? 'inf.0' : '-inf.0';
  if (Number.isInteger(n) && Math.abs(n) < 1e16) return `${n}.0`;
  return String(n);
}

/** BinData as MongoDB prints it: `UUID("…")` for a 16-byte UUID, else `BinData(<subtype>, <HEX>)`. */
function binaryText(binary: { sub_type: number; buffer: Uint8Array }): string {
  const hex = Buffer.from(binary.buffer).toString('hex');
  if (binary.sub_type === 4 && binary.buffer.length === 16) {
    return `UUID("${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}")`;
  }
  return `BinData(${binary.sub_type}, ${hex.toUpperCase()})`;
}

function taggedText(value: object, tag: string): string {
  const v = value as Record<string, unknown> & { toString(): string; toHexString?: () => string };
  switch (tag) {
    case 'Double':
      return doubleText(Number(v['value']));
    case 'Int32':
    case 'Long':
      return v.toString();
    case 'Decimal128':
      return `NumberDecimal("${v.toString()}")`;
    case 'ObjectId':
      return `ObjectId('${v.toHexString!()}')`;
    case 'Timestamp':
      return `Timestamp(${String(v['high'])}, ${String(v['low'])})`;
    case 'MinKey':
      return 'MinKey';
    case 'MaxKey':
      return 'MaxKey';
    case 'BSONRegExp':
      return `/${String(v['pattern'])}/${String(v['options'])}`;
    case 'BSONSymbol':
      return JSON.stringify(String(v['value']));
    case 'Code':
      // A scope, even an empty one, makes it a code-with-scope.
      return v['scope'] == null
        ? String(v['code'])
        : `CodeWScope( ${String(v['code'])}, ${bsonText(v['scope'])})`;
    case 'Binary':
      return binaryText(v as unknown as { sub_type: number; buffer: Uint8Array });
    case 'DBRef': {
      const ref = dbPointerParts(v);
      return `DBRef('${ref.ns}',${ref.oid})`;
    }
    default:
      return v.toString();
  }
}

/**
 * The namespace and ObjectId (hex) of a DBPointer (deprecated type 12), which the bson decoder turns into
 * a `DBRef` (`{ $ref, $id }` documents are plain documents in the engine, dbref-decode.ts), splitting a
 * namespace with one dot into `db` and `collection`.
 */
export function dbPointerParts(value: unknown): { ns: string; oid: string } {
  const ref = value as { db?: string; collection: string; oid: { toString(): string } };
  return { ns: ref.db ? `${ref.db}.${ref.collection}` : ref.collection, oid: ref.oid.toString() };
}

/** A value as MongoDB prints it. */
export function bsonText(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    const isInt = Number.isInteger(value) && value >= -2147483648 && value <= 2147483647;
    return isInt && !Object.is(value, -0) ? String(value) : doubleText(value);
  }
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[ ${value.map(bsonText).join(', ')} ]`;
  if (value instanceof Date) return `new Date(${value.getTime()})`;
  if (value instanceof RegExp) return `/${value.source}/${value.flags}`;
  if (isPlainObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    return `{ ${entries.map(([k, v]) => elementText(k, v)).join(', ')} }`;
  }
  const tag = bsonTag(value);
  return tag ? taggedText(value, tag) : Object.prototype.toString.call(value);
}

/** A field as MongoDB prints it: `name: value`. */
export function elementText(name: string, value: unknown): string {
  return `${name}: ${bsonText(value)}`;
}

/** A document's `_id` as update errors name it: `{_id: "x"}`. */
export function idText(doc: Record<string, unknown>): string {
  return `{${elementText('_id', doc['_id'])}}`;
}
