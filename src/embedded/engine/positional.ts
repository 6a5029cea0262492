/**
 * The positional operators: `field.$` (the array position the query recorded, elem-match-key.ts) in
 * find projections and updates, and `$[]` / `$[identifier]` (every element / the elements
 * `arrayFilters` match) in updates. An update's `$` is replaced by that position before anything else
 * ({@link withMatchedField}); `$[]` and `$[identifier]` are resolved here for each operator's checks and
 * for the values the engine computes (numbers.ts, arithmetic.ts), and mingo applies the rest.
 */
import { arrayFilterName } from './array-filters.js';
import { elementText } from './bson-text.js';
import type { Collation } from './collation.js';
import { elemMatchKey } from './elem-match-key.js';
import { compile, prepareFilter, splitText } from './query.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/**
 * Whether a condition of `filter` has a path whose first part is `first`, looking into `$and`, `$or` and
 * `$nor` (MongoDB 7.0's hasPositionalOperatorMatch, projection_parser.cpp); other `$` keys have no path.
 */
function namesField(filter: unknown, first: string): boolean {
  if (!isPlainObject(filter)) return false;
  return Object.entries(filter).some(([key, value]) => {
    if (key === '$and' || key === '$or' || key === '$nor')
      return Array.isArray(value) && value.some((clause) => namesField(clause, first));
    return !key.startsWith('$') && key.split('.')[0] === first;
  });
}

/**
 * The prepared filter a find projection's `field.$` is resolved with. MongoDB parses the projection
 * with the query, so this check comes before any document is read.
 * @throws CommandError 31277 when no condition of the filter is on the field's first part.
 */
export function positionalQuery(filter: unknown, field: string): Doc {
  const prepared = splitText(prepareFilter(filter)).rest;
  if (!namesField(prepared, field.split('.')[0]!))
    throw new CommandError(31277, `Positional projection '${field}.$' does not match the query document.`);
  return prepared;
}

/**
 * The array field a find projection's positional key projects (`arr` for `arr.$`), or undefined.
 */
export function positionalField(projection: Doc | undefined): string | undefined {
  const key = Object.keys(projection ?? {}).find((k) => k.endsWith('.$'));
  return key?.slice(0, -2);
}

/**
 * `projected` with the positional projection `field.$` applied, as MongoDB 7.0's
 * applyFindPositionalProjection (projection_executor_utils.cpp) does: the first array on the path
 * (`a` for `a.b.$` when `a` is an array) becomes the one-element array of its element at the position
 * the query recorded on `doc` (elem-match-key.ts, the filter in its own order); with no array on the
 * path the document is left as it is.
 * @throws CommandError 51246 when the query recorded no position (no condition on an array, or only
 * inside `$or`, `$nor`, `$not`), 51247 when the array has no element there.
 */
export function applyPositional(
  doc: Doc,
  projected: Doc,
  field: string,
  filter: Doc,
  collation: Collation | undefined,
): Doc {
  const parts = field.split('.');
  let current: unknown = projected;
  for (let i = 0; i < parts.length; i++) {
    current = isPlainObject(current) ? current[parts[i]!] : undefined;
    if (Array.isArray(current)) {
      const key = elemMatchKey(filter, doc, false, collation);
      if (key === undefined)
        throw new CommandError(
          51246,
          "positional operator '.$' couldn't find a matching element in the array",
        );
      const index = Number(key);
      if (index >= current.length) throw new CommandError(51247, "positional operator '.$' element mismatch");
      return withValue(projected, parts.slice(0, i + 1), [current[index]]) as Doc;
    }
  }
  return projected;
}

/** `doc` with the value at `parts` replaced by `value` (objects along the way copied, not changed). */
function withValue(doc: unknown, parts: readonly string[], value: unknown): unknown {
  if (parts.length === 0) return value;
  const [head, ...rest] = parts as [string, ...string[]];
  const container = (doc ?? {}) as Record<string, unknown>;
  const copy: Record<string, unknown> | unknown[] = Array.isArray(container)
    ? [...container]
    : { ...container };
  (copy as Record<string, unknown>)[head] = withValue(container[head], rest, value);
  return copy;
}

/**
 * Whether one part of an update path is an array operator, `$[]` or `$[identifier]`. (The positional
 * `$` is replaced by a field name before any path is read: {@link withMatchedField}.) Other parts that
 * start with `$` (`a.$x`) are field names, which MongoDB 5.0+ allows below the top level.
 */
function isPositionalPart(part: string): boolean {
  return part.startsWith('$[') && part.endsWith(']');
}

/** Whether an update path holds `$[]` or `$[identifier]` (see {@link isPositionalPart}). */
export function hasPositional(path: string): boolean {
  return path.split('.').some(isPositionalPart);
}

/** Whether an update path holds the positional `$`, which {@link withMatchedField} replaces. */
export function holdsMatchedField(path: string): boolean {
  return path.split('.').includes('$');
}

/** What resolving positional paths needs besides the document. */
export interface PositionalContext {
  arrayFilters?: Doc[];
  /** The update's query, for `$`. */
  filter?: Doc;
  collation?: Collation;
}

/**
 * The concrete paths (`items.0.price`, `items.2.price` …) that an update path with positional
 * operators names in `doc`.
 * `$` must have been replaced first ({@link withMatchedField}).
 * @throws CommandError BadValue when a positional operator meets a missing or non-array value or an
 * identifier has no array filter (MongoDB's errors).
 */
export function expandPositional(doc: Doc, path: string, context: PositionalContext): string[] {
  const parts = path.split('.');
  const out: string[] = [];
  const walk = (current: unknown, i: number, prefix: string[]): void => {
    if (i === parts.length) {
      out.push(prefix.join('.'));
      return;
    }
    const part = parts[i]!;
    if (!isPositionalPart(part)) {
      walk(childOf(current, part), i + 1, [...prefix, part]);
      return;
    }
    if (!Array.isArray(current)) {
      // MongoDB names the whole path when it is missing, and the element (its own name and value, as
      // BSONElement::toString prints them) when it is not an array, null included (UpdateArrayNode::apply).
      throw new CommandError(
        ErrorCodes.BadValue,
        current === undefined
          ? `The path '${prefix.join('.')}' must exist in the document in order to apply array updates.`
          : `Cannot apply array updates to non-array element ${elementText(prefix.at(-1) ?? '', current)}`,
      );
    }
    for (const index of matchingIndexes(prefix, current, part, context)) {
      walk(current[index], i + 1, [...prefix, String(index)]);
    }
  };
  walk(doc, 0, []);
  return out;
}

/**
 * What a path part names in `value` as MongoDB's update walks a document (update_object_node.cpp,
 * applyChild): a field of a document, an index of an array; nothing in any other value.
 */
function childOf(value: unknown, part: string): unknown {
  if (Array.isArray(value)) return /^\d+$/.test(part) ? value[Number(part)] : undefined;
  return isPlainObject(value) && Object.hasOwn(value, part) ? value[part] : undefined;
}

/**
 * `update` (an operator update) with the positional `$` of each path replaced by `matchedField`, the
 * position the update's query recorded (elem-match-key.ts). MongoDB's update applies `$` as that field
 * name whatever the path holds there (UpdateObjectNode::apply), so the path then behaves as any other:
 * `$set` of `b.$` creates `b.1` in a document and `$unset` of a missing one changes nothing.
 * @throws CommandError BadValue "did not find the match" when a path holds `$` and `matchedField` is
 * undefined, whatever the operator; ConflictingUpdateOperators (40) when the path it becomes is, leads or
 * follows another path of the update (UpdateNode::createUpdateNodeByMerging).
 */
export function withMatchedField(update: Doc, matchedField: string | undefined): Doc {
  const paths = Object.values(update).flatMap((fields) => (isPlainObject(fields) ? Object.keys(fields) : []));
  const out: Doc = {};
  for (const [op, fields] of Object.entries(update)) {
    if (!isPlainObject(fields)) {
      out[op] = fields;
      continue;
    }
    const concrete: Doc = {};
    for (const [path, value] of Object.entries(fields)) {
      if (!holdsMatchedField(path)) {
        concrete[path] = value;
        continue;
      }
      if (matchedField === undefined)
        throw new CommandError(
          ErrorCodes.BadValue,
          'The positional operator did not find the match needed from the query.',
        );
      const resolved = path
        .split('.')
        .map((part) => (part === '$' ? matchedField : part))
        .join('.');
      for (const other of paths) {
        if (other === path) continue;
        const shorter = other.length < resolved.length ? other : resolved;
        const longer = shorter === other ? resolved : other;
        if (longer === shorter || longer.startsWith(shorter + '.'))
          throw new CommandError(
            ErrorCodes.ConflictingUpdateOperators,
            `Update created a conflict at '${shorter}'`,
          );
      }
      concrete[resolved] = value;
    }
    out[op] = concrete;
  }
  return out;
}

function matchingIndexes(
  prefix: string[],
  array: unknown[],
  operator: string,
  context: PositionalContext,
): number[] {
  if (operator === '$[]') return array.map((_, i) => i);
  const identifier = operator.slice(2, -1);
  const spec = context.arrayFilters?.find((f) => arrayFilterName(f) === identifier);
  if (!spec)
    throw new CommandError(
      ErrorCodes.BadValue,
      `No array filter found for identifier '${identifier}' in path '${prefix.join('.')}.${operator}'`,
    );
  const query = compile(spec, context.collation);
  return array.flatMap((el, i) => (query.test({ [identifier]: el }) ? [i] : []));
}
