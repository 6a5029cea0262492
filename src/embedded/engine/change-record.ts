/**
 * Turns document writes into change records: insert, update (with its `updateDescription`), replace and
 * delete, with pre- and post-images kept when the collection enables `changeStreamPreAndPostImages`.
 * Writes of a transaction are staged until it commits.
 */
import type { ChangeDraft } from './change-history.js';
import type { Collection } from './collection.js';
import type { Engine } from './database.js';
import type { Transaction } from './transaction.js';
import { isPlainObject, keyOf } from './values.js';
import type { Doc } from './values.js';

/** True when the collection keeps pre- and post-images (`changeStreamPreAndPostImages: { enabled: true }`). */
export function keepsImages(coll: Collection): boolean {
  const option = coll.options['changeStreamPreAndPostImages'];
  return isPlainObject(option) && option['enabled'] === true;
}

/**
 * Records one document write: `before` undefined is an insert, `after` undefined a delete, otherwise an
 * update, or a replace when `replacement` (a replacement-style update).
 */
export function recordWrite(
  engine: Engine,
  coll: Collection,
  txn: Transaction | undefined,
  before: Doc | undefined,
  after: Doc | undefined,
  replacement = false,
): void {
  const images = keepsImages(coll);
  const base = { db: coll.db, coll: coll.name, id: (after ?? before)?.['_id'] };
  let draft: ChangeDraft;
  if (!before) draft = { op: 'insert', ...base, after };
  else if (!after) draft = { op: 'delete', ...base, ...(images ? { before } : {}) };
  else if (replacement) draft = { op: 'replace', ...base, after, ...(images ? { before } : {}) };
  else
    draft = {
      op: 'update',
      ...base,
      update: updateDescription(before, after),
      ...(images ? { before, after } : {}),
    };
  if (txn) engine.history.stage(txn, draft);
  else engine.history.append([draft]);
}

type Delta = {
  updatedFields: Doc;
  removedFields: string[];
  truncatedArrays: Doc[];
};

/**
 * The `updateDescription` of an update, computed by comparing the documents: changed and added fields by
 * dotted path (sub-documents compared field by field), removed fields, elements appended to an array
 * as `path.index`, an array cut short as `truncatedArrays`, any other array change as the whole array.
 */
export function updateDescription(before: Doc, after: Doc): Delta {
  const delta: Delta = { updatedFields: {}, removedFields: [], truncatedArrays: [] };
  diffObjects(before, after, '', delta);
  return delta;
}

function diffObjects(a: Doc, b: Doc, prefix: string, delta: Delta): void {
  for (const key of Object.keys(a)) if (!(key in b)) delta.removedFields.push(prefix + key);
  for (const [key, value] of Object.entries(b)) {
    const path = prefix + key;
    if (!(key in a)) delta.updatedFields[path] = value;
    else {
      const old = a[key];
      if (keyOf(old) === keyOf(value) && typeof old === typeof value) continue;
      if (isPlainObject(old) && isPlainObject(value)) diffObjects(old, value, `${path}.`, delta);
      else if (Array.isArray(old) && Array.isArray(value)) diffArrays(old, value, path, delta);
      else delta.updatedFields[path] = value;
    }
  }
}

function diffArrays(a: unknown[], b: unknown[], path: string, delta: Delta): void {
  const common = Math.min(a.length, b.length);
  for (let i = 0; i < common; i++) {
    if (keyOf(a[i]) !== keyOf(b[i])) {
      delta.updatedFields[path] = b;
      return;
    }
  }
  if (b.length < a.length) delta.truncatedArrays.push({ field: path, newSize: b.length });
  for (let i = common; i < b.length; i++) delta.updatedFields[`${path}.${i}`] = b[i];
}
