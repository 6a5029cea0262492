/**
 * The `$project` stage with MongoDB's field order. MongoDB builds a projected document by walking the
 * input document (included fields and nested projections keep their input positions, `_id` usually
 * first) and then appending computed fields in the order the spec names them; mingo's stage computes the
 * same values but emits them in its own order (`_id` last, fields sorted), which clients see in every
 * JSON reply.
 */
import { Lazy } from 'mingo/lazy';
import { builtinStage } from './operator-types.js';
import type { PipelineOp } from './operator-types.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';

const builtinProject = builtinStage('$project');

/** True for a spec value that computes a field (an expression), not one that includes or excludes it. */
function computes(value: unknown): boolean {
  if (typeof value === 'number' || typeof value === 'boolean') return false;
  return !isPlainObject(value) || Object.keys(value)[0]?.startsWith('$') === true;
}

/** The part of `spec` under field `name`: `{ a: { b: 1 } }` and `{ 'a.b': 1 }` both give `{ b: 1 }`. */
function childSpec(spec: Doc, name: string): Doc {
  const child: Doc = {};
  for (const [path, value] of Object.entries(spec)) {
    if (path === name && isPlainObject(value) && !computes(value)) Object.assign(child, value);
    else if (path.startsWith(`${name}.`)) child[path.slice(name.length + 1)] = value;
  }
  return child;
}

/** `out` (mingo's projection of `input`) with its fields in MongoDB's order. */
function ordered(out: unknown, input: unknown, spec: Doc): unknown {
  if (!isPlainObject(out) || !isPlainObject(input)) return out;
  const result: Doc = {};
  for (const [name, value] of Object.entries(input)) {
    if (!(name in out) || (name in spec && computes(spec[name]))) continue;
    // mingo passes a field the spec keeps whole on as the same object, already in order: walking it
    // would cost its whole tree, 2^n for a value that shares its parts.
    const kept = out[name] === value || !isPlainObject(value);
    result[name] = kept ? out[name] : ordered(out[name], value, childSpec(spec, name));
  }
  for (const path of Object.keys(spec)) {
    const name = path.split('.')[0]!;
    if (name in out && !(name in result)) result[name] = out[name];
  }
  for (const name of Object.keys(out)) if (!(name in result)) result[name] = out[name];
  return result;
}

/** The `$project` pipeline operator registered in the engine's context (same arguments as mingo's). */
export const projectStage: PipelineOp = (collection, spec, options) => {
  if (!isPlainObject(spec)) return builtinProject(collection, spec, options);
  return collection.transform((items: unknown[]) => {
    // $project maps each input document to one output document, so outputs pair with inputs by index.
    const outputs = builtinProject(Lazy(items), spec, options).collect<unknown>();
    return Lazy(outputs.map((out, i) => ordered(out, items[i], spec)));
  });
};
