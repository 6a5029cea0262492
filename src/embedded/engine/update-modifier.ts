/**
 * The per-document half of an operator update: checks each operator against the stored document (the
 * immutable `_id`, paths that cannot be created, arrays padded too far (array-padding.ts), `$inc` on a
 * string, `$push` on a non-array …), has the engine compute the values mingo would get wrong
 * (update-compute.ts, positional paths resolved here), and returns the modifier left for mingo. Separate from update-parse.ts, whose checks come before any
 * document is read, and from update.ts, which picks the kind of update and runs mingo.
 */
import { checkArrayPadding } from './array-padding.js';
import { elemMatchKey } from './elem-match-key.js';
import { expandPositional, hasPositional, holdsMatchedField, withMatchedField } from './positional.js';
import type { PositionalContext } from './positional.js';
import { plainNumbers } from './numbers.js';
import { preparePullCondition } from './query.js';
import { bsonTypeName, cloneValue, getPath, isPlainObject, keyOf } from './values.js';
import { idText as describeId } from './bson-text.js';
import { checkRename } from './rename.js';
import { checkViable } from './path-viable.js';
import { computeUpdate } from './update-compute.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

const NUMERIC = new Set(['int', 'double', 'long', 'decimal']);

/** Operators that never create a path, so never pad an array (`$rename`'s destination cannot be in one). */
const NON_CREATING = new Set(['$unset', '$pull', '$pullAll', '$pop', '$rename']);

/** Operators whose new value the engine computes itself (update-compute.ts). */
const COMPUTED = new Set(['$inc', '$mul', '$min', '$max', '$push', '$addToSet', '$bit']);

/** Validates an operator update against the current document; returns the modifier to hand to mingo. */
export function validateOperators(
  doc: Doc,
  update: Doc,
  inserting: boolean,
  context: PositionalContext,
): Doc {
  // `$` is the position the query recorded on the stored document, with MongoDB's canonical (sorted)
  // query (update_stage.cpp); an upsert's insert has none (its update runs with an empty matchedField).
  if (Object.values(update).some((f) => isPlainObject(f) && Object.keys(f).some(holdsMatchedField)))
    update = withMatchedField(
      update,
      inserting ? undefined : elemMatchKey(context.filter ?? {}, doc, true, context.collation),
    );
  const modifier: Doc = {};
  // Arithmetic and comparisons done here with MongoDB's types and order, applied as `$set`.
  const computed: Doc = {};
  for (const [op, arg] of Object.entries(update as Record<string, Doc>)) {
    if (op === '$setOnInsert' && !inserting) continue;
    const fields: Doc = {};
    for (const [path, value] of Object.entries(arg)) {
      if (path === '_id' || path.startsWith('_id.')) {
        if (
          (op === '$set' || op === '$setOnInsert') &&
          (inserting || keyOf(getPath(doc, path)) === keyOf(value))
        ) {
          if (inserting && path === '_id') doc['_id'] = cloneValue(value);
          if (inserting && path === '_id') continue;
          if (!inserting) continue;
        } else {
          throw new CommandError(
            ErrorCodes.ImmutableField,
            `Performing an update on the path '_id' would modify the immutable field '_id'`,
          );
        }
      }
      const positional = hasPositional(path);
      if (op === '$rename') {
        checkRename(doc, path, value as string);
        checkViable(doc, value as string);
      } else if (!positional && !NON_CREATING.has(op)) {
        checkViable(doc, path);
        checkArrayPadding(doc, path);
      } else if (positional && !NON_CREATING.has(op) && !COMPUTED.has(op))
        checkPositionalPath(doc, path, context);
      else if (positional) {
        // A positional part needs an array there whatever the operator (UpdateArrayNode::apply runs
        // before the leaf); each element it names is then checked as a plain path would be.
        for (const concrete of expandPositional(doc, path, context))
          checkArrayOperand(op, concrete, getPath(doc, concrete));
      }
      const current = positional ? undefined : getPath(doc, path);
      const currentType = current === undefined ? undefined : bsonTypeName(current);
      if (op === '$inc' || op === '$mul') checkArithmetic(op, path, current, doc);
      if (positional && COMPUTED.has(op)) {
        // Resolved here, so that numbers keep MongoDB's types and order (mingo's drop longs and decimals).
        for (const concrete of expandPositional(doc, path, context)) {
          const target = getPath(doc, concrete);
          checkArrayPadding(doc, concrete);
          if (op === '$inc' || op === '$mul') checkArithmetic(op, concrete, target, doc);
          if (computeUpdate(op, concrete, target, value, computed, doc, context.collation)) continue;
          if (op === '$min' || op === '$max')
            computed[concrete] = value; // a missing field takes the value
          else if (op === '$push' || op === '$addToSet')
            throw new CommandError(
              ErrorCodes.BadValue,
              `The field '${concrete}' must be an array but is of type ${bsonTypeName(target)} in document ${describeId(doc)}`,
            );
          else
            throw new CommandError(
              ErrorCodes.TypeMismatch,
              `Cannot apply ${op} to a value of non-numeric type. ${describeId(doc)} has the field '${lastPart(concrete)}' of non-numeric type ${bsonTypeName(target)}`,
            );
        }
        continue;
      }
      if ((op === '$push' || op === '$addToSet') && currentType !== undefined && currentType !== 'array') {
        throw new CommandError(
          ErrorCodes.BadValue,
          `The field '${path}' must be an array but is of type ${currentType} in document ${describeId(doc)}`,
        );
      }
      if (!positional) checkArrayOperand(op, path, current);
      if (!positional && computeUpdate(op, path, current, value, computed, doc, context.collation)) continue;
      if (op === '$pull') fields[path] = preparePullCondition(value);
      else fields[path] = op === '$pop' ? plainNumbers(value) : value;
    }
    const target = op === '$setOnInsert' ? '$set' : op;
    if (Object.keys(fields).length > 0) modifier[target] = { ...(modifier[target] ?? {}), ...fields };
  }
  if (Object.keys(computed).length > 0) modifier['$set'] = { ...(modifier['$set'] ?? {}), ...computed };
  return modifier;
}

/**
 * The checks of a positional path mingo applies itself (`$set` of `a.$[].5`): the path must resolve
 * (a positional part needs an existing array, MongoDB's UpdateArrayNode::apply) and each element it
 * names must be able to hold the field and not pad an array too far. mingo skips a part it cannot
 * resolve, and goes on with the rest: `a.$[].$[]` on `[[1], 2]` set `a.1` although `2` is no array.
 * @throws CommandError BadValue (2) from expandPositional, PathNotViable (28) or the padding error.
 */
function checkPositionalPath(doc: Doc, path: string, context: PositionalContext): void {
  for (const each of expandPositional(doc, path, context)) {
    checkViable(doc, each);
    checkArrayPadding(doc, each);
  }
}

/**
 * The checks `$pull`, `$pullAll` and `$pop` make of the value they meet (pull_node.cpp,
 * pullall_node.cpp: ArrayCullingNode; pop_node.cpp); a missing value is no error.
 * @throws CommandError BadValue, or TypeMismatch for `$pop`.
 */
function checkArrayOperand(op: string, path: string, current: unknown): void {
  const currentType = current === undefined ? undefined : bsonTypeName(current);
  if (currentType === undefined || currentType === 'array') return;
  if (op === '$pull' || op === '$pullAll')
    throw new CommandError(ErrorCodes.BadValue, `Cannot apply ${op} to a non-array value`);
  if (op === '$pop')
    throw new CommandError(
      ErrorCodes.TypeMismatch,
      `Path '${path}' contains an element of non-array type '${currentType}'`,
    );
}

/** The last part of a path: MongoDB names the field, not its path, in type errors. */
const lastPart = (path: string): string => path.slice(path.lastIndexOf('.') + 1);

/** MongoDB's check on the value `$inc`/`$mul` meets (the operand is checked when parsed). @throws CommandError TypeMismatch. */
function checkArithmetic(op: '$inc' | '$mul', path: string, current: unknown, doc: Doc): void {
  const currentType = current === undefined ? undefined : bsonTypeName(current);
  if (currentType === undefined || NUMERIC.has(currentType) || (currentType === 'null' && op === '$mul'))
    return;
  throw new CommandError(
    ErrorCodes.TypeMismatch,
    `Cannot apply ${op} to a value of non-numeric type. ${describeId(doc)} has the field '${lastPart(path)}' of non-numeric type ${currentType}`,
  );
}
