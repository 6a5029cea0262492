/**
 * The order of the fields an update operator creates. MongoDB (5.0 and later) applies an update's paths
 * as one tree whose children are sorted by field name, whatever the order of the operators and of
 * their fields in the update document (update_object_node.h: `_children` is a map ordered by
 * `pathsupport::cmpPathsAndArrayIndexes`; the manual's "Update Operators" page: "update operators
 * process document fields with string-based names in lexicographic order. Fields with numeric names
 * are processed in numeric order"). A field the update creates is appended to its document, so
 * `{ $set: { z: 1, k: 1 } }` on `{ _id: 0 }` stores `{ _id: 0, k: 1, z: 1 }`; fields already there stay
 * where they were. mingo applies the paths in the update's order, so the created fields are put in
 * MongoDB's order afterwards.
 */
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';

/** The components of an update's paths, as a tree. */
type PathTree = Map<string, PathTree>;

function pathTree(paths: Iterable<string>): PathTree {
  const root: PathTree = new Map();
  for (const path of paths) {
    let node = root;
    for (const part of path.split('.')) {
      let child = node.get(part);
      if (!child) node.set(part, (child = new Map<string, PathTree>()));
      node = child;
    }
  }
  return root;
}

/** Whether `name` is read as a number: a digit first and no leading zero (cmpPathsAndArrayIndexes). */
const numeric = (name: string): boolean => /^[0-9]/.test(name) && !(name.length > 1 && name[0] === '0');

/** UTF-8 byte order, which is code point order (JavaScript's `<` compares UTF-16 code units). */
function byCodePoint(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const diff = left[i]!.codePointAt(0)! - right[i]!.codePointAt(0)!;
    if (diff !== 0) return diff;
  }
  return left.length - right.length;
}

/**
 * MongoDB's order of two field names in an update's path tree: names read as numbers by length (so
 * numerically), then everything by bytes. Throws nothing.
 */
export function compareFieldNames(a: string, b: string): number {
  if (numeric(a) && numeric(b) && a.length !== b.length) return a.length - b.length;
  return byCodePoint(a, b);
}

/** Rewrites `after`'s fields: those `before` had, in its order, then the created ones, sorted. */
function reorder(before: unknown, after: Doc): void {
  const keys = Object.keys(after);
  const had = isPlainObject(before) ? Object.keys(before) : [];
  const hadSet = new Set(had);
  const wanted = [
    ...had.filter((key) => Object.hasOwn(after, key)),
    ...keys.filter((key) => !hadSet.has(key)).sort(compareFieldNames),
  ];
  if (wanted.every((key, i) => keys[i] === key)) return;
  const values = wanted.map((key) => after[key]);
  for (const key of keys) delete after[key];
  // defineProperty, so that a field named __proto__ stays a field.
  wanted.forEach((key, i) =>
    Object.defineProperty(after, key, {
      value: values[i],
      enumerable: true,
      writable: true,
      configurable: true,
    }),
  );
}

function walk(before: unknown, after: unknown, tree: PathTree): void {
  if (tree.size === 0) return;
  if (Array.isArray(after)) {
    const old = Array.isArray(before) ? before : [];
    for (const [part, child] of tree) {
      if (part.startsWith('$[')) after.forEach((element, i) => walk(old[i], element, child));
      else if (/^[0-9]+$/.test(part)) walk(old[Number(part)], after[Number(part)], child);
    }
    return;
  }
  if (!isPlainObject(after)) return;
  reorder(before, after);
  const old = isPlainObject(before) ? before : undefined;
  for (const [part, child] of tree)
    if (Object.hasOwn(after, part))
      walk(old && Object.hasOwn(old, part) ? old[part] : undefined, after[part], child);
}

/**
 * Puts the fields that an operator update created in `after` (the updated copy of `before`) in
 * MongoDB's order, in place: at every document on the way of one of `paths` (the update's paths, `$`
 * resolved, `$[]` and `$[id]` standing for every element, a `$rename`'s destinations included), the
 * fields `before` had keep their order and the created ones follow, sorted by {@link compareFieldNames}.
 * The values the update wrote are left as they are. Throws nothing.
 */
export function orderCreatedFields(before: Doc, after: Doc, paths: Iterable<string>): void {
  walk(before, after, pathTree(paths));
}
