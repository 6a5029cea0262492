/**
 * A statement made slow without bound, for the tests of `maxTimeMS` (write-time-limit.test.ts,
 * transaction-time-limit.test.ts): its filter (or the collection's validator) computes nested
 * `$reduce`s for the document marked `slow`, so only a time limit can end it, whatever the machine's speed.
 */
import type { Db } from 'mongodb';

/** An expression whose evaluation never ends before a time limit does (10^12 `$add`s). */
export const endless = {
  $reduce: {
    input: { $range: [0, 1_000_000] },
    initialValue: 0,
    in: {
      $reduce: { input: { $range: [0, 1_000_000] }, initialValue: '$$value', in: { $add: ['$$value', 1] } },
    },
  },
};

/** True for every document; endless for one with `slow: true`. */
export const slowOnMarked = { $cond: [{ $eq: ['$slow', true] }, { $eq: [endless, -1] }, true] };

/** Long enough for the statements before the slow one on a loaded machine; the slow one never ends. */
export const maxTimeMS = 500;

/**
 * A fresh collection `name` of `db` holding `{ _id: 1 }`, `{ _id: 2, slow: true }` and `{ _id: 3 }`, or,
 * with a `validator`, empty and validated by it.
 */
export async function threeDocuments(db: Db, name: string, validator?: object) {
  await db
    .collection(name)
    .drop()
    .catch(() => undefined);
  await db.createCollection(name, validator ? { validator } : {});
  const coll = db.collection<any>(name);
  if (!validator) await coll.insertMany([{ _id: 1 }, { _id: 2, slow: true }, { _id: 3 }]);
  return coll;
}
