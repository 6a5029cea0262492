/**
 * What a query hinted to a sparse or partial index reads: only the documents that index holds, as
 * MongoDB answers from the index itself.
 */
import { CollectionState } from './collection.js';
import type { Index } from './indexes.js';
import type { Doc } from './values.js';

/** `state` reduced to the documents `index` covers; `state` itself for other indexes or no hint. */
export function hintedState(state: CollectionState, index: Index | undefined): CollectionState {
  if (!index || (!index.spec.sparse && !index.spec.partialFilterExpression)) return state;
  const docs = new Map<string, Doc>();
  for (const [idKey, doc] of state.docs) if (index.covers(doc)) docs.set(idKey, doc);
  return new CollectionState(docs, state.indexes);
}
