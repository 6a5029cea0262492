/**
 * The `$merge` stage's writer: each document of an aggregation's result matched on the stage's `on`
 * fields in the target and inserted, replaced, merged, kept, failed or updated by a pipeline as
 * `whenMatched`/`whenNotMatched` say. Like MongoDB's, it is not atomic: the documents written before
 * one that fails stay written. A document held by an open transaction makes it wait before it writes
 * anything.
 */
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';
import { recordWrite } from './change-record.js';
import type { Collection, CollectionState } from './collection.js';
import { duplicateKeyError } from './duplicate-key.js';
import { BlockedByTransaction, type Engine } from './database.js';
import { defaultIndexName } from './indexes.js';
import { withSystemVariables } from './let-variables.js';
import { checkStorable } from './limits.js';
import { mergeVariableNames } from './merge-check.js';
import { mingoOptions } from './mingo-options.js';
import { checkUpdatePipeline } from './pipeline-update.js';
import type { Collation } from './collation.js';
import { matchDocs } from './read.js';
import { applyUpdate } from './update.js';
import { refuseView } from './views.js';
import { insertOne, prepareInsert, validate } from './write.js';
import { cloneValue, idFirst, isPlainObject, keyOf } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** How a `$merge` stage writes: its parsed options and the values a `whenMatched` pipeline reads. */
interface MergePlan {
  stage: Doc;
  on: string[];
  whenMatched: unknown;
  whenNotMatched: unknown;
  /** The command's `let` values. */
  variables: Doc | undefined;
  /**
   * The aggregation's collation (its own, else the source collection's default): MongoDB's `$merge`
   * sends its upserts with it (document_source_merge.cpp constructUpdateEntries), so an incoming
   * document matches a stored one under it.
   */
  collation: Collation | undefined;
}

/** Where the `$merge` loop writes: the target itself, or a rehearsal copy of its state. */
interface MergeSink {
  /** The state incoming documents are matched in, as the earlier ones left it. */
  state(): CollectionState;
  insert(doc: Doc): void;
  update(existing: Doc, next: Doc): void;
}

/**
 * Writes `docs` into collection `name` of database `db` (created when missing) as `$merge` stage `m`
 * (`{ into, on, let, whenMatched, whenNotMatched }`) says; `variables` are the command's `let` values,
 * which a `whenMatched` pipeline may read; incoming documents match stored ones under `collation`, the
 * aggregation's.
 * @throws BlockedByTransaction, before anything is written, while an open transaction holds a document
 * the stage would write (the caller waits and runs it again, as for a plain write).
 * @throws CommandError 166 for a view target, the errors of `checkUpdatePipeline` for a pipeline
 * `whenMatched` when `docs` is not empty (before anything is written), 13113 and DuplicateKey (11000)
 * for the `fail` modes, and what the writes throw (the documents before the failing one stay written).
 */
export function writeMerge(
  engine: Engine,
  db: string,
  name: string,
  m: Doc,
  docs: Doc[],
  variables?: Doc,
  collation?: Collation,
): void {
  const plan: MergePlan = {
    stage: m,
    on: typeof m['on'] === 'string' ? [m['on']] : Array.isArray(m['on']) ? (m['on'] as string[]) : ['_id'],
    whenMatched: m['whenMatched'] ?? 'merge',
    whenNotMatched: m['whenNotMatched'] ?? 'insert',
    variables,
    collation,
  };
  refuseView(engine.collection(db, name));
  // MongoDB parses a pipeline `whenMatched` as the update it sends for the first document, matched or not.
  if (docs.length > 0)
    checkUpdatePipeline(plan.whenMatched, mergeVariableNames(m, Object.keys(variables ?? {})));
  const coll = engine.create(db, name);
  // A write that meets a document an open transaction holds waits for the transaction to end, in
  // MongoDB as here (database.ts checkWrite); a $merge blocked halfway would be run again over its own
  // first writes. So while transactions hold documents of the target, the documents are merged into a
  // copy of its state first: nothing is written unless none of them is held. The loop runs without
  // yielding, so no transaction takes a document between the rehearsal and the writes.
  if (heldByTransactions(engine, coll.ns)) rehearse(engine, coll, plan, docs);
  mergeDocs(coll, plan, docs, {
    state: () => coll.state,
    insert: (doc) => insertOne(engine, coll, undefined, doc),
    update(existing, next) {
      const idKey = checkUpdate(engine, coll, existing, next);
      coll.writable().put(coll.ns, next, idKey);
      engine.touched(coll, idKey, existing);
      engine.emit([{ op: 'put', ns: coll.ns, doc: next }]);
      const { whenMatched } = plan;
      recordWrite(
        engine,
        coll,
        undefined,
        existing,
        next,
        whenMatched === 'replace',
        pipelineOf(whenMatched),
      );
    },
  });
}

/** Matches each of `docs` in the target `coll` and hands `sink` what `plan` makes of it, in order. */
function mergeDocs(coll: Collection, plan: MergePlan, docs: Doc[], sink: MergeSink): void {
  const { on, whenMatched, whenNotMatched } = plan;
  for (const doc of docs) {
    const filter: Doc = {};
    for (const f of on) filter[f] = doc[f];
    const existing = matchDocs(sink.state(), filter, plan.collation).docs[0];
    if (!existing) {
      if (whenNotMatched === 'insert') sink.insert(doc);
      else if (whenNotMatched === 'fail')
        throw new CommandError(13113, '$merge could not find a matching document in the target collection');
      continue;
    }
    let next: Doc;
    if (Array.isArray(whenMatched)) {
      // A pipeline update of the matched document (makeBatchUpdateModification): it changes nothing
      // when its result is the stored document, and is logged as any pipeline update is.
      const update = applyUpdate(existing, whenMatched, {
        variables: mergeVariables(plan.stage, doc, plan.variables),
      });
      if (!update.changed) continue;
      next = update.doc;
    } else if (whenMatched === 'replace') next = { ...doc, _id: existing['_id'] };
    else if (whenMatched === 'keepExisting') continue;
    else if (whenMatched === 'fail') throw mergeDuplicate(coll, on, filter);
    else if (whenMatched === 'merge') next = { ...existing, ...doc, _id: existing['_id'] };
    else throw new CommandError(ErrorCodes.BadValue, 'unsupported $merge whenMatched');
    // An aggregation's results may share their parts (aggregate.ts): each stored document gets its own.
    sink.update(existing, idFirst(cloneValue(next)));
  }
}

/**
 * Merges `docs` into a copy of `coll`'s state, with the checks the real writes make, to learn whether
 * one of them is held by an open transaction. A document that fails for another reason fails the same
 * way when it is written, and the documents after it are never reached: the rehearsal stops there.
 * @throws BlockedByTransaction when a document the stage would write, before any failing one, is held.
 */
function rehearse(engine: Engine, coll: Collection, plan: MergePlan, docs: Doc[]): void {
  const trial = coll.state.clone();
  try {
    mergeDocs(coll, plan, docs, {
      state: () => trial,
      insert(doc) {
        const prepared = prepareInsert(doc);
        engine.checkWrite(coll, keyOf(prepared['_id']), undefined);
        checkStorable(prepared, 'insert');
        validate(coll, prepared, undefined);
        trial.put(coll.ns, prepared);
      },
      update(existing, next) {
        trial.put(coll.ns, next, checkUpdate(engine, coll, existing, next));
      },
    });
  } catch (error) {
    if (error instanceof BlockedByTransaction) throw error;
  }
}

/**
 * Checks that the matched document `existing` of `coll` may become `next`; returns its `_id` key.
 * @throws BlockedByTransaction while an open transaction holds it; CommandError for a document too
 * large, DocumentValidationFailure (121).
 */
function checkUpdate(engine: Engine, coll: Collection, existing: Doc, next: Doc): string {
  const idKey = keyOf(existing['_id']);
  engine.checkWrite(coll, idKey, undefined);
  checkStorable(next, 'update');
  validate(coll, next, existing);
  return idKey;
}

/** Whether an open transaction has written documents of namespace `ns` (only then can a write block). */
function heldByTransactions(engine: Engine, ns: string): boolean {
  for (const txn of engine.openTransactions) if (txn.state === 'active' && txn.writes.has(ns)) return true;
  return false;
}

/** The DuplicateKey error of `$merge` with `whenMatched: 'fail'`: the insert it attempts hits the `on` key. */
function mergeDuplicate(coll: Collection, on: string[], keyValue: Doc): CommandError {
  const keyPattern: Doc = {};
  for (const f of on) keyPattern[f] = 1;
  const index =
    on.length === 1 && on[0] === '_id'
      ? '_id_'
      : (coll.state.indexes.find((i) => keyOf(i.spec.key) === keyOf(keyPattern))?.spec.name ??
        defaultIndexName(keyPattern));
  return duplicateKeyError(coll.ns, index, keyPattern, keyValue);
}

/**
 * The variables a `whenMatched` pipeline reads (mergeVariableNames): the `$merge` stage's `let` (default
 * `{ new: '$$ROOT' }`), each expression evaluated against the incoming document `doc`, over the command's
 * `variables`; `new` is the incoming document for `whenNotMatched: 'insert'` whatever the `let`.
 */
function mergeVariables(stage: Doc, doc: Doc, variables: Doc | undefined): Doc {
  const spec = isPlainObject(stage['let']) ? stage['let'] : { new: '$$ROOT' };
  const options = mingoOptions(undefined, { variables: withSystemVariables(variables) }) as Options;
  const out: Doc = { ...variables };
  for (const [name, expr] of Object.entries(spec)) out[name] = evalExpr(doc, expr, options);
  if ((stage['whenNotMatched'] ?? 'insert') === 'insert' && !('new' in spec)) out['new'] = doc;
  return out;
}

/** The update a `$merge` write applies, for its change event: the pipeline, or none for the other modes. */
function pipelineOf(whenMatched: unknown): unknown[] | undefined {
  return Array.isArray(whenMatched) ? whenMatched : undefined;
}
