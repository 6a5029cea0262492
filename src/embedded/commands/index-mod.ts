/**
 * `collMod`'s `index` option: changes one index in place (`hidden`, `expireAfterSeconds`,
 * `prepareUnique`, and the conversion to `unique`, refused while duplicates exist).
 */
import type { Collection } from '../engine/collection.js';
import type { Engine } from '../engine/database.js';
import { Index } from '../engine/indexes.js';
import type { IndexSpec } from '../engine/indexes.js';
import { isPlainObject, keyOf } from '../engine/values.js';
import type { Doc } from '../engine/values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** Groups of `_id`s sharing one key of `index` (what a unique conversion would reject). */
function violations(coll: Collection, index: Index): Doc[] {
  const out: Doc[] = [];
  for (const ids of index.entries.values()) {
    if (ids.size < 2) continue;
    out.push({ ids: [...ids].map((idKey) => coll.state.docs.get(idKey)?.['_id']) });
  }
  return out;
}

/**
 * Applies `collMod`'s `index` document to `coll` and returns the reply fields (`unique_new`,
 * `prepareUnique_old`/`_new`, `hidden_old`/`_new`, `expireAfterSeconds_old`/`_new`).
 * @throws CommandError IndexNotFound (27), InvalidOptions (72), CannotConvertIndexToUnique (359,
 *   with `violations`).
 */
export function modifyIndex(engine: Engine, coll: Collection, raw: unknown, dryRun: boolean): Doc {
  if (!isPlainObject(raw))
    throw new CommandError(
      ErrorCodes.TypeMismatch,
      "BSON field 'collMod.index' is the wrong type, expected type 'object'",
    );
  const state = coll.state;
  const position = state.indexes.findIndex((i) =>
    raw['name'] !== undefined ? i.spec.name === raw['name'] : keyOf(i.spec.key) === keyOf(raw['keyPattern']),
  );
  const index = state.indexes[position];
  if (!index)
    throw new CommandError(
      ErrorCodes.IndexNotFound,
      `cannot find index ${JSON.stringify(raw['name'] ?? raw['keyPattern'])} for ns ${coll.ns}`,
    );
  const spec: IndexSpec = { ...index.spec };
  const reply: Doc = {};
  if (raw['unique'] !== undefined) {
    if (raw['unique'] !== true)
      throw new CommandError(
        ErrorCodes.BadValue,
        "collMod does not support converting an index to 'unique: false'",
      );
    if (!spec.unique) {
      const found = violations(coll, index);
      if (found.length > 0)
        throw new CommandError(
          ErrorCodes.CannotConvertIndexToUnique,
          'Cannot convert the index to unique. Please resolve conflicting documents before running collMod again.',
          { extra: { violations: found } },
        );
      spec.unique = true;
      delete spec.prepareUnique;
      reply['unique_new'] = true;
    }
  }
  if (typeof raw['prepareUnique'] === 'boolean' && !spec.unique) {
    reply['prepareUnique_old'] = spec.prepareUnique === true;
    reply['prepareUnique_new'] = raw['prepareUnique'];
    if (raw['prepareUnique']) spec.prepareUnique = true;
    else delete spec.prepareUnique;
  }
  if (typeof raw['hidden'] === 'boolean') {
    reply['hidden_old'] = spec.hidden === true;
    reply['hidden_new'] = raw['hidden'];
    if (raw['hidden']) spec.hidden = true;
    else delete spec.hidden;
  }
  if (raw['expireAfterSeconds'] !== undefined) {
    if (spec.expireAfterSeconds === undefined)
      throw new CommandError(ErrorCodes.InvalidOptions, 'no expireAfterSeconds field to update');
    reply['expireAfterSeconds_old'] = spec.expireAfterSeconds;
    spec.expireAfterSeconds = Number(raw['expireAfterSeconds']);
    reply['expireAfterSeconds_new'] = spec.expireAfterSeconds;
  }
  if (dryRun) return {};
  const writable = coll.writable();
  writable.indexes[position] = new Index(spec, writable.indexes[position]!.clone().entries);
  engine.emit([
    { op: 'dropIndex', ns: coll.ns, name: spec.name },
    { op: 'createIndex', ns: coll.ns, spec },
  ]);
  return reply;
}
