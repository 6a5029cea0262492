/**
 * Projections that name a DBRef's fields (`{ 'd.$id': 1 }`, `{ d: { $ref: 0 } }`). MongoDB 7.0's field
 * paths may hold the parts `$id`, `$ref` and `$db` (FieldPath::uassertValidFieldName,
 * src/mongo/db/pipeline/field_path.cpp), and its projection parser reads a one-field `{ $id: … }` that
 * is no expression as a sub-projection (parseSubObject, src/mongo/db/query/projection_parser.cpp). The
 * engine holds a DBRef-shaped document as a plain one (dbref-decode.ts), which mingo's paths enter, but
 * mingo reads `{ $id: 0 }` as an operator; so before projecting, such sub-projections become dotted paths.
 */
import { DBREF_FIELDS } from './dbref-fields.js';
import { fieldRole } from './projection-field.js';
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

/**
 * `spec` with each sub-projection that names a DBRef field spelled as dotted paths, when it has one;
 * undefined otherwise (the common case, left as it is).
 */
export function dbRefProjection(spec: Doc): Doc | undefined {
  const flat = flattened(spec);
  return Object.keys(flat).some(namesDbRef) ? flat : undefined;
}
