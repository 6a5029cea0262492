/**
 * Update application with MongoDB's validation on top of mingo's update operators: replacement vs
 * operator vs pipeline updates, `$setOnInsert`, upsert seeding from equality fields, immutable `_id`,
 * conflicting paths, and type errors (`$inc` on a string …). The checks and values of each operator on
 * the stored document are in update-modifier.ts (with update-compute.ts, path-viable.ts and
 * array-padding.ts), top-level `$`-prefixed fields in dollar-fields.ts, `$pull` conditions in
 * pull-condition.ts, the upsert seed in upsert-seed.ts, the `$set` writes mingo skips in skipped-sets.ts.
 */
import { ObjectId } from 'bson';
import { update as mingoUpdate } from 'mingo/updater';
import type { Modifier } from 'mingo/updater';
import type { Collation } from './collation.js';
import { applyPipeline } from './pipeline-update.js';
import { withSystemVariables } from './let-variables.js';
import { mingoOptions } from './mingo-options.js';
import { cloneValue, idFirst, keyOf } from './values.js';
import { checkDollarFields, hideDollarFields, updatePaths } from './dollar-fields.js';
import { checkPullConditions } from './pull-condition.js';
import { checkUpdateOperators } from './update-parse.js';
import { validateOperators } from './update-modifier.js';
import { sameBson } from './update-delta-tree.js';
import { orderCreatedFields } from './update-field-order.js';
import { writeSkippedSets } from './skipped-sets.js';
import { seedFromFilter } from './upsert-seed.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

export { seedFromFilter };

/** What kind of update document this is. */
export function updateKind(update: unknown): 'pipeline' | 'replacement' | 'operators' {
  if (Array.isArray(update)) return 'pipeline';
  if (!update || typeof update !== 'object')
    throw new CommandError(ErrorCodes.FailedToParse, 'Update argument must be either an object or an array');
  const keys = Object.keys(update);
  if (keys.length > 0 && keys[0]!.startsWith('$')) return 'operators';
  return 'replacement';
}

/**
 * What kind of update this is, after MongoDB's parse-time checks of an operator update (update-parse.ts,
 * and the query features `$pull` conditions may not use, pull-condition.ts), which fail before any
 * document is looked at.
 * @throws CommandError as checkUpdateOperators and checkPullConditions.
 */
export function checkUpdate(update: unknown): 'pipeline' | 'replacement' | 'operators' {
  const kind = updateKind(update);
  if (kind === 'operators') {
    checkUpdateOperators(update as Doc);
    checkPullConditions(update as Doc);
  }
  return kind;
}

function checkReplacement(doc: Doc): void {
  for (const key of Object.keys(doc)) {
    if (key.startsWith('$')) {
      throw new CommandError(
        ErrorCodes.DollarPrefixedFieldName,
        `The dollar ($) prefixed field '${key}' in '${key}' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith.`,
      );
    }
  }
}

/** Options for {@link applyUpdate}. */
export interface ApplyOptions {
  arrayFilters?: Doc[];
  /** True when the update builds an upserted document ($setOnInsert applies, _id may be set). */
  inserting?: boolean;
  /** The (prepared) query, whose recorded array position the positional `$` stands for. */
  filter?: Doc;
  collation?: Collation;
  variables?: Doc;
}

/**
 * Applies an update to a stored document and returns the new document (a fresh object; `doc` is not
 * touched) and whether anything changed.
 * @throws CommandError on invalid updates (FailedToParse, ImmutableField, TypeMismatch, ConflictingUpdateOperators …),
 * CannotBackfillArray (34) for an array padded past 1,500,000 nulls, DollarPrefixedFieldName (52) or
 * InvalidDBRef (55) for a top-level `$` field the update creates or changes.
 */
export function applyUpdate(
  doc: Doc,
  update: unknown,
  options: ApplyOptions = {},
): { doc: Doc; changed: boolean } {
  const kind = checkUpdate(update);
  const oldId = doc['_id'];
  let next: Doc;
  if (kind === 'replacement') {
    const replacement = update as Doc;
    checkReplacement(replacement);
    if ('_id' in replacement && !options.inserting && keyOf(replacement['_id']) !== keyOf(oldId)) {
      throw new CommandError(
        ErrorCodes.ImmutableField,
        `After applying the update, the (immutable) field '_id' was found to have been altered to _id: ${JSON.stringify(replacement['_id'])}`,
      );
    }
    next = {
      _id: '_id' in replacement && options.inserting ? replacement['_id'] : oldId,
      ...cloneValue(replacement),
    };
    if (next['_id'] === undefined) delete next['_id'];
  } else {
    next = cloneValue(doc);
    const queryOptions = mingoOptions(options.collation, {
      variables: withSystemVariables(options.variables),
    });
    try {
      if (kind === 'pipeline') {
        next = applyPipeline(next, update as unknown[], queryOptions);
      } else {
        const modifier = validateOperators(next, update as Doc, options.inserting ?? false, options);
        if (Object.keys(modifier).length > 0) {
          // mingo refuses paths that start with `$`; MongoDB's own rule is checked below.
          const hidden = hideDollarFields(next, modifier);
          mingoUpdate(
            hidden.doc,
            hidden.modifier as Modifier<Doc>,
            undefined, // `$`, `$[]` and `$[x]` were resolved by validateOperators: concrete paths only
            undefined,
            {
              cloneMode: 'deep',
              queryOptions,
            },
          );
          writeSkippedSets(hidden.doc, hidden.modifier['$set']);
          next = hidden.restore(hidden.doc);
          orderCreatedFields(doc, next, updatePaths(modifier));
        }
        if (!options.inserting) checkDollarFields(doc, next, update as Doc);
      }
    } catch (error) {
      if (error instanceof CommandError) throw error;
      const message = (error as Error).message;
      throw new CommandError(
        /conflict/i.test(message) ? ErrorCodes.ConflictingUpdateOperators : ErrorCodes.BadValue,
        message,
      );
    }
    if (!options.inserting && keyOf(next['_id']) !== keyOf(oldId)) {
      throw new CommandError(
        ErrorCodes.ImmutableField,
        `Performing an update on the path '_id' would modify the immutable field '_id'`,
      );
    }
  }
  next = idFirst(next);
  // MongoDB writes unless the new document is the same BSON (binaryEqual): a value of another number
  // type (int 1 set to NumberLong(1)), 0.0 made -0.0, or fields reordered at any depth is a change.
  return { doc: next, changed: !sameBson(next, doc) };
}

/**
 * Builds the document an upsert inserts: seeded from the filter's equalities, then the update applied
 * (with `$setOnInsert`), `_id` generated when absent and moved first.
 */
export function buildUpsert(filter: Doc, update: unknown, options: ApplyOptions = {}): Doc {
  const kind = updateKind(update);
  const seed = seedFromFilter(filter);
  let doc: Doc;
  if (kind === 'replacement') {
    const replacement = update as Doc;
    checkReplacement(replacement);
    doc = { ...('_id' in seed ? { _id: seed['_id'] } : {}), ...cloneValue(replacement) };
  } else {
    doc = applyUpdate(seed, update, { ...options, inserting: true }).doc;
  }
  if (doc['_id'] === undefined) doc = { _id: new ObjectId(), ...doc };
  return idFirst(doc);
}
