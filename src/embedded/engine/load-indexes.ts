/**
 * Index rules applied while data files are loaded. A document or an index build the journal or snapshot
 * holds was accepted when it was written; an earlier plume computed index keys by other rules (before
 * index-keys.ts followed MongoDB's key generator), so an index may now refuse documents it once held
 * (171, 16746, or a duplicate of a key that used to differ). Refusing to start would keep the data
 * unreachable, and `repair` would drop those documents; MongoDB does not re-check stored documents at
 * start-up either. So the documents are kept and the index that refuses them is dropped, with a warning
 * naming it: the next snapshot no longer holds it, and it can be created again once the data fits.
 */
import type { CollectionState } from './collection.js';
import type { Index, IndexSpec } from './indexes.js';
import type { Doc } from './values.js';
import { CommandError } from '../errors.js';

function warnDropped(ns: string, spec: IndexSpec, error: CommandError): void {
  process.emitWarning(
    `plume-db: index '${spec.name}' of ${ns} was dropped while loading the data files, because its ` +
      `documents no longer fit it: ${error.message} (${error.code}). The documents are kept; create the ` +
      `index again once they fit it.`,
    { code: 'PLUME_DB_INDEX_DROPPED' },
  );
}

/** Stores a loaded document, dropping (with a warning) each index that refuses it. */
export function putLoaded(state: CollectionState, ns: string, doc: Doc, oldIdKey: string | undefined): void {
  state.put(ns, doc, oldIdKey, (index: Index, error) => warnDropped(ns, index.spec, error));
}

/** Builds a logged index over the loaded documents, or leaves it out (with a warning) when they refuse it. */
export function addLoadedIndex(state: CollectionState, ns: string, spec: IndexSpec): void {
  try {
    state.addIndex(ns, spec);
  } catch (error) {
    if (!(error instanceof CommandError)) throw error;
    warnDropped(ns, spec, error);
  }
}
