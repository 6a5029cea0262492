/**
 * A DBRef is a convention, not a BSON type: to MongoDB `{ $ref: 'c', $id: 5 }` is an ordinary embedded
 * document, which paths enter, updates change and comparisons read field by field, in its stored order
 * (the drivers' DBRef specification: "a convention for expressing a reference to another document as an
 * embedded document (i.e. BSON type 0x03)"). The bson decoder turns every sub-document shaped so (a
 * string `$ref`, a `$id`, no other `$` name) into a `DBRef` object, which reorders its fields, splits a
 * `$ref` holding one dot into `$db`, and which no path reaches. So the engine makes each such `DBRef` a
 * plain document again, its names and order read from the bytes. Replies are
 * serialized from those plain documents, so clients get the bytes they stored, and their driver makes
 * `DBRef` objects of them as before.
 */
import { BSON, DBRef } from 'bson';
import { setOwn } from './values.js';
import type { Doc } from './values.js';

/** Completes decoded values (numbers …), adding to `found` each `DBRef` met and each holder of one. */
export type Promote = (value: unknown, found: unknown[]) => unknown;

const OBJECT = 0x03;
const ARRAY = 0x04;
const STRING = 0x02;

/** A view of `bytes` that reads text. */
const textView = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * The DBRef-shaped document at `start` of `bytes`, which bson decoded as `ref`, as a plain document:
 * names in stored order, `$ref` and `$db` read from the bytes (the `DBRef` may have split `$ref`), the
 * other values taken from `ref`, then completed (and their own DBRefs replaced) like the rest.
 */
function plainDocument(ref: DBRef, bytes: Uint8Array, start: number, promote: Promote): Doc {
  const text = textView(bytes);
  const out: Doc = {};
  for (const [type, nameStart, nameLength, at] of BSON.onDemand.parseToElements(bytes, start)) {
    const name = text.toString('utf8', nameStart, nameStart + nameLength);
    let value: unknown = ref.fields[name];
    if (name === '$id') value = ref.oid;
    else if (type === STRING && (name === '$ref' || name === '$db'))
      value = text.toString('utf8', at + 4, at + 3 + text.readInt32LE(at));
    setOwn(out, name, value);
  }
  const found: unknown[] = [];
  promote(out, found);
  if (found.length > 0) replaceIn(out, bytes, start, new Set(found), promote);
  return out;
}

/** Each `DBRef` of `found` under `container` (encoded at `start` of `bytes`) made a plain document. */
function replaceIn(
  container: Doc | unknown[],
  bytes: Uint8Array,
  start: number,
  found: ReadonlySet<unknown>,
  promote: Promote,
): void {
  const text = textView(bytes);
  let index = 0;
  for (const [type, nameStart, nameLength, at] of BSON.onDemand.parseToElements(bytes, start)) {
    const key = Array.isArray(container) ? index++ : text.toString('utf8', nameStart, nameStart + nameLength);
    const child = (container as Doc)[key];
    // A DBPointer (type 12) decodes as a DBRef too: it is no document, and stays as it was.
    if (!found.has(child) || (type !== OBJECT && type !== ARRAY)) continue;
    if (!(child instanceof DBRef)) replaceIn(child as Doc | unknown[], bytes, at, found, promote);
    else if (Array.isArray(container)) container[key as number] = plainDocument(child, bytes, at, promote);
    else setOwn(container, key as string, plainDocument(child, bytes, at, promote));
  }
}

/**
 * `doc`, decoded from `bytes` and completed by `promote`, with each DBRef-shaped document the decoder
 * made a `DBRef` a plain document again. `found` holds those `DBRef`s and every array and document
 * that holds one, so the walk of the bytes enters only those.
 */
export function plainDbRefs(doc: Doc, bytes: Uint8Array, found: unknown[], promote: Promote): Doc {
  if (doc instanceof DBRef) return plainDocument(doc, bytes, 0, promote);
  replaceIn(doc, bytes, 0, new Set(found), promote);
  return doc;
}
