/**
 * TTL indexes: documents whose indexed date is older than `expireAfterSeconds` are deleted. MongoDB
 * 7.0's TTL monitor (src/mongo/db/ttl.cpp) scans the index for keys from the earliest date to the
 * cutoff, so a document goes when one of its keys (index-keys.ts) is a date no later than the cutoff:
 * the earliest date of an array, nothing reached through an array nested in it, never a number or a
 * string. A compound index, or a hashed or text one, is no TTL index to it.
 */
import { recordWrite } from './change-record.js';
import type { Engine } from './database.js';
import { BlockedByTransaction } from './database.js';

/** Deletes expired documents in every collection; returns how many were deleted. */
export function expireDocuments(engine: Engine, now = Date.now()): number {
  let deleted = 0;
  for (const colls of engine.databases.values()) {
    for (const coll of colls.values()) {
      for (const index of coll.state.indexes) {
        const secs = index.spec.expireAfterSeconds;
        if (secs === undefined || index.fields.length !== 1 || index.text || index.hashed) continue;
        const cutoff = now - secs * 1000;
        const expired: string[] = [];
        for (const [idKey, doc] of coll.state.docs) {
          const keys = index.keysOf(doc);
          if (keys.some(({ values: [v] }) => v instanceof Date && v.getTime() <= cutoff)) expired.push(idKey);
        }
        for (const idKey of expired) {
          try {
            engine.checkWrite(coll, idKey, undefined);
          } catch (error) {
            if (error instanceof BlockedByTransaction) continue;
            throw error;
          }
          const old = coll.writable().remove(idKey);
          if (!old) continue;
          engine.touched(coll, idKey, old);
          engine.emit([{ op: 'delete', ns: coll.ns, id: old['_id'] }]);
          recordWrite(engine, coll, undefined, old, undefined);
          deleted++;
        }
      }
    }
  }
  return deleted;
}
