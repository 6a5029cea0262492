/**
 * The values a join reads from its own side: `$lookup`'s `localField` and `$graphLookup`'s
 * `connectFromField`, as MongoDB 7.0 collects them (`document_path_support::visitAllValuesAtPath`,
 * src/mongo/db/pipeline/document_path_support.cpp). The other side of the join is matched as a filter
 * (query-path.ts), whose path rule differs:
 *
 * - the first part is a field name even when numeric; after it, numeric parts met while the value is an
 *   array are positions (`'a.0.1'` in `{ a: [[1, 2]] }` is 2), never field names of its documents;
 * - a field name met at an array goes into the documents among its elements, not into arrays nested in
 *   it (`{ a: [[{ b: 1 }]] }` has no value at `'a.b'`);
 * - an array at the end gives its elements (an empty array gives none), anything else itself; a missing
 *   value gives nothing.
 */
import { isPlainObject } from './values.js';

/** A path split once: its parts, and each part's position when it is all digits (else -1). */
interface JoinPath {
  readonly parts: readonly string[];
  readonly positions: readonly number[];
}

/** The values at `path` in `doc`, in document order (see the file comment). */
export function joinValues(doc: unknown, path: string): unknown[] {
  const parts = path.split('.');
  // str::parseUnsignedBase10Integer: digits only, leading zeros allowed.
  const positions = parts.map((part) => (/^\d+$/.test(part) ? Number(part) : -1));
  const out: unknown[] = [];
  if (isPlainObject(doc)) collect(doc, { parts, positions }, 0, out);
  return out;
}

/** Adds the values from part `i` on in the document `doc` to `out`. */
function collect(doc: Record<string, unknown>, path: JoinPath, i: number, out: unknown[]): void {
  const { parts, positions } = path;
  let value: unknown = Object.hasOwn(doc, parts[i]!) ? doc[parts[i]!] : undefined;
  i++;
  for (; i < parts.length && Array.isArray(value) && positions[i]! >= 0; i++) {
    value = (value as unknown[])[positions[i]!];
  }
  if (i === parts.length) {
    const values: unknown[] = Array.isArray(value) ? value : [value];
    for (const each of values) if (each !== undefined) out.push(each);
    return;
  }
  if (Array.isArray(value)) {
    for (const element of value as unknown[]) if (isPlainObject(element)) collect(element, path, i, out);
  } else if (isPlainObject(value)) {
    collect(value, path, i, out);
  }
}
