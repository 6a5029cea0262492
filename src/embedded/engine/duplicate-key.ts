/**
 * MongoDB's DuplicateKey (11000) errors, as a unique index (the `_id` index among them) refuses a key it
 * holds already: the message and the keyPattern, keyValue (and collation) the reply carries.
 */
import type { Collation } from './collation.js';
import { describeCollation } from './collation.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** MongoDB's DuplicateKey (11000) error for `keyValue` in index `indexName`, with keyPattern and keyValue. */
export function duplicateKeyError(
  ns: string,
  indexName: string,
  keyPattern: Doc,
  keyValue: Doc,
): CommandError {
  return new CommandError(
    ErrorCodes.DuplicateKey,
    `E11000 duplicate key error collection: ${ns} index: ${indexName} dup key: ${shownDoc(keyValue)}`,
    { extra: { keyPattern, keyValue } },
  );
}

function shownDoc(doc: Doc): string {
  const shown = Object.entries(doc)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
    .join(', ');
  return `{ ${shown} }`;
}

/**
 * The DuplicateKey (11000) error of index `indexName` holding its strings under `collation`: MongoDB's
 * buildDupKeyErrorStatus (src/mongo/db/storage/index_entry_comparison.cpp) names the index's collation
 * after the index, and reports it with the error. MongoDB shows a string of the key as the hex of its
 * ICU collation key, which this engine does not compute: the value refused is shown instead.
 */
export function collatedDuplicateError(
  ns: string,
  indexName: string,
  keyPattern: Doc,
  keyValue: Doc,
  collation: Collation,
): CommandError {
  const described = describeCollation(collation);
  return new CommandError(
    ErrorCodes.DuplicateKey,
    `E11000 duplicate key error collection: ${ns} index: ${indexName} collation: ${shownDoc(described)} ` +
      `dup key: ${shownDoc(keyValue)}`,
    { extra: { keyPattern, keyValue, collation: described } },
  );
}
