/**
 * Record ids in a find's answer: `showRecordId` ends each document with `$recordId`, as MongoDB 7.0
 * appends `$recordId: { $meta: 'recordId' }` to the find's projection (query_request_helper.cpp,
 * addShowRecordIdMetaProj), and a projection field `{ $meta: 'recordId' }` holds the id. The id is a
 * long (a collection that is not clustered numbers its records with int64s). read.ts carries each
 * document's id through the sort and the projection in a hidden field and answers it here.
 */
import { Long } from 'bson';
import type { RecordIds } from './collection.js';
import { isMeta, RECORD_ID_FIELD } from './meta-fields.js';
import { keyOf } from './values.js';
import type { Doc } from './values.js';

/** The top-level fields of find projection `projection` that project `{ $meta: 'recordId' }`. */
export function recordIdFields(projection: Doc | undefined): string[] {
  if (!projection) return [];
  return Object.keys(projection).filter((k) => {
    const v = projection[k];
    return isMeta(v) && v['$meta'] === 'recordId';
  });
}

/** `docs` (stored documents, unchanged) as shallow copies carrying their record id in the hidden field. */
export function withRecordIds(docs: Doc[], records: RecordIds): Doc[] {
  return docs.map((d) => ({ ...d, [RECORD_ID_FIELD]: records.of(keyOf(d['_id'])) }));
}

/** True for a find projection that lists what it keeps (not `{ _id: 0 }`, not an exclusion). */
export function isInclusion(projection: Doc): boolean {
  const excluded = (v: unknown) => v === 0 || v === false;
  const fields = Object.keys(projection).filter((k) => k !== '_id');
  if (fields.length === 0) return !excluded(projection['_id']);
  return fields.some((k) => !excluded(projection[k]));
}

/**
 * `doc` (a fresh copy holding the hidden field, or fields `fields` computed from it) with each of
 * `fields` a long (a meta-only projection copies the hidden field itself) and, with `show`, `$recordId`
 * last; the hidden field removed.
 */
export function answerRecordId(doc: Doc, fields: string[], metaOnly: boolean, show: boolean): Doc {
  const id = doc[RECORD_ID_FIELD];
  delete doc[RECORD_ID_FIELD];
  for (const field of fields) {
    const value = metaOnly ? id : doc[field];
    if (typeof value === 'number') doc[field] = Long.fromNumber(value);
  }
  if (show && typeof id === 'number') doc['$recordId'] = Long.fromNumber(id);
  return doc;
}
