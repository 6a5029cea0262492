/**
 * BSON serialization without silent truncation. `BSON.serialize` writes into one shared internal buffer
 * (17 MiB by default) and cuts anything longer short without an error; this grows that buffer first.
 */
import { BSON } from 'bson';
import { restoreOutgoing, SERIALIZED_ALIAS } from './engine/proto-alias.js';

let capacity = 17 * 1024 * 1024;

function serializeWhole(doc: Record<string, unknown>): Uint8Array {
  const size = BSON.calculateObjectSize(doc);
  if (size > capacity) {
    BSON.setInternalBufferSize(size);
    capacity = size;
  }
  return BSON.serialize(doc);
}

/**
 * Serializes `doc` whole, however large (the shared buffer grows to the largest size seen), with the
 * engine's name for a field named `__proto__` written as `__proto__` (proto-alias.ts). The bytes are
 * searched for the alias rather than the document walked, so a document without one (nearly all)
 * costs one native byte search more; one with it is renamed back and serialized again.
 */
export function serializeBson(engineDoc: Record<string, unknown>): Uint8Array {
  const bytes = serializeWhole(engineDoc);
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return view.indexOf(SERIALIZED_ALIAS) === -1 ? bytes : serializeWhole(restoreOutgoing(engineDoc));
}
