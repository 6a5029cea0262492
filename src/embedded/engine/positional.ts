/**
 * The positional operators: `field.$` (the first array element the query matched) in projections and
 * updates, and `$[]` / `$[identifier]` (every element / the elements `arrayFilters` match) in updates.
 * The engine resolves them itself where it computes updates (numbers.ts, arithmetic.ts); other update
 * operators leave them to mingo.
 */
import { bsonText } from './bson-text.js';
import type { Collation } from './collation.js';
import { compile, prepareFilter, splitText } from './query.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/**
 * The filter's conditions on one array field, to find the element `field.$` names.
 * @throws CommandError BadValue when the filter has no condition on the field.
 */
export function positionalQuery(
  filter: unknown,
  field: string,
  collation: Collation | undefined,
): ReturnType<typeof compile> {
  const prepared = splitText(prepareFilter(filter)).rest;
  const sub: Doc = {};
  for (const [k, v] of Object.entries(prepared)) if (k === field || k.startsWith(field + '.')) sub[k] = v;
  if (Object.keys(sub).length === 0)
    throw new CommandError(
      ErrorCodes.BadValue,
      `Executor error during find command :: caused by :: positional operator '${field}.$' requires corresponding field in query specifier`,
    );
  return compile(sub, collation);
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
      const at = prefix.join('.');
      throw new CommandError(
        ErrorCodes.BadValue,
        current === undefined || current === null
          ? `The path '${at}' must exist in the document in order to apply array updates.`
          : `Cannot apply array updates to non-array element ${at}: ${JSON.stringify(current)}`,
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
    const field = prefix.join('.');
    const query = positionalQuery(context.filter ?? {}, field, context.collation);
    const index = array.findIndex((el) => query.test(withValue(doc, prefix, [el]) as Doc));
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
