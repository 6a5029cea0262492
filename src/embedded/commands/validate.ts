/**
 * `validate`: MongoDB's consistency check of a collection and its indexes. The embedded engine keeps
 * its indexes in step with its documents, so the answer is always valid; what it reports (record and
 * key counts, the reply's shape, and the error for a missing collection) is MongoDB 7.0's, so tools
 * that run `validate` read the fields they expect.
 */
import { CommandError, ErrorCodes } from '../errors.js';
import type { Doc } from '../engine/values.js';
import { refuseView } from '../engine/views.js';
import type { Handler } from './context.js';
import { collectionName } from './context.js';

export const validate: Handler = (cmd, ctx) => {
  const name = collectionName(cmd, ErrorCodes.InvalidNamespace);
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
};
