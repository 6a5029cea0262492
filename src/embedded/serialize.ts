/**
 * BSON serialization without silent truncation. `BSON.serialize` writes into one shared internal buffer
 * (17 MiB by default) and cuts anything longer short without an error; this grows that buffer first.
 */
import { BSON } from 'bson';
import { restoreOutgoing } from './engine/proto-alias.js';

let capacity = 17 * 1024 * 1024;

/**
 * Serializes `doc` whole, however large (the shared buffer grows to the largest size seen), with the
 * engine's name for a field named `__proto__` written as `__proto__` (proto-alias.ts).
 */
export function serializeBson(engineDoc: Record<string, unknown>): Uint8Array {
  const doc = restoreOutgoing(engineDoc);
  const size = BSON.calculateObjectSize(doc);
  if (size > capacity) {
    BSON.setInternalBufferSize(size);
    capacity = size;
  }
  return BSON.serialize(doc);
}
