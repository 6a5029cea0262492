/** TTL indexes: documents whose indexed date is older than `expireAfterSeconds` are deleted. */
import { recordWrite } from './change-record.js';
import type { Engine } from './database.js';
import { BlockedByTransaction } from './database.js';
import { pathValues } from './values.js';

/** Deletes expired documents in every collection; returns how many were deleted. */
export function expireDocuments(engine: Engine, now = Date.now()): number {
  let deleted = 0;
  for (const colls of engine.databases.values()) {
    for (const coll of colls.values()) {
      for (const index of coll.state.indexes) {
        const secs = index.spec.expireAfterSeconds;
        if (secs === undefined || index.fields.length !== 1) continue;
        const cutoff = now - secs * 1000;
        const expired: string[] = [];
        for (const [idKey, doc] of coll.state.docs) {
          const dates = pathValues(doc, index.fields[0]!).filter((v): v is Date => v instanceof Date);
          if (dates.length > 0 && Math.min(...dates.map((d) => d.getTime())) <= cutoff && index.covers(doc))
            expired.push(idKey);
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
          engine.touched(coll, idKey);
          engine.emit([{ op: 'delete', ns: coll.ns, id: old['_id'] }]);
          recordWrite(engine, coll, undefined, old, undefined);
          deleted++;
        }
      }
    }
  }
  return deleted;
}
