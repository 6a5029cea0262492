/**
 * Find projections that MongoDB reads as exclusions although they hold the find-only `$slice` or
 * `$elemMatch`: `{ comments: { $slice: 5 } }` returns every field with `comments` cut to five, and
 * `{ body: 0, tags: { $elemMatch: … } }` every field but `body`, with `tags` narrowed to its first
 * match (or left out). The kind follows projection_parser.cpp: the first inclusion or exclusion flag
 * (other than a top-level `_id`), literal or operator expression decides; without one,
 * `computeProjectionType` makes a find `$slice` an exclusion unless `_id: 1` is given, an `$elemMatch`
 * an inclusion, a lone `$meta` an exclusion unless `_id: 1`. mingo's `$project` cannot mix these with
 * exclusions, so the engine excludes with mingo and applies them itself, where the field stands.
 */
import type { Options } from 'mingo/types';
import { elemMatchProjection } from './elem-match-projection.js';
import { fieldRole, operatorKind } from './projection-field.js';
import type { ProjectionKind } from './projection-field.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';

const FIND_ONLY = new Set(['$slice', '$elemMatch']);

/** The kind a flag asks for, or undefined for a value that is not a flag. */
function flagKind(value: unknown): ProjectionKind | undefined {
  const role = fieldRole(value);
  return role.role === 'flag' ? role.kind : undefined;
}

/** The operator of a one-field `$` object, or undefined. */
function operatorOf(value: unknown): string | undefined {
  if (!isPlainObject(value)) return undefined;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0]!.startsWith('$') ? keys[0] : undefined;
}

/**
 * The kind the first field that decides one decides (a top-level `_id` flag does not), walking
 * sub-projections; undefined when none does. The rules are the parser's (projection-field.ts).
 */
function decidedKind(spec: Doc, isRoot: boolean): ProjectionKind | undefined {
  for (const [field, value] of Object.entries(spec)) {
    const role = fieldRole(value);
    let kind: ProjectionKind | undefined;
    if (role.role === 'flag') kind = isRoot && field === '_id' ? undefined : role.kind;
    else if (role.role === 'literal') kind = 'inclusion';
    else if (role.role === 'operator') kind = operatorKind(role.operator, value as Doc, true);
    else if (role.role === 'sub-projection') kind = decidedKind(value as Doc, false);
    if (kind) return kind;
  }
  return undefined;
}

/**
 * The find-only operators of `projection` when MongoDB reads it as an exclusion holding some, else
 * undefined (the projection is then what mingo's `$project` reads).
 */
export function exclusionExtras(projection: Doc): [string, Doc][] | undefined {
  const extras = Object.entries(projection).filter(([, v]) => FIND_ONLY.has(operatorOf(v) ?? '')) as [
    string,
    Doc,
  ][];
  if (extras.length === 0) return undefined;
  let kind = decidedKind(projection, true);
  if (kind === undefined) {
    const id = projection['_id'];
    const idIncluded = flagKind(id) === 'inclusion';
    const hasSlice = extras.some(([, v]) => '$slice' in v);
    kind = hasSlice ? (idIncluded ? 'inclusion' : 'exclusion') : 'inclusion';
  }
  return kind === 'exclusion' ? extras : undefined;
}

/** The flags of an exclusion projection, for mingo's `$project` (undefined when there are none). */
export function exclusionFlags(projection: Doc): Doc | undefined {
  const flags = Object.entries(projection).filter(([, v]) => flagKind(v) === 'exclusion');
  return flags.length > 0 ? Object.fromEntries(flags) : undefined;
}

/** A find-syntax `$slice` (`n`, or `[skip, limit]` already made integral) of an array. */
function slice(array: unknown[], arg: unknown): unknown[] {
  if (Array.isArray(arg)) {
    const [skip, limit] = arg.map((n) => Number(String(n))) as [number, number];
    const start = skip < 0 ? Math.max(0, array.length + skip) : Math.min(skip, array.length);
    return array.slice(start, start + limit);
  }
  const n = Number(String(arg));
  return n >= 0 ? array.slice(0, n) : array.slice(Math.max(0, array.length + n));
}

/** Cuts the array at dotted `path` of `doc` in place (through sub-documents); other values stay. */
function sliceAt(doc: Doc, path: string[], arg: unknown): void {
  const [head, ...rest] = path;
  const value = doc[head!];
  if (rest.length === 0) {
    if (Array.isArray(value)) doc[head!] = slice(value, arg);
  } else if (isPlainObject(value)) sliceAt(value, rest, arg);
}

/**
 * Applies the find-only operators of an exclusion projection to `doc` (already stripped of its excluded
 * fields) in place: a `$slice` cuts its array, an `$elemMatch` keeps the first matching element or
 * drops the field, each where the field stands.
 */
export function applyExclusionExtras(doc: Doc, extras: [string, Doc][], options: Options): void {
  for (const [field, spec] of extras) {
    if ('$slice' in spec) sliceAt(doc, field.split('.'), spec['$slice']);
    else if (field in doc) {
      const matched = elemMatchProjection(doc, spec['$elemMatch'], field, options);
      if (matched === undefined) delete doc[field];
      else doc[field] = matched;
    }
  }
}
