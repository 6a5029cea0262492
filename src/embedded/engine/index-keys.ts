/**
 * The keys a regular (ascending/descending) index holds for a document, as MongoDB 7.0's
 * BtreeKeyGenerator makes them (src/mongo/db/index/btree_key_generator.cpp):
 *
 * - each key path goes down through embedded documents and stops at the first array it meets; a key
 *   path that reaches nothing is null;
 * - all key paths meeting an array at one level must meet the same one, which is expanded element by
 *   element (a compound index on `'a.b'` and `'a.c'` pairs each element's `b` with its `c`); two different
 *   arrays are "cannot index parallel arrays [b] [a]" (171);
 * - a key path ending at the array takes each element (an array nested in it whole); an empty array is
 *   BSON undefined at the end of a path and null before it;
 * - a numeric part right after an array picks the element at that position when there is one (`'a.0'`
 *   of `{ a: [1] }` is 1, as of `{ a: { 0: 1 } }`), and then an array element that is a document with
 *   that numeric field is ambiguous (16746); when the picked element is itself an array and the path ends
 *   there, it is one key, whole (`'a.0'` of `{ a: [[1]] }` is `[1]`);
 * - any other part goes into the documents among the array's elements, not into nested arrays.
 *
 * So a single key path's keys hold every scalar a filter's path reaches (query-path.ts): the matcher
 * too takes an element picked by a numeric part whole, and reads a numeric field of an array's
 * documents only where the key generator refuses the document (16746) or reads it too.
 */
import { bsonText } from './bson-text.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** One key: a value per key path (null when missing, `undefined` for BSON undefined), in key order. */
export interface IndexKey {
  /** The key as `keyString` writes it. */
  readonly key: string;
  readonly values: unknown[];
}

/** Where one key path stands during the walk. */
interface PathState {
  /** The next part to read; the path's length once its value is fixed. */
  at: number;
  /** The value found, once `at` is the path's length. */
  value: unknown;
  /** True when the path reached nothing (its value is then null). */
  missing?: boolean;
}

/** The element a numeric part picked in the array being expanded, and where its path continues. */
interface Picked {
  /** The picked element (for the nested-array rule). */
  element: unknown;
  /** The value the path reaches from it (`undefined` with `found` false for none). */
  reached: Reached;
  /** The array it was picked from, for the ambiguity message. */
  array: unknown[];
}

interface Reached {
  found: boolean;
  value: unknown;
  /** The part after the value. */
  next: number;
  /** The field name of the value (an array's index when it is an element). */
  name: string;
}

const NOTHING: Reached = { found: false, value: undefined, next: 0, name: '' };

/**
 * Goes down `parts` from `at` through embedded documents of `container` (an array counts as a document
 * with fields "0", "1" …), stopping at an array or at the end (dotted_path_support's
 * extractElementAtPathOrArrayAlongPath).
 */
function alongPath(container: object, parts: readonly string[], at: number): Reached {
  const name = parts[at]!;
  let value: unknown;
  if (Array.isArray(container)) {
    if (!/^(0|[1-9]\d*)$/.test(name) || Number(name) >= container.length) return NOTHING;
    value = container[Number(name)];
  } else {
    if (!Object.hasOwn(container, name)) return NOTHING;
    value = (container as Doc)[name];
  }
  if (Array.isArray(value) || at + 1 === parts.length) return { found: true, value, next: at + 1, name };
  if (isPlainObject(value)) return alongPath(value, parts, at + 1);
  return NOTHING;
}

/** An array as the 16746 message prints it: as a document, its middle cut out past 1023 characters. */
function arrayText(array: unknown[]): string {
  const text = bsonText(Object.fromEntries(array.map((v, k) => [String(k), v])));
  if (text.length < 1024) return text;
  return `${text.slice(0, 341)} .......... ${text.slice(text.length - 341)}`;
}

/**
 * The keys of `doc` for an index on `paths` (dotted key paths), without repeats by `keyString`. A
 * `sparse` index leaves out each key whose paths all reached nothing (an empty array is something).
 * @throws CommandError CannotIndexParallelArrays (171), or 16746 for an ambiguous numeric field.
 */
export function indexKeys(
  doc: Doc,
  paths: readonly string[],
  keyString: (values: unknown[]) => string,
  sparse = false,
): IndexKey[] {
  const split = paths.map((path) => path.split('.'));
  const states = split.map((): PathState => ({ at: 0, value: null }));
  const out = new Map<string, IndexKey>();
  expand(doc, split, states, [], (reached) => {
    if (sparse && reached.every((s) => s.missing)) return;
    const values = reached.map((s) => s.value);
    const key = keyString(values);
    if (!out.has(key)) out.set(key, { key, values });
  });
  return [...out.values()];
}

/**
 * The key of `doc` for a hashed index on `paths` (dotted key paths, hashed or not), as MongoDB 7.0's
 * ExpressionKeysPrivate::getHashKeys makes it (src/mongo/db/index/expression_keys_private.cpp): one
 * key, each path going down through embedded documents only (dotted_path_support's
 * extractElementAtPathOrArrayAlongPath), a path that reaches nothing null. An array anywhere on a path
 * cannot be hashed. A `sparse` index has no key when every path reaches nothing. The key's values are
 * the document's; `keyString` hashes the hashed path's (Index.keyPart).
 * @throws CommandError 16766 "Error: hashed indexes do not currently support array values. Found array
 *   at path: <the path up to that array>".
 */
export function hashedIndexKeys(
  doc: Doc,
  paths: readonly string[],
  keyString: (values: unknown[]) => string,
  sparse = false,
): IndexKey[] {
  let found = false;
  const values = paths.map((path) => {
    const parts = path.split('.');
    const reached = alongPath(doc, parts, 0);
    if (Array.isArray(reached.value)) {
      throw new CommandError(
        16766,
        `Error: hashed indexes do not currently support array values. Found array at path: ${parts.slice(0, reached.next).join('.')}`,
      );
    }
    found ||= reached.found;
    return reached.found ? reached.value : null;
  });
  if (sparse && !found) return [];
  return [{ key: keyString(values), values }];
}

/** Reads each unfinished path in `obj` and expands the one array they meet (see the file comment). */
function expand(
  obj: Doc | undefined,
  split: readonly string[][],
  states: PathState[],
  picked: (Picked | undefined)[],
  emit: (states: readonly PathState[]) => void,
): void {
  let array: unknown[] | undefined;
  let arrayName = '';
  const through: number[] = [];
  let expandsElements = true;
  for (let i = 0; i < states.length; i++) {
    const state = states[i]!;
    const parts = split[i]!;
    if (state.at === parts.length) continue;
    const pick = picked[i];
    const own = obj !== undefined && Object.hasOwn(obj, parts[state.at]!);
    if (own && pick) {
      const name = parts[state.at]!;
      throw new CommandError(
        16746,
        `Ambiguous field name found in array (do not use numeric field names in embedded elements in an array), field: '${name}' for array: ${arrayText(pick.array)}`,
      );
    }
    const reached = own ? alongPath(obj, parts, state.at) : pick ? pick.reached : NOTHING;
    if (!reached.found) {
      states[i] = { at: parts.length, value: null, missing: true };
    } else if (Array.isArray(reached.value)) {
      if (array === undefined) {
        array = reached.value;
        arrayName = reached.name;
      } else if (reached.value !== array) {
        throw new CommandError(
          ErrorCodes.CannotIndexParallelArrays,
          `cannot index parallel arrays [${reached.name}] [${arrayName}]`,
        );
      }
      through.push(i);
      states[i] = { at: reached.next, value: null };
      if (!own && Array.isArray(pick!.element)) expandsElements = false;
    } else {
      states[i] = { at: parts.length, value: reached.value };
    }
  }
  if (array === undefined) {
    emit(states);
    return;
  }
  const atEnd = (i: number): boolean => states[i]!.at === split[i]!.length;
  if (array.length === 0) {
    const next = states.map((s, i) => (through.includes(i) && atEnd(i) ? { ...s, value: undefined } : s));
    expand(undefined, split, next, [], emit);
    return;
  }
  const subPicked = split.map((parts, i) => {
    if (!through.includes(i) || atEnd(i)) return undefined;
    const name = parts[states[i]!.at]!;
    if (!/^(0|[1-9]\d*)$/.test(name) || Number(name) >= array.length) return undefined;
    return { element: array[Number(name)], reached: alongPath(array, parts, states[i]!.at), array };
  });
  for (const element of array) {
    const next = states.map((s, i) => {
      if (!through.includes(i) || !atEnd(i)) return { ...s };
      return { ...s, value: expandsElements ? element : array };
    });
    expand(isPlainObject(element) ? element : undefined, split, next, subPicked, emit);
  }
}
