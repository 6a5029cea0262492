/**
 * `$project` specs that compute a field at a dotted path (`{ 'a.b': { $literal: 1 } }`, `{ a: { b: '$x' } }`),
 * run as MongoDB's inclusion projection runs them (ProjectionNode::applyToDocument, projection_node.cpp):
 * the included fields are copied first (into each document of an array, arrays nested in it too; other
 * elements are dropped), then the computed fields are set as `$addFields` sets them (computed-fields.ts),
 * so an array element that was not a document comes back as a document of the computed fields. mingo
 * replaces an array on such a path with one document (or an object keyed by index); every other spec
 * goes to project-order.ts's stage.
 */
import type { PipelineOp } from './operator-types.js';
import { addAtPath, setComputedFields } from './computed-fields.js';
import type { FieldTree } from './computed-fields.js';
import { dbRefProjection } from './dbref-projection.js';
import { projectStage } from './project-order.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';

/**
 * Operators whose fields stay with the other stage: `$meta`, and `$slice`/`$elemMatch`, which are
 * projection operators (not expressions) in the find projections read.ts runs through this stage.
 */
const LEFT_ALONE = new Set(['$meta', '$slice', '$elemMatch']);

/** What reading a spec found: whether `_id` is excluded and whether a computed field is dotted. */
interface SpecState {
  idExcluded: boolean;
  dotted: boolean;
}

/**
 * Adds the fields of `spec` (nested under `prefix`) to `tree`; false for a spec left to the other stage
 * (an exclusion, a `LEFT_ALONE` operator, an empty sub-projection, which project-check.ts refuses).
 */
function addFields(tree: FieldTree, spec: Doc, prefix: string, state: SpecState): boolean {
  for (const [field, value] of Object.entries(spec)) {
    const path = prefix ? `${prefix}.${field}` : field;
    if (typeof value === 'number' || typeof value === 'boolean') {
      if (value !== 0 && value !== false) addAtPath(tree, path, { include: true });
      else if (path === '_id') state.idExcluded = true;
      else return false;
      continue;
    }
    if (isPlainObject(value)) {
      const first = Object.keys(value)[0];
      if (first === undefined || LEFT_ALONE.has(first)) return false;
      if (!first.startsWith('$')) {
        if (!addFields(tree, value, path, state)) return false;
        continue;
      }
    }
    if (path.includes('.')) state.dotted = true;
    addAtPath(tree, path, { expression: value });
  }
  return true;
}

/** The tree of an inclusion spec with a dotted computed field, `_id` included unless the spec names it. */
function dottedInclusion(spec: Doc): FieldTree | undefined {
  const tree: FieldTree = new Map();
  const state: SpecState = { idExcluded: false, dotted: false };
  if (!addFields(tree, spec, '', state) || !state.dotted) return undefined;
  if (!state.idExcluded && !tree.has('_id')) tree.set('_id', { include: true });
  return tree;
}

/** The included fields of `doc` (applyProjections), in `doc`'s order. */
function included(tree: FieldTree, doc: Doc): Doc {
  const out: Doc = {};
  for (const [name, value] of Object.entries(doc)) {
    const node = tree.get(name);
    if (node === undefined || 'expression' in node) continue;
    const projected = 'include' in node ? value : includedIn(node.children, value);
    if (projected !== undefined) out[name] = projected;
  }
  return out;
}

/**
 * `value` projected by `tree` (applyProjectionsToValue): a document's included fields, an array's elements
 * each projected (a missing element stays undefined so computed fields can fill it), else missing.
 */
function includedIn(tree: FieldTree, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((element) => includedIn(tree, element));
  return isPlainObject(value) ? included(tree, value) : undefined;
}

/**
 * The `$project` pipeline operator registered in the engine's context (same arguments as mingo's):
 * MongoDB's paths for a dotted computed field, project-order.ts's stage for every other spec; a spec naming
 * a DBRef's fields is first made one mingo can run (dbref-projection.ts).
 */
export const projectPathsStage: PipelineOp = (input, rawSpec, options) => {
  const spec = (isPlainObject(rawSpec) && dbRefProjection(rawSpec)) || rawSpec;
  const tree = isPlainObject(spec) ? dottedInclusion(spec) : undefined;
  if (!tree) return projectStage(input, spec, options);
  return input.map((doc) => setComputedFields(tree, doc as Doc, included(tree, doc as Doc), options));
};
