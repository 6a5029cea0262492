/**
 * Projections that name a DBRef's fields (`{ 'd.$id': 1 }`, `{ d: { $ref: 0 } }`). MongoDB 7.0's field
 * paths may hold the parts `$id`, `$ref` and `$db` (FieldPath::uassertValidFieldName,
 * src/mongo/db/pipeline/field_path.cpp), and its projection parser reads a one-field `{ $id: … }` that
 * is no expression as a sub-projection (parseSubObject, src/mongo/db/query/projection_parser.cpp). The
 * engine stores a DBRef-like document as a bson `DBRef`, which mingo's projection cannot look into, and
 * mingo reads `{ $id: 0 }` as an operator; so before projecting, such sub-projections become dotted paths
 * and the DBRefs under the projected fields become plain documents again.
 */
import { DBRef } from 'bson';
import { DBREF_FIELDS } from './dbref-fields.js';
import { fieldRole } from './projection-field.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';

const namesDbRef = (path: string): boolean => path.split('.').some((part) => DBREF_FIELDS.has(part));

/** `spec` with each sub-projection that names a DBRef field spelled as dotted paths instead. */
function flattened(spec: Doc): Doc {
  const out: Doc = {};
  for (const [field, value] of Object.entries(spec)) {
    const inner = fieldRole(value).role === 'sub-projection' ? flattened(value as Doc) : undefined;
    if (inner && Object.keys(inner).some(namesDbRef)) {
      for (const [path, child] of Object.entries(inner)) out[`${field}.${path}`] = child;
    } else {
      out[field] = value;
    }
  }
  return out;
}

/** `value` with each `DBRef` in it a plain document, fields in the order bson writes them. */
function plainDbRefs(value: unknown): unknown {
  if (value instanceof DBRef) {
    const doc: Doc = { $ref: value.collection, $id: plainDbRefs(value.oid) };
    if (value.db) doc['$db'] = value.db;
    for (const [name, field] of Object.entries(value.fields)) doc[name] = plainDbRefs(field);
    return doc;
  }
  if (Array.isArray(value)) return value.map(plainDbRefs);
  if (!isPlainObject(value)) return value;
  const out: Doc = {};
  for (const [name, field] of Object.entries(value)) out[name] = plainDbRefs(field);
  return out;
}

/**
 * A projection `spec` and a function preparing each document for it, when the spec names a DBRef field;
 * undefined otherwise (the common case, left as it is).
 */
export function dbRefProjection(spec: Doc): { spec: Doc; prepare(doc: Doc): Doc } | undefined {
  const flat = flattened(spec);
  const tops = new Set(
    Object.keys(flat)
      .filter(namesDbRef)
      .map((path) => path.split('.')[0]!),
  );
  if (tops.size === 0) return undefined;
  const prepare = (doc: Doc): Doc => {
    const out: Doc = { ...doc };
    for (const top of tops) if (top in doc) out[top] = plainDbRefs(doc[top]);
    return out;
  };
  return { spec: flat, prepare };
}
