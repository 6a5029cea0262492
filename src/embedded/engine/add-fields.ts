/**
 * The `$addFields`/`$set` stage with MongoDB's computed-field paths (computed-fields.ts): `a.b` sets `b` in
 * each element of an array `a`, a number in a path names a field, and a nested spec (`{ a: { b: 1 } }`)
 * is merged into `a` as `a.b` would be, where mingo's stage replaces `a` with the object.
 */
import type { PipelineOp } from './operator-types.js';
import { addAtPath, setComputedFields } from './computed-fields.js';
import type { FieldTree } from './computed-fields.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';

/**
 * Adds the entry `path: value` of a spec (or of a nested spec) to `tree`, as MongoDB's
 * AddFieldsProjectionExecutor::parse and parseSubObject read it (add_fields_projection_executor.cpp): an
 * object whose first field starts with `$` is an expression, an empty object is the literal `{}`, another
 * object is a nested spec of fields under `path`, anything else is an expression (a literal, a `$field`
 * path, an array of expressions).
 */
function addEntry(tree: FieldTree, path: string, value: unknown): void {
  if (!isPlainObject(value)) return addAtPath(tree, path, { expression: value });
  const keys = Object.keys(value);
  if (keys.length === 0 || keys[0]!.startsWith('$')) return addAtPath(tree, path, { expression: value });
  for (const key of keys) addEntry(tree, `${path}.${key}`, value[key]);
}

/**
 * The `$addFields` (and `$set`) pipeline operator registered in the engine's context, with mingo's
 * arguments. Expressions read the input document as `$$ROOT` and `$$CURRENT`. A spec that is not an
 * object never gets here: pipeline-check.ts refuses it (40272) first.
 */
export const addFieldsStage: PipelineOp = (collection, spec, options) => {
  if (!isPlainObject(spec)) return collection;
  const tree: FieldTree = new Map();
  for (const [path, value] of Object.entries(spec)) addEntry(tree, path, value);
  if (tree.size === 0) return collection;
  return collection.map((doc) => setComputedFields(tree, doc as Doc, doc as Doc, options));
};
