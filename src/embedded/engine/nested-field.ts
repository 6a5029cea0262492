/**
 * Setting a dotted output path of a stage (`$lookup`'s and `$graphLookup`'s `as`) as MongoDB 7.0's
 * MutableDocument::setNestedField does (src/mongo/db/exec/document_value/document.cpp, and
 * MutableValue::getDocPtr in document.h for the replacement of what is not a document): each level below
 * the first is a field of the document at the level above; a level that holds anything but a document (an
 * array, a scalar, nothing) is replaced by an empty document; the last field is overwritten in place or
 * appended.
 */
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';

/**
 * A copy of `doc` with `path` (dotted) set to `value`; `doc` and the documents it holds are not changed,
 * since stages hand on stored documents.
 */
export function withNestedField(doc: Doc, path: string, value: unknown): Doc {
  const dot = path.indexOf('.');
  if (dot === -1) return { ...doc, [path]: value };
  const head = path.slice(0, dot);
  const inner = doc[head];
  return { ...doc, [head]: withNestedField(isPlainObject(inner) ? inner : {}, path.slice(dot + 1), value) };
}
