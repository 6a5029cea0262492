/**
 * Computed fields at dotted paths, set as MongoDB sets them in `$addFields`/`$set` and in `$project`
 * (ProjectionNode::applyExpressions and applyExpressionsToValue, src/mongo/db/exec/projection_node.cpp).
 * A spec is parsed into a tree of path components; walking it over a document, a document gets the rest
 * of the path set in it, an array gets it set in each of its elements (nested arrays too), and anything
 * else (a scalar, null, a missing field) is replaced by a new document holding only the computed fields.
 * Every component is a field name, so `a.0` names a field `0`, never an array index. mingo reads a number
 * as an index (padding the array with nulls) and leaves array elements alone for other names.
 */
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';

/**
 * One field of a tree: an expression to evaluate, the fields to set inside the value at that name, or
 * (in `$project` only) a field the projection includes as it is.
 */
export type FieldNode = { expression: unknown } | { children: FieldTree } | { include: true };

/**
 * The fields under one path, by field name, in the order the spec first names them (MongoDB's
 * `_orderToProcessAdditionsAndChildren`): new fields are appended to a document in that order.
 */
export type FieldTree = Map<string, FieldNode>;

/** The subtree for `name` in `tree`, created (and appended) when the spec has not named it yet. */
function childTree(tree: FieldTree, name: string): FieldTree {
  const node = tree.get(name);
  if (node && 'children' in node) return node.children;
  const children: FieldTree = new Map();
  tree.set(name, { children });
  return children;
}

/** Puts `node` at the dotted `path` below `tree`, creating the subtrees on the way. */
export function addAtPath(tree: FieldTree, path: string, node: FieldNode): void {
  const parts = path.split('.');
  const last = parts.pop()!;
  let parent = tree;
  for (const part of parts) parent = childTree(parent, part);
  parent.set(last, node);
}

/** True when `tree` computes a field somewhere below it (MongoDB's `_subtreeContainsComputedFields`). */
function computes(tree: FieldTree): boolean {
  for (const node of tree.values()) {
    if ('expression' in node || ('children' in node && computes(node.children))) return true;
  }
  return false;
}

/**
 * `target` (not changed) with the computed fields of `tree` set in it, expressions evaluated against
 * `root` (applyExpressions). Included fields are left as they are.
 */
export function setComputedFields(tree: FieldTree, root: Doc, target: Doc, options: Options): Doc {
  const out: Doc = { ...target };
  for (const [name, node] of tree) {
    if ('include' in node) continue;
    const value =
      'expression' in node
        ? evalExpr(root, node.expression, options)
        : setInValue(node.children, root, out[name], options);
    // A missing result ($$REMOVE, a missing field path) leaves the field out, as MongoDB's
    // MutableDocument does when a field is set to a missing Value.
    if (value === undefined) delete out[name];
    else out[name] = value;
  }
  return out;
}

/**
 * `value` with the computed fields of `tree` set in it (applyExpressionsToValue): in a document; in each
 * element of an array, arrays nested in it too, each element evaluating the expressions again as MongoDB
 * does; in place of anything else, which becomes a document of the computed fields alone, or is missing
 * (undefined) when `tree` only includes fields, as a `$project` drops a scalar it cannot descend into.
 * Missing elements are left out of arrays, as BSON serialization leaves them out in MongoDB.
 */
function setInValue(tree: FieldTree, root: Doc, value: unknown, options: Options): unknown {
  if (Array.isArray(value)) {
    return value
      .map((element) => setInValue(tree, root, element, options))
      .filter((element) => element !== undefined);
  }
  if (isPlainObject(value)) return setComputedFields(tree, root, value, options);
  return computes(tree) ? setComputedFields(tree, root, {}, options) : undefined;
}
