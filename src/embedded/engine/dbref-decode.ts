/**
 * A DBRef is a convention, not a BSON type: to MongoDB `{ $ref: 'c', $id: 5 }` is an ordinary embedded
 * document, which paths enter, updates change and comparisons read field by field, in its stored order
 * (the drivers' DBRef specification: "a convention for expressing a reference to another document as an
 * embedded document (i.e. BSON type 0x03)"). The bson decoder turns every sub-document shaped so (a
 * string `$ref`, a `$id`, no other `$` name) into a `DBRef` object, which reorders its fields, splits a
 * `$ref` holding one dot into `$db`, and which no path reaches. So the engine decodes a document holding
 * such a shape again, element by element, with plain documents in the order of the bytes. Replies are
 * serialized from those plain documents, so clients get the bytes they stored, and their driver makes
 * `DBRef` objects of them as before.
 */
import { BSON } from 'bson';
import type { DeserializeOptions } from 'bson';
import { setOwn } from './values.js';
import type { Doc } from './values.js';

const OBJECT = 0x03;
const ARRAY = 0x04;

/** The one value of the element whose value is `bytes[start, end)`, decoded alone (as the field `v`). */
function decodeValue(
  bytes: Uint8Array,
  type: number,
  start: number,
  end: number,
  options: DeserializeOptions,
) {
  const single = Buffer.alloc(4 + 3 + (end - start) + 1);
  single.writeInt32LE(single.length, 0);
  single[4] = type;
  single[5] = 0x76; // 'v'
  single.set(bytes.subarray(start, end), 7);
  return BSON.deserialize(single, options)['v'] as unknown;
}

/** The document or array at `start` of `bytes`, every embedded document in it a plain one. */
function decodeAt(
  bytes: Uint8Array,
  start: number,
  array: boolean,
  options: DeserializeOptions,
): Doc | unknown[] {
  const names = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: Doc = {};
  const items: unknown[] = [];
  for (const [type, nameStart, nameLength, at, length] of BSON.onDemand.parseToElements(bytes, start)) {
    const value =
      type === OBJECT || type === ARRAY
        ? decodeAt(bytes, at, type === ARRAY, options)
        : decodeValue(bytes, type, at, at + length, options);
    if (array) items.push(value);
    else setOwn(out, names.toString('utf8', nameStart, nameStart + nameLength), value);
  }
  return array ? items : out;
}

/**
 * Decodes the BSON document `bytes` as `BSON.deserialize` does with `options`, except that a
 * DBRef-shaped embedded document stays a plain document, its fields in their stored order. For a
 * document in which `BSON.deserialize`, which validates it, made a `DBRef`: the element-by-element
 * walk costs more.
 * @throws BSONError for malformed bytes.
 */
export function decodeWithPlainDbRefs(bytes: Uint8Array, options: DeserializeOptions): Doc {
  return decodeAt(bytes, 0, false, options) as Doc;
}
