/**
 * Turns document writes into change records: insert, update (with its `updateDescription`, see
 * change-update-description.ts), replace and delete, with pre- and post-images kept when the collection
 * enables `changeStreamPreAndPostImages`.
 * Writes of a transaction are staged until it commits.
 */
import type { ChangeDraft } from './change-history.js';
import type { Collection } from './collection.js';
import type { Engine } from './database.js';
import type { Transaction } from './transaction.js';
import { describeDelta } from './change-update-description.js';
import { modifierDelta } from './update-delta.js';
import { pipelineDelta } from './update-delta-pipeline.js';
import type { DocDelta } from './update-delta-tree.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';

/** True when the collection keeps pre- and post-images (`changeStreamPreAndPostImages: { enabled: true }`). */
export function keepsImages(coll: Collection): boolean {
  const option = coll.options['changeStreamPreAndPostImages'];
  return isPlainObject(option) && option['enabled'] === true;
}

/**
 * Records one document write: `before` undefined is an insert, `after` undefined a delete, otherwise an
 * update, or a replace when `replacement` (a replacement-style update). `update` is the update applied
 * (an operator document or a pipeline): the update event's `updateDescription` is read from the delta
 * MongoDB 7.0 logs for it (update-delta.ts, update-delta-pipeline.ts), and a pipeline update whose delta
 * would be as large as the new document is logged, as MongoDB logs it, as a replace.
 */
export function recordWrite(
  engine: Engine,
  coll: Collection,
  txn: Transaction | undefined,
  before: Doc | undefined,
  after: Doc | undefined,
  replacement = false,
  update?: unknown,
): void {
  const images = keepsImages(coll);
  const base = { db: coll.db, coll: coll.name, id: (after ?? before)?.['_id'] };
  const delta = before && after && !replacement ? updateDelta(before, after, update) : undefined;
  let draft: ChangeDraft;
  if (!before) draft = { op: 'insert', ...base, after };
  else if (!after) draft = { op: 'delete', ...base, ...(images ? { before } : {}) };
  else if (replacement || !delta) draft = { op: 'replace', ...base, after, ...(images ? { before } : {}) };
  else
    draft = {
      op: 'update',
      ...base,
      update: describeDelta(delta) as unknown as Doc,
      ...(images ? { before, after } : {}),
    };
  if (txn) engine.history.stage(txn, draft);
  else engine.history.append([draft]);
}

/**
 * The delta of an update: the modifiers' own log for an operator update, the documents' diff for a
 * pipeline update (undefined when MongoDB logs it as a replacement). A write given no update is
 * `$merge`'s `whenMatched: 'merge'`, which MongoDB runs as `{$set: <merged document>}`.
 */
function updateDelta(before: Doc, after: Doc, update: unknown): DocDelta | undefined {
  if (Array.isArray(update)) return pipelineDelta(before, after);
  return modifierDelta(before, after, isPlainObject(update) ? update : setEveryField(after));
}

/** `{$set: …}` naming every top-level field of `doc` (those it leaves unchanged log nothing). */
function setEveryField(doc: Doc): Doc {
  return { $set: Object.fromEntries(Object.keys(doc).map((k) => [k, true])) };
}
