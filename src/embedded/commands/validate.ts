/**
 * `validate`: MongoDB's consistency check of a collection and its indexes. The embedded engine keeps
 * its indexes in step with its documents, so the answer is always valid; what it reports (record and
 * key counts, the reply's shape, and the error for a missing collection) is MongoDB 7.0's, so tools
 * that run `validate` read the fields they expect.
 */
import { CommandError, ErrorCodes } from '../errors.js';
import type { Doc } from '../engine/values.js';
import { refuseView } from '../engine/views.js';
import type { CommandContext, Handler } from './context.js';
import { collectionName, exclusively } from './context.js';

/**
 * The `validate` command. A foreground validation (the default) takes the collection's exclusive lock
 * in MongoDB 7.0 (validate_state.cpp), so it waits while an open transaction uses the collection; one
 * with `background: true` takes an intent lock and answers at once.
 * @throws CommandError InvalidNamespace (73), NamespaceNotFound (26), CommandNotSupportedOnView (166);
 *   what {@link exclusively} throws when the wait is over.
 */
export const validate: Handler = (cmd, ctx) => {
  const name = collectionName(cmd, ErrorCodes.InvalidNamespace);
  if (cmd['background'] === true) return validateNow(ctx, name);
  return exclusively(
    ctx,
    () => [`${ctx.db}.${name}`],
    () => validateNow(ctx, name),
  );
};

function validateNow(ctx: CommandContext, name: string): Doc {
  const coll = ctx.core.engine.collection(ctx.db, name);
  if (!coll)
    throw new CommandError(
      ErrorCodes.NamespaceNotFound,
      `Collection '${ctx.db}.${name}' does not exist to validate.`,
    );
  refuseView(coll);
  const state = ctx.core.engine.readState(coll, ctx.txn);
  const keysPerIndex: Doc = { _id_: state.docs.size };
  const indexDetails: Doc = { _id_: { valid: true } };
  for (const index of state.indexes) {
    let keys = 0;
    for (const ids of index.entries.values()) keys += ids.size;
    keysPerIndex[index.spec.name] = keys;
    indexDetails[index.spec.name] = { valid: true };
  }
  return {
    ns: coll.ns,
    uuid: coll.uuid,
    nInvalidDocuments: 0,
    nNonCompliantDocuments: 0,
    nrecords: state.docs.size,
    nIndexes: state.indexes.length + 1,
    keysPerIndex,
    indexDetails,
    valid: true,
    repaired: false,
    warnings: [],
    errors: [],
    extraIndexEntries: [],
    missingIndexEntries: [],
    corruptRecords: [],
    ok: 1,
  };
}
