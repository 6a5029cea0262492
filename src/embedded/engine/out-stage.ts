/**
 * The `$out` and `$merge` stages: an aggregation's result written into a collection. `$out` replaces
 * the target (keeping its options and indexes) only once every document is known to be storable in
 * it, validator and unique indexes included, like MongoDB's temporary collection; `$merge` is written
 * by merge-stage.ts.
 */
import { recordWrite } from './change-record.js';
import type { Collation } from './collation.js';
import { Collection, CollectionState } from './collection.js';
import type { Engine } from './database.js';
import type { IndexSpec } from './indexes.js';
import { checkStorable } from './limits.js';
import { writeMerge } from './merge-stage.js';
import { refuseView } from './views.js';
import { prepareInsert, validate } from './write.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/**
 * Writes an aggregation's result `docs` as its final `$out` (`spec`: a collection name or
 * `{ db, coll }`) or `$merge` (`{ into, on, let, whenMatched, whenNotMatched }`) stage asks, in database
 * `defaultDb` unless the spec names another; `variables` are the command's `let` values, which a
 * `whenMatched` pipeline may read; `$merge` matches under `collation`, the aggregation's. `docs` may share their parts (aggregate.ts): every document is stored
 * as a copy of its own (write.ts `prepareInsert` copies an inserted one), so that no change to one
 * stored document can show in another.
 * @throws CommandError BadValue (2) for a spec without a collection name, 166 for a view target, the
 * errors of `checkUpdatePipeline` for a pipeline `whenMatched` when `docs` is not empty (before anything
 * is written), 13113 and DuplicateKey (11000) for `$merge`'s `fail` modes, and what the writes throw.
 */
export function writeOut(
  engine: Engine,
  defaultDb: string,
  kind: '$out' | '$merge',
  spec: unknown,
  docs: Doc[],
  variables?: Doc,
  collation?: Collation,
): void {
  let db = defaultDb;
  let name: string;
  if (typeof spec === 'string') name = spec;
  else if (
    isPlainObject(spec) &&
    (typeof spec['coll'] === 'string' || typeof spec['into'] === 'string' || isPlainObject(spec['into']))
  ) {
    const into = kind === '$out' ? spec : spec['into'];
    if (typeof into === 'string') name = into;
    else {
      const i = into as Doc;
      name = String(i['coll']);
      if (typeof i['db'] === 'string') db = i['db'];
    }
  } else throw new CommandError(ErrorCodes.BadValue, `${kind} needs a collection name`);
  if (kind === '$out') {
    const existing = engine.collection(db, name);
    refuseView(existing);
    const indexes = existing ? existing.state.indexes.map((i) => i.spec) : [];
    const trial = storeTrial(`${db}.${name}`, existing, indexes, docs);
    replaceTarget(engine, existing ?? new Collection(db, name), trial);
    return;
  }
  writeMerge(engine, db, name, spec as Doc, docs, variables, collation);
}

/**
 * Replaces `target` (the `$out` target, or a collection object naming it when there is none) with a
 * new collection of its options whose state is `trial` (see {@link storeTrial}): its documents are
 * not checked, copied nor indexed a second time. Each is logged and recorded as `insertOne` logs and
 * records an insert (a `put` for the journal, an insert for change streams), and each index as
 * `createIndexes` logs one, all in one journal record: a crash keeps the old target or the new one,
 * never a dropped or half-filled target.
 * @throws BlockedByTransaction, before anything changes, while an open transaction has read or written
 * the target: MongoDB's rename over the target waits for the exclusive lock the transaction's intent
 * lock keeps it from taking, so whatever the transaction commits lands in the target before it is
 * replaced.
 */
function replaceTarget(engine: Engine, target: Collection, trial: CollectionState): void {
  engine.checkExclusive(target.ns);
  engine.atomically(() => {
    engine.drop(target.db, target.name);
    // MongoDB's temporary collection copies the target's options (its validator among them).
    const coll = engine.create(target.db, target.name, { ...target.options });
    coll.state = trial;
    engine.emit(
      trial.indexes.map((index) => ({ op: 'createIndex' as const, ns: coll.ns, spec: index.spec })),
    );
    for (const [idKey, doc] of trial.docs) {
      engine.touched(coll, idKey, undefined);
      engine.emit([{ op: 'put', ns: coll.ns, doc }]);
      recordWrite(engine, coll, undefined, undefined, doc);
    }
  });
}

/**
 * A collection state that nothing else sees, holding `$out`'s documents as they will be stored, each
 * having passed the validator of the target collection `target` (if any), and its indexes (`indexes`,
 * for namespace `ns`) built over them. MongoDB writes them into a temporary collection with the target's indexes and
 * replaces the target only when all are in (document_source_out.cpp), so a document that may not be
 * stored leaves the target untouched.
 * @throws CommandError what an insert into the target would: a bad `_id`, a document too large,
 * DocumentValidationFailure (121), DuplicateKey (11000) for a unique index or two documents with one `_id`.
 */
function storeTrial(
  ns: string,
  target: Collection | undefined,
  indexes: IndexSpec[],
  docs: Doc[],
): CollectionState {
  const trial = new CollectionState();
  // The temporary collection has the target's options, so its `_id` index the target's collation.
  trial.collateIds(target?.options.collation);
  for (const spec of indexes) trial.addIndex(ns, spec);
  for (const doc of docs) {
    const prepared = prepareInsert(doc);
    checkStorable(prepared, 'insert');
    if (target) validate(target, prepared, undefined);
    trial.put(ns, prepared);
  }
  return trial;
}
