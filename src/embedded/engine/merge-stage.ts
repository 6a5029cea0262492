/**
 * The `$merge` stage's writer: each document of an aggregation's result matched on the stage's `on`
 * fields in the target and inserted, replaced, merged, kept, failed or updated by a pipeline as
 * `whenMatched`/`whenNotMatched` say. Like MongoDB's, it is not atomic: the documents written before
 * one that fails stay written.
 */
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';
import { recordWrite } from './change-record.js';
import { type Collection, duplicateKeyError } from './collection.js';
import type { Engine } from './database.js';
import { defaultIndexName } from './indexes.js';
import { withSystemVariables } from './let-variables.js';
import { checkStorable } from './limits.js';
import { mergeVariableNames } from './merge-check.js';
import { mingoOptions } from './mingo-options.js';
import { checkUpdatePipeline } from './pipeline-update.js';
import { matchDocs } from './read.js';
import { applyUpdate } from './update.js';
import { refuseView } from './views.js';
import { insertOne, validate } from './write.js';
import { cloneValue, idFirst, isPlainObject, keyOf } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/**
 * Writes `docs` into collection `name` of database `db` (created when missing) as `$merge` stage `m`
 * (`{ into, on, let, whenMatched, whenNotMatched }`) says; `variables` are the command's `let` values,
 * which a `whenMatched` pipeline may read.
 * @throws CommandError 166 for a view target, the errors of `checkUpdatePipeline` for a pipeline
 * `whenMatched` when `docs` is not empty (before anything is written), 13113 and DuplicateKey (11000)
 * for the `fail` modes, and what the writes throw.
 */
export function writeMerge(
  engine: Engine,
  db: string,
  name: string,
  m: Doc,
  docs: Doc[],
  variables?: Doc,
): void {
  const on =
    typeof m['on'] === 'string' ? [m['on']] : Array.isArray(m['on']) ? (m['on'] as string[]) : ['_id'];
  const whenMatched = m['whenMatched'] ?? 'merge';
  const whenNotMatched = m['whenNotMatched'] ?? 'insert';
  refuseView(engine.collection(db, name));
  // MongoDB parses a pipeline `whenMatched` as the update it sends for the first document, matched or not.
  if (docs.length > 0) checkUpdatePipeline(whenMatched, mergeVariableNames(m, Object.keys(variables ?? {})));
  const coll = engine.create(db, name);
  for (const doc of docs) {
    const state = engine.readState(coll, undefined);
    const filter: Doc = {};
    for (const f of on) filter[f] = doc[f];
    const existing = matchDocs(state, filter).docs[0];
    if (!existing) {
      if (whenNotMatched === 'insert') insertOne(engine, coll, undefined, doc);
      else if (whenNotMatched === 'fail')
        throw new CommandError(13113, '$merge could not find a matching document in the target collection');
      continue;
    }
    let next: Doc;
    if (Array.isArray(whenMatched)) {
      // A pipeline update of the matched document (makeBatchUpdateModification): it changes nothing
      // when its result is the stored document, and is logged as any pipeline update is.
      const update = applyUpdate(existing, whenMatched, {
        variables: mergeVariables(m, doc, variables),
      });
      if (!update.changed) continue;
      next = update.doc;
    } else if (whenMatched === 'replace') next = { ...doc, _id: existing['_id'] };
    else if (whenMatched === 'keepExisting') continue;
    else if (whenMatched === 'fail') throw mergeDuplicate(coll, on, filter);
    else if (whenMatched === 'merge') next = { ...existing, ...doc, _id: existing['_id'] };
    else throw new CommandError(ErrorCodes.BadValue, 'unsupported $merge whenMatched');
    // An aggregation's results may share their parts (aggregate.ts): each stored document gets its own.
    next = idFirst(cloneValue(next));
    const idKey = keyOf(existing['_id']);
    engine.checkWrite(coll, idKey, undefined);
    checkStorable(next, 'update');
    validate(coll, next, existing);
    coll.writable().put(coll.ns, next, idKey);
    engine.touched(coll, idKey);
    engine.emit([{ op: 'put', ns: coll.ns, doc: next }]);
    recordWrite(engine, coll, undefined, existing, next, whenMatched === 'replace', pipelineOf(whenMatched));
  }
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
