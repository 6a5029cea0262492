/**
 * The per-document half of an operator update: checks each operator against the stored document (the
 * immutable `_id`, paths that cannot be created, arrays padded too far (array-padding.ts), `$inc` on a
 * string, `$push` on a non-array …), resolves `$`, `$[]` and `$[x]` into the concrete paths they name
 * (positional.ts), has the engine compute the values mingo would get wrong (update-compute.ts), and
 * returns the modifier left for mingo, which holds concrete paths only. Separate from update-parse.ts,
 * whose checks come before any document is read, and from update.ts, which picks the kind of update and
 * runs mingo.
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

/** What {@link operand} answers for a value the engine computed itself (update-compute.ts). */
const COMPUTED_HERE = Symbol('computed');

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
  const claimElement = elementClaims();
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
      // `$[]` and `$[x]` name elements of the stored document, as MongoDB's UpdateArrayNode finds them
      // before the operator's leaf runs on each: every operator then meets concrete paths (mingo's own
      // resolution flattened nested arrays and skipped `a.$[].$[].b`).
      const positional = hasPositional(path);
      for (const each of positional ? expandPositional(doc, path, context) : [path]) {
        if (positional) claimElement(each);
        const field = operand(op, each, value, doc, context, computed);
        if (field !== COMPUTED_HERE) fields[each] = field;
      }
    }
    const target = op === '$setOnInsert' ? '$set' : op;
    if (Object.keys(fields).length > 0) modifier[target] = { ...(modifier[target] ?? {}), ...fields };
  }
  if (Object.keys(computed).length > 0) modifier['$set'] = { ...(modifier['$set'] ?? {}), ...computed };
  return modifier;
}

/**
 * One operator on one concrete path (no `$[]`/`$[x]` left): MongoDB's checks of what the path meets
 * (a path that cannot be created, an array padded too far, `$inc` on a string, `$push` on a
 * non-array …), then the new value the engine computes (update-compute.ts, put in `computed`) or the
 * operand left for mingo.
 * @throws CommandError as the checks named.
 */
function operand(
  op: string,
  path: string,
  value: unknown,
  doc: Doc,
  context: PositionalContext,
  computed: Doc,
): unknown {
  if (op === '$rename') {
    checkRename(doc, path, value as string);
    checkViable(doc, value as string);
  } else if (!NON_CREATING.has(op)) {
    checkViable(doc, path);
    checkArrayPadding(doc, path);
  }
  const current = getPath(doc, path);
  const currentType = current === undefined ? undefined : bsonTypeName(current);
  if (op === '$inc' || op === '$mul') checkArithmetic(op, path, current, doc);
  if ((op === '$push' || op === '$addToSet') && currentType !== undefined && currentType !== 'array') {
    throw new CommandError(
      ErrorCodes.BadValue,
      `The field '${path}' must be an array but is of type ${currentType} in document ${describeId(doc)}`,
    );
  }
  checkArrayOperand(op, path, current);
  if (computeUpdate(op, path, current, value, computed, doc, context.collation)) return COMPUTED_HERE;
  if (op === '$pull') return preparePullCondition(value);
  return op === '$pop' ? plainNumbers(value) : value;
}

/**
 * Claims the elements `$[]`/`$[x]` paths name. Two array filters may name one element
 * (UpdateArrayNode::apply merges their updates for it), but not the same field of it, nor a field and
 * a field inside it: UpdateNode::createUpdateNodeByMerging fails with "Update created a conflict at
 * 'a.0.b'". (Paths that meet otherwise were refused when the update was parsed, update-parse.ts.)
 * @returns the claim function; it throws CommandError ConflictingUpdateOperators (40).
 */
function elementClaims(): (path: string) => void {
  const paths = new Set<string>();
  const prefixes = new Set<string>();
  return (path) => {
    const parts = path.split('.');
    const leading = parts.map((_, i) => parts.slice(0, i + 1).join('.'));
    const shared = leading.find((p) => paths.has(p)) ?? (prefixes.has(path) ? path : undefined);
    if (shared !== undefined)
      throw new CommandError(
        ErrorCodes.ConflictingUpdateOperators,
        `Update created a conflict at '${shared}'`,
      );
    paths.add(path);
    for (const p of leading) prefixes.add(p);
  };
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
