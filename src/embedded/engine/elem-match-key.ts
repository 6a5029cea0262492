/**
 * The array position a query records while it matches a document — MongoDB's `MatchDetails`
 * elemMatchKey — which the positional `$` stands for: in an update path (update_stage.cpp runs the
 * canonical query again on the document and hands the key to the update) and in a find projection
 * `a.$` (projection_executor_utils.cpp, applyFindPositionalProjection).
 *
 * MongoDB 7.0 records it in each condition on a path (src/mongo/db/matcher/expression_leaf.cpp,
 * expression_array.cpp): the first value the path reaches that the condition accepts sets the key to
 * the index of the outermost array the path went through, when it went through one; `$elemMatch` uses
 * the index of the element it matched when no array came before it. The conditions of an implicit or
 * explicit `$and` run in turn, each one overwriting the key, so the last one that records wins.
 * `$or` (of two or more clauses), `$nor` and `$not` (so also `$ne` and `$nin`) match their clauses
 * without recording anything (expression_tree.cpp). Before that, the query is optimized as 7.0 does: a
 * one-clause `$and`/`$or` is its clause, nested `$and` clauses move to the end of the list they join,
 * and an `$or` of equalities on one path is an `$in` on it. An update's canonical query is also sorted
 * (by kind of condition, then path: canonical_query.cpp's matchExpressionComparator); a find's
 * positional projection parses the query again and keeps its order (projection_parser.cpp).
 */
import type { Collation } from './collation.js';
import { compile } from './query.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';

/**
 * MongoDB 7.0's MatchExpression::MatchType order (src/mongo/db/matcher/expression.h) for the kinds a
 * filter can hold; only the order matters, for sorting.
 */
const KIND_ORDER = [
  '$and',
  '$or',
  'elemMatchObject',
  'elemMatchValue',
  '$size',
  '$eq',
  '$lte',
  '$lt',
  '$gt',
  '$gte',
  '$regex',
  '$mod',
  '$exists',
  '$in',
  '$bitsAllSet',
  '$bitsAllClear',
  '$bitsAnySet',
  '$bitsAnyClear',
  '$not',
  '$nor',
  '$type',
  '$geo',
  '$where',
  '$expr',
  '$alwaysFalse',
  '$alwaysTrue',
  '$text',
  '$jsonSchema',
];

/** Operators parsed as a negation (`$ne` is `$not: { $eq }`, `$nin` is `$not: { $in }`). */
const NEGATIONS = new Set(['$not', '$ne', '$nin']);

/** One node of the parsed query: its kind, its path ('' for pathless ones), and how it matches. */
interface Condition {
  kind: string;
  path: string;
  /** The operator document (or value) the path's values are tested with; absent: records nothing. */
  test?: Doc;
}

const rank = (kind: string): number => {
  const i = KIND_ORDER.indexOf(kind);
  return i < 0 ? KIND_ORDER.length : i;
};

/**
 * A child of an `$and` as the parser makes it: a condition, or a nested `$and` (the list of its own
 * conditions, already optimized).
 */
type Child = Condition | Condition[];

/** The children one field of the filter adds to the `$and` it stands in, in the parser's order. */
function fieldChildren(path: string, value: unknown, out: Child[]): void {
  const operators = isPlainObject(value) && Object.keys(value).every((k) => k.startsWith('$'));
  if (!operators || Object.keys(value).length === 0) {
    const regex = value instanceof RegExp;
    out.push({ kind: regex ? '$regex' : '$eq', path, test: regex ? { $regex: value } : { $eq: value } });
    return;
  }
  for (const [op, arg] of Object.entries(value)) {
    if (op === '$options') continue;
    if (NEGATIONS.has(op)) out.push({ kind: '$not', path });
    else if (op === '$all' && Array.isArray(arg)) {
      // `$all` is an `$and` of its values (an empty one matches nothing).
      const parts: Condition[] = arg.map((v: unknown) =>
        isPlainObject(v) && '$elemMatch' in v
          ? elemMatchCondition(path, v['$elemMatch'])
          : { kind: '$eq', path, test: { $eq: v } },
      );
      out.push(parts.length === 0 ? { kind: '$alwaysFalse', path } : parts);
    } else if (op === '$elemMatch') out.push(elemMatchCondition(path, arg));
    else if (op === '$geoWithin' || op === '$geoIntersects' || op === '$near' || op === '$nearSphere')
      out.push({ kind: '$geo', path });
    else out.push({ kind: op, path, test: { [op]: arg } });
  }
}

/**
 * An `$and`'s children optimized as ListOfMatchExpression's optimizer leaves them: a nested `$and` of
 * one condition is that condition, in place; the conditions of a longer one move to the end.
 */
function flattened(children: Child[]): Condition[] {
  const kept: Condition[] = [];
  const absorbed: Condition[] = [];
  for (const child of children) {
    if (!Array.isArray(child)) kept.push(child);
    else if (child.length === 1) kept.push(child[0]!);
    else absorbed.push(...child);
  }
  return [...kept, ...absorbed];
}

function elemMatchCondition(path: string, arg: unknown): Condition {
  const first = isPlainObject(arg) ? Object.keys(arg)[0] : undefined;
  const onValues = first !== undefined && first.startsWith('$') && !['$and', '$or', '$nor'].includes(first);
  return { kind: onValues ? 'elemMatchValue' : 'elemMatchObject', path, test: { $elemMatch: arg } };
}

/** The one path an `$or` clause is an equality on, for the `$or` to `$in` rewrite; else undefined. */
function equalityPath(clause: unknown): string | undefined {
  if (!isPlainObject(clause)) return undefined;
  const entries = Object.entries(clause);
  if (entries.length !== 1) return undefined;
  const [path, value] = entries[0]!;
  if (path.startsWith('$') || Array.isArray(value)) return undefined;
  if (isPlainObject(value) && Object.keys(value).some((k) => k.startsWith('$'))) {
    const keys = Object.keys(value);
    // An `$eq` of a regex compares it as a value, which an `$in` would not (7.0 leaves it out).
    const operand = value['$eq'];
    return keys.length === 1 && keys[0] === '$eq' && !Array.isArray(operand) && !(operand instanceof RegExp)
      ? path
      : undefined;
  }
  return path;
}

/** The conditions of a (prepared) filter, optimized as MongoDB 7.0's parser and optimizer leave them. */
function conditions(filter: Doc): Condition[] {
  const children: Child[] = [];
  for (const [key, value] of Object.entries(filter)) {
    // A one-clause `$or` is its clause, so it joins the `$and` as an `$and` clause does.
    if (key === '$and' || (key === '$or' && Array.isArray(value) && value.length === 1))
      children.push(flattened((value as unknown[]).map((c) => (isPlainObject(c) ? conditions(c) : []))));
    else if (key === '$or' && Array.isArray(value)) children.push(orCondition(value));
    else if (key === '$comment') continue;
    else if (key.startsWith('$')) children.push({ kind: key, path: '' });
    else fieldChildren(key, value, children);
  }
  return flattened(children);
}

/** An `$or` of two or more clauses: an `$in` when they are all equalities on one path, else no record. */
function orCondition(clauses: unknown[]): Condition {
  const paths = clauses.map(equalityPath);
  const path = paths[0];
  if (path === undefined || paths.some((p) => p !== path)) return { kind: '$or', path: '' };
  const values = clauses.map((c) => {
    const v = (c as Doc)[path];
    return isPlainObject(v) ? v['$eq'] : v;
  });
  return { kind: '$in', path, test: { $in: values } };
}

/** A value a path reaches, and the index of the outermost array it went through (if any). */
type Reached = [value: unknown, offset: string | undefined];

/**
 * The values `parts` reaches in `value`, in MongoDB's order (BSONElementIterator): through arrays on
 * the way (their documents' fields, or the element a numeric part names), then at the end of the path
 * each element of an array (when `expand`) before the array itself.
 */
function* reach(
  value: unknown,
  parts: string[],
  i: number,
  offset: string | undefined,
  expand: boolean,
): Generator<Reached> {
  if (i === parts.length) {
    if (Array.isArray(value) && expand)
      for (const [j, element] of value.entries()) yield [element, offset ?? String(j)];
    yield [value, offset];
    return;
  }
  const part = parts[i]!;
  if (Array.isArray(value)) {
    const index = /^\d+$/.test(part) ? Number(part) : -1;
    for (const [j, element] of value.entries()) {
      if (j === index) yield* reach(element, parts, i + 1, offset, expand);
      else if (isPlainObject(element)) yield* reach(element[part], parts, i + 1, offset ?? String(j), expand);
    }
    return;
  }
  if (isPlainObject(value)) yield* reach(value[part], parts, i + 1, offset, expand);
  else yield [undefined, offset];
}

/** The key one condition records on `doc`, or undefined. */
function conditionKey(condition: Condition, doc: Doc, collation: Collation | undefined): string | undefined {
  const test = condition.test;
  if (test === undefined) return undefined;
  const arrays = condition.kind === '$size' || condition.kind.startsWith('elemMatch');
  const query = compile({ v: test }, collation);
  for (const [value, offset] of reach(doc, condition.path.split('.'), 0, undefined, !arrays)) {
    if (condition.kind.startsWith('elemMatch')) {
      if (!Array.isArray(value)) continue;
      const j = value.findIndex((element) => query.test({ v: [element] }));
      if (j >= 0) return offset ?? String(j);
      continue;
    }
    // Each value is tested alone (matchesSingleElement): an array is wrapped so that mingo compares it
    // whole rather than looking into its elements, which come on their own first.
    const holder = value === undefined ? {} : { v: Array.isArray(value) && !arrays ? [value] : value };
    if (query.test(holder)) return offset;
  }
  return undefined;
}

/**
 * The elemMatchKey MongoDB 7.0 records when `filter` (prepared, see query.ts) matches `doc`: the index
 * (as a string) the positional `$` stands for, or undefined when no condition recorded one.
 * `sorted`: the query's conditions in canonical order (an update's), else in the filter's (a find
 * projection's).
 */
export function elemMatchKey(
  filter: Doc,
  doc: Doc,
  sorted: boolean,
  collation: Collation | undefined,
): string | undefined {
  const list = conditions(filter);
  if (sorted)
    list.sort((a, b) => rank(a.kind) - rank(b.kind) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  let key: string | undefined;
  for (const condition of list) key = conditionKey(condition, doc, collation) ?? key;
  return key;
}
