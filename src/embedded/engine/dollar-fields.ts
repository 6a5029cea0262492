/**
 * Top-level `$`-prefixed field names in operator updates, as MongoDB 5.0+ treats them. An update may
 * not create or change a top-level field whose name starts with `$` (storage_validation.cpp checks only
 * the top level, and only the element an update creates or changes: `{$set: {$x: 1}}` fails with
 * DollarPrefixedFieldName, 52), while nested names are fine (`{$set: {'a.$x': 1}}`, and `{$set:
 * {'$x.y': 1}}` when `$x` exists) and an upsert's new document may hold them (it is validated as an
 * insert, upsert_stage.cpp: allowTopLevelDollarPrefixes). DBRef fields (`$ref`, `$id`, `$db`) are
 * judged by their neighbours (InvalidDBRef, 55). mingo refuses every path whose first part starts with
 * `$`, so such fields are renamed while mingo runs and checked once it is done.
 */
import { bsonTypeName, isPlainObject, keyOf } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** InvalidDBRef (55): not in the shared code table, so its name is set here. */
class InvalidDBRef extends CommandError {
  override readonly codeName = 'InvalidDBRef';
}

/** What a top-level `$` name is called while mingo runs (no field name can start with NUL in BSON). */
const hidden = (name: string): string => `\u0000${name}`;

/**
 * The paths an operator update (`{ $op: { path: value } }`) names: every field path, and `$rename`'s
 * destinations. Throws nothing.
 */
export function updatePaths(update: Doc): string[] {
  const paths: string[] = [];
  for (const [op, fields] of Object.entries(update)) {
    if (!isPlainObject(fields)) continue;
    for (const [path, value] of Object.entries(fields)) {
      paths.push(path);
      if (op === '$rename' && typeof value === 'string') paths.push(value);
    }
  }
  return paths;
}

const firstPart = (path: string): string => path.split('.', 1)[0]!;

/** `doc` with its top-level keys renamed by `rename` (same order; values shared, not copied). */
function renameKeys(doc: Doc, rename: (key: string) => string): Doc {
  const out: Doc = {};
  for (const [key, value] of Object.entries(doc)) out[rename(key)] = value;
  return out;
}

/**
 * Renames, for mingo, the top-level `$`-prefixed fields a modifier names: in the document and in the
 * modifier's paths (and `$rename` destinations).
 * @param doc the working copy of the document (mingo will change the returned one)
 * @param modifier the operator update handed to mingo
 * @returns the renamed document and modifier, and `restore`, which gives a document mingo changed its
 * `$` names back.
 */
export function hideDollarFields(
  doc: Doc,
  modifier: Doc,
): { doc: Doc; modifier: Doc; restore: (changed: Doc) => Doc } {
  const names = new Set(
    updatePaths(modifier)
      .map(firstPart)
      .filter((name) => name.startsWith('$')),
  );
  if (names.size === 0) return { doc, modifier, restore: (changed) => changed };
  const hidePath = (path: string): string => {
    const first = firstPart(path);
    return names.has(first) ? hidden(first) + path.slice(first.length) : path;
  };
  const renamed: Doc = {};
  for (const [op, fields] of Object.entries(modifier)) {
    const out: Doc = {};
    for (const [path, value] of Object.entries(fields as Doc)) {
      out[hidePath(path)] = op === '$rename' && typeof value === 'string' ? hidePath(value) : value;
    }
    renamed[op] = out;
  }
  const back = new Map([...names].map((name) => [hidden(name), name]));
  return {
    doc: renameKeys(doc, (key) => (names.has(key) ? hidden(key) : key)),
    modifier: renamed,
    restore: (changed) => renameKeys(changed, (key) => back.get(key) ?? key),
  };
}

/** The same BSON value and type (MongoDB's updates are no-ops only for a binary-equal value). */
const sameValue = (a: unknown, b: unknown): boolean =>
  keyOf(a) === keyOf(b) && bsonTypeName(a) === bsonTypeName(b);

/**
 * `validateDollarPrefixElement` (storage_validation.cpp) on the top-level field `name` of `doc`: a
 * DBRef's `$ref` (a string, followed by `$id`), `$id` (after `$ref`) and `$db` (a string, after `$id`)
 * pass; any other `$` name is refused.
 * @throws CommandError InvalidDBRef (55) or DollarPrefixedFieldName (52).
 */
function validateDollarField(doc: Doc, name: string): void {
  const names = Object.keys(doc);
  let at = names.indexOf(name);
  let current = name;
  const dbRef = (message: string): never => {
    throw new InvalidDBRef(55, message);
  };
  if (current === '$db') {
    if (typeof doc[current] !== 'string')
      dbRef(`The DBRef $db field must be a String, not a ${bsonTypeName(doc[current])}`);
    at--;
    if (names[at] !== '$id') dbRef('Found $db field without a $id before it, which is invalid.');
    current = '$id';
  }
  if (current === '$id') {
    at--;
    if (names[at] !== '$ref') dbRef('Found $id field without a $ref before it, which is invalid.');
    current = '$ref';
  }
  if (current === '$ref') {
    if (typeof doc[current] !== 'string')
      dbRef(`The DBRef $ref field must be a String, not a ${bsonTypeName(doc[current])}`);
    if (names[at + 1] !== '$id') dbRef('The DBRef $ref field must be followed by a $id field');
    return;
  }
  throw new CommandError(
    ErrorCodes.DollarPrefixedFieldName,
    `The dollar ($) prefixed field '${name}' in '${name}' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith.`,
  );
}

/**
 * MongoDB's check, after an operator update of a stored document, of the top-level `$`-prefixed fields
 * the update names: one it created (`{$set: {$x: 1}}`, `{$set: {'$x.y': 1}}` without `$x`, a `$rename`
 * to `$x`) or changed as a whole (`{$inc: {$x: 1}}`) is refused; removing one, a no-op and changes
 * inside an existing one are allowed. Not for upserts, whose document is checked as an insert.
 * @param before the stored document
 * @param after the document the update produced
 * @param update the operator update
 * @throws CommandError DollarPrefixedFieldName (52) or InvalidDBRef (55).
 */
export function checkDollarFields(before: Doc, after: Doc, update: Doc): void {
  for (const path of updatePaths(update)) {
    const name = firstPart(path);
    if (!name.startsWith('$')) continue;
    const old = before[name];
    const now = after[name];
    if (now === undefined) continue;
    if (old === undefined || (path === name && !sameValue(old, now))) validateDollarField(after, name);
  }
}
