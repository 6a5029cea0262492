/**
 * The document an upsert starts from: the equality fields of its filter. MongoDB seeds the inserted
 * document with them before it applies the update, so a filter `{ a: 1 }` with `{ $inc: { n: 1 } }`
 * inserts `{ a: 1, n: 1 }`. It reads only the filter, not the update, hence its own file.
 */
import { cloneValue, isPlainObject } from './values.js';
import type { Doc } from './values.js';

function setPath(doc: Doc, path: string, value: unknown): void {
  const parts = path.split('.');
  let cur: Doc = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    const next = cur[parts[i]!];
    if (!isPlainObject(next)) cur[parts[i]!] = {};
    cur = cur[parts[i]!] as Doc;
  }
  cur[parts[parts.length - 1]!] = value;
}

/** The equality fields of a filter that seed an upserted document (`{a: 1, b: {$eq: 2}, $and: [...]}`). */
export function seedFromFilter(filter: Doc): Doc {
  const out: Doc = {};
  const visit = (f: Doc): void => {
    for (const [key, value] of Object.entries(f)) {
      if (key === '$and' && Array.isArray(value)) {
        for (const clause of value) if (isPlainObject(clause)) visit(clause);
      } else if ((key === '$or' || key === '$nor') && Array.isArray(value)) {
        if (key === '$or' && value.length === 1 && isPlainObject(value[0])) visit(value[0]);
      } else if (!key.startsWith('$')) {
        if (value instanceof RegExp) continue;
        if (isPlainObject(value)) {
          const keys = Object.keys(value);
          if (keys.some((k) => k.startsWith('$'))) {
            if ('$eq' in value) setPath(out, key, cloneValue(value['$eq']));
            else if ('$in' in value && Array.isArray(value['$in']) && value['$in'].length === 1)
              setPath(out, key, cloneValue(value['$in'][0]));
            continue;
          }
        }
        setPath(out, key, cloneValue(value));
      }
    }
  };
  visit(filter);
  return out;
}
