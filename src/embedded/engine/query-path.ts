/**
 * The values a filter path reaches in a document, as MongoDB's matcher walks it (ElementPath and
 * BSONElementIterator, src/mongo/db/matcher/path.cpp, with getFieldDottedOrArray in path_internal.cpp):
 *
 * - the path goes down through embedded documents; a scalar before its last part, or a missing field,
 *   reaches one "missing" value (`undefined` here);
 * - an array met before the last part is stepped through once: each element that is a document is
 *   walked with the rest of the path, and when the next part is a number (`'a.0.b'`) the element at that
 *   index is walked with the part after it as well; elements that are arrays are never entered by a field
 *   name (`{ a: [[{ b: 1 }]] }` has no `'a.b'`) and scalars reach nothing;
 * - an array at the end of the path reaches each of its elements (nested arrays whole) and then itself,
 *   unless the operator reads the array whole (`$size`, `$elemMatch`: LeafArrayBehavior::kNoTraversal).
 *
 * mingo's `resolve` differs: it hands back an array nested in an array where the path names a field, so
 * `{ a: [[1, 2], 3] }` matched `{ 'a.b': 2 }`. Aggregation paths (`'$a.b'`, which do enter nested
 * arrays) and update paths keep their own rules.
 */

/**
 * The selector of the value a filter tests itself, whole: an `$elemMatch` operator list runs on each
 * element (ElemMatchValueMatchExpression's `matchesSingleElement`) and a `$pull` value compares with
 * each element whole (PullNode's EqualityMatcher). It starts with a lone surrogate, which no decoded
 * BSON name holds (as proto-alias.ts's alias), so it names no stored field.
 */
export const WHOLE_VALUE = '\ud800value';

/** A dotted filter path split once, when the filter is compiled. */
export interface FilterPath {
  /** The path's parts; empty for {@link WHOLE_VALUE}. */
  readonly parts: readonly string[];
  /** Each part's array index when it is one as MongoDB spells it (`'0'`, `'12'`, not `'01'`), else -1. */
  readonly indexes: readonly number[];
  /** True for {@link WHOLE_VALUE}. */
  readonly whole: boolean;
}

const WHOLE: FilterPath = { parts: [], indexes: [], whole: true };

/** Splits `selector` for {@link someValue}. */
export function filterPath(selector: string): FilterPath {
  if (selector === WHOLE_VALUE) return WHOLE;
  const parts = selector.split('.');
  const indexes = parts.map((part) => (/^(0|[1-9]\d*)$/.test(part) ? Number(part) : -1));
  return { parts, indexes, whole: false };
}

/** A test of one value a path reaches; `undefined` is a missing value. */
export type ValueTest = (value: unknown) => boolean;

/** True for the embedded documents a path goes through (not arrays, dates or other BSON values). */
function isDocument(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * The field `name` of `container`: an array's element when `name` is its index as BSON writes it (an
 * `$elemMatch` query runs on an array element that is an array as on a document with fields "0", "1" …).
 * Inherited properties (`constructor`, `toString`) are no fields.
 */
function field(container: object, name: string, index: number): unknown {
  if (Array.isArray(container)) return index >= 0 ? (container[index] as unknown) : undefined;
  const value = (container as Record<string, unknown>)[name];
  return typeof value === 'function' ? undefined : value;
}

/**
 * True when `test` holds for one of the values `path` reaches in `doc`, as MongoDB's matcher would try
 * them (see the file comment); with `wholeArrays`, an array at the end of the path is one value, not
 * its elements and itself. Stops at the first value that passes; allocates nothing.
 */
export function someValue(doc: unknown, path: FilterPath, test: ValueTest, wholeArrays = false): boolean {
  if (path.whole) return test(doc);
  if (doc === null || typeof doc !== 'object') return test(undefined);
  return fromDocument(doc, path, 0, test, wholeArrays);
}

/** The values from part `i` on in `doc` (getFieldDottedOrArray, then the array it stops at). */
function fromDocument(doc: object, path: FilterPath, i: number, test: ValueTest, whole: boolean): boolean {
  const { parts, indexes } = path;
  let current: object = doc;
  for (; ; i++) {
    const value = field(current, parts[i]!, indexes[i]!);
    if (Array.isArray(value)) return fromArray(value, path, i + 1, test, whole);
    if (i === parts.length - 1) return test(value);
    if (!isDocument(value)) return test(undefined);
    current = value;
  }
}

/** The values from part `i` on in `array`, the array a path reached at part `i - 1`. */
function fromArray(array: unknown[], path: FilterPath, i: number, test: ValueTest, whole: boolean): boolean {
  const { parts, indexes } = path;
  if (i === parts.length) {
    if (whole) return test(array);
    for (const element of array) if (test(element)) return true;
    return test(array);
  }
  const index = indexes[i]!;
  const last = i === parts.length - 1;
  for (let k = 0; k < array.length; k++) {
    const element: unknown = array[k];
    const document = isDocument(element);
    if (document && fromDocument(element, path, i, test, whole)) return true;
    if (k !== index) continue;
    // A numeric part is also the element's index.
    if (last) {
      if (test(element)) return true;
    } else if (document) {
      if (fromDocument(element, path, i + 1, test, whole)) return true;
    } else if (Array.isArray(element) && fromArray(element, path, i + 1, test, whole)) return true;
  }
  return false;
}
