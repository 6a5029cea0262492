/**
 * What one field of a projection is, as MongoDB's projection parser reads it (projection_parser.cpp),
 * and which kind — inclusion or exclusion — it makes the projection: a flag asks for its own kind, a
 * literal or an operator expression for an inclusion, `$meta`, `$elemMatch` and a find-syntax `$slice`
 * for neither. project-check.ts parses projections with it; find-exclusion.ts reads a find projection's
 * kind with it.
 */
import { numberKind } from './arithmetic.js';
import { DBREF_FIELDS } from './dbref-fields.js';
import { bsonTypeName, isPlainObject } from './values.js';
import type { Doc } from './values.js';

/** The two kinds of projection. */
export type ProjectionKind = 'inclusion' | 'exclusion';

/** A projection field's value, classified. */
export type FieldRole =
  | { role: 'flag'; kind: ProjectionKind }
  | { role: 'literal' }
  | { role: 'empty' }
  | { role: 'operator'; operator: string }
  | { role: 'sub-projection' };

/**
 * What `value` is in a projection: a boolean or number flag, a literal, an empty object, a one-field `$`
 * object (an operator, unless it names a DBRef field: `{ a: { $id: 1 } }` is a sub-projection,
 * parseSubObject in projection_parser.cpp), or a sub-projection.
 */
export function fieldRole(value: unknown): FieldRole {
  if (typeof value === 'boolean' || numberKind(value) !== undefined) {
    const excludes = value === false || Number(String(value)) === 0;
    return { role: 'flag', kind: excludes ? 'exclusion' : 'inclusion' };
  }
  if (!isPlainObject(value)) return { role: 'literal' };
  const keys = Object.keys(value);
  if (keys.length === 0) return { role: 'empty' };
  const operator = keys[0]!;
  if (keys.length !== 1 || !operator.startsWith('$')) return { role: 'sub-projection' };
  // No expression operator is named $id, $ref or $db: such a name is a DBRef field to project.
  if (DBREF_FIELDS.has(operator)) return { role: 'sub-projection' };
  return { role: 'operator', operator };
}

/** Why a find `$slice` argument is not the find syntax (attemptToParseFindSlice), as a Status prints. */
export function findSliceFailure(arg: unknown): string | undefined {
  if (numberKind(arg) !== undefined) return undefined;
  if (!Array.isArray(arg)) return 'Location31273: $slice only supports numbers and [skip, limit] arrays';
  if (arg.length !== 2) return 'Location31272: $slice array argument should be of form [skip, limit]';
  const [skip, limit] = arg as [unknown, unknown];
  if (numberKind(skip) === undefined)
    return `Location31257: $slice expects the skip argument to be a number, got ${bsonTypeName(skip)}`;
  if (numberKind(limit) === undefined)
    return `Location31258: $slice expects the limit argument to be a number, got ${bsonTypeName(limit)}`;
  const n = Math.trunc(Number(String(limit)));
  if (!(n > 0)) return `Location31259: $slice limit must be positive, got ${n}`;
  return undefined;
}

/**
 * The kind an operator field `{ <operator>: … }` (`value`) decides: none for `$meta`, and in a find for
 * `$elemMatch` and a `$slice` of the find syntax (`n` or `[skip, limit]`); an inclusion for any other
 * expression, a `$slice` of the expression syntax among them.
 */
export function operatorKind(operator: string, value: Doc, find: boolean): ProjectionKind | undefined {
  if (operator === '$meta') return undefined;
  if (find && operator === '$elemMatch') return undefined;
  if (find && operator === '$slice' && findSliceFailure(value['$slice']) === undefined) return undefined;
  return 'inclusion';
}
