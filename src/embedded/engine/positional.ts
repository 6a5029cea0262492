/**
 * The positional operators: `field.$` (the first array element the query matched) in projections and
 * updates, and `$[]` / `$[identifier]` (every element / the elements `arrayFilters` match) in updates.
 * The engine resolves them itself where it computes updates (numbers.ts, arithmetic.ts); other update
 * operators leave them to mingo.
 */
import { bsonText, elementText } from './bson-text.js';
import type { Collation } from './collation.js';
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
 * The filter's conditions on one array field, to find the element `field.$` names. MongoDB parses the
 * projection with the query, so this check comes before any document is read.
 * @throws CommandError 31277 when no condition of the filter is on the field's first part.
 */
export function positionalQuery(
  filter: unknown,
  field: string,
  collation: Collation | undefined,
): ReturnType<typeof compile> {
  const prepared = splitText(prepareFilter(filter)).rest;
  if (!namesField(prepared, field.split('.')[0]!))
    throw new CommandError(31277, `Positional projection '${field}.$' does not match the query document.`);
  const sub: Doc = {};
  for (const [k, v] of Object.entries(prepared)) if (k === field || k.startsWith(field + '.')) sub[k] = v;
  // Conditions only inside `$and`/`$or`/`$nor`: the element is the first one the whole filter accepts.
  return compile(Object.keys(sub).length > 0 ? sub : prepared, collation);
}

/**
 * The array field a find projection's positional key projects (`arr` for `arr.$`), or undefined.
 */
export function positionalField(projection: Doc | undefined): string | undefined {
  const key = Object.keys(projection ?? {}).find((k) => k.endsWith('.$'));
  return key?.slice(0, -2);
}

/**
 * The one-element array `field.$` projects from `arr`: the first element for which `query` (from
 * {@link positionalQuery}) accepts the document holding it alone.
 * @throws CommandError 51246 when no element is accepted (MongoDB 7.0's
 * applyFindPositionalProjection, projection_executor_utils.cpp, when the match recorded no position).
 */
export function positionalElement(
  doc: Doc,
  field: string,
  arr: unknown[],
  query: ReturnType<typeof compile>,
): unknown[] {
  const i = arr.findIndex((el: unknown) => query.test({ ...doc, [field]: [el] }));
  if (i < 0)
    throw new CommandError(51246, "positional operator '.$' couldn't find a matching element in the array");
  return [arr[i]];
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
 * Whether one part of an update path is a positional operator: `$`, `$[]` or `$[identifier]`. Other
 * parts that start with `$` (`a.$x`) are field names, which MongoDB 5.0+ allows below the top level.
 */
export function isPositionalPart(part: string): boolean {
  return part === '$' || (part.startsWith('$[') && part.endsWith(']'));
}

/** Whether an update path holds a positional operator (see {@link isPositionalPart}). */
export function hasPositional(path: string): boolean {
  return path.split('.').some(isPositionalPart);
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
 * @throws CommandError BadValue when a positional operator meets a missing or non-array value, `$` finds
 * no matching element or an identifier has no array filter (MongoDB's errors).
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
      const next = current !== null && typeof current === 'object' ? (current as Doc)[part] : undefined;
      walk(next, i + 1, [...prefix, part]);
      return;
    }
    if (!Array.isArray(current)) {
      // MongoDB names the whole path when it is missing, and the element (its own name and value, as
      // BSONElement::toString prints them) when it is not an array (UpdateArrayNode::apply).
      throw new CommandError(
        ErrorCodes.BadValue,
        current === undefined || current === null
          ? `The path '${prefix.join('.')}' must exist in the document in order to apply array updates.`
          : `Cannot apply array updates to non-array element ${elementText(prefix.at(-1) ?? '', current)}`,
      );
    }
    for (const index of matchingIndexes(doc, prefix, current, part, context)) {
      walk(current[index], i + 1, [...prefix, String(index)]);
    }
  };
  walk(doc, 0, []);
  return out;
}

function matchingIndexes(
  doc: Doc,
  prefix: string[],
  array: unknown[],
  operator: string,
  context: PositionalContext,
): number[] {
  if (operator === '$[]') return array.map((_, i) => i);
  if (operator === '$') {
    // An update whose query says nothing of the array finds no match (MongoDB's manual, "$ (update)":
    // the server "raises ... The positional operator did not find the match needed from the query"),
    // where a find's positional projection is refused with 31277 (positionalQuery).
    const filter = context.filter ?? {};
    const query = namesField(splitText(prepareFilter(filter)).rest, prefix[0]!)
      ? positionalQuery(filter, prefix.join('.'), context.collation)
      : undefined;
    const index =
      query === undefined ? -1 : array.findIndex((el) => query.test(withValue(doc, prefix, [el]) as Doc));
    if (index < 0)
      throw new CommandError(
        ErrorCodes.BadValue,
        'The positional operator did not find the match needed from the query.',
      );
    return [index];
  }
  const identifier = operator.slice(2, -1);
  const spec = context.arrayFilters?.find((f) =>
    Object.keys(f).some((k) => k === identifier || k.startsWith(identifier + '.')),
  );
  if (!spec)
    throw new CommandError(
      ErrorCodes.BadValue,
      `No array filter found for identifier '${identifier}' in path '${prefix.join('.')}.${operator}'`,
    );
  const query = compile(spec, context.collation);
  return array.flatMap((el, i) => (query.test({ [identifier]: el }) ? [i] : []));
}

/**
 * MongoDB refuses `arrayFilters` whose identifier no `$[identifier]` of the update uses, before it looks
 * for documents. @throws CommandError FailedToParse (9).
 */
export function checkArrayFilters(update: unknown, arrayFilters: Doc[] | undefined): void {
  if (!arrayFilters || arrayFilters.length === 0 || !isPlainObject(update)) return;
  const used = new Set<string>();
  for (const fields of Object.values(update)) {
    if (!isPlainObject(fields)) continue;
    for (const path of Object.keys(fields)) {
      for (const match of path.matchAll(/\$\[([^\]]+)\]/g)) used.add(match[1]!);
    }
  }
  for (const filter of arrayFilters) {
    const identifier = Object.keys(filter)[0]?.split('.')[0];
    if (identifier !== undefined && !used.has(identifier)) {
      throw new CommandError(
        ErrorCodes.FailedToParse,
        // update_driver.cpp prints the update as a BSONObj (bsonText), not as JSON.
        `The array filter for identifier '${identifier}' was not used in the update ${bsonText(update)}`,
      );
    }
  }
}
