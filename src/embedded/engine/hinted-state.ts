/**
 * What a query hinted to a sparse, partial or text index reads: only the documents that index holds, as
 * MongoDB answers from the index itself.
 */
import { CollectionState } from './collection.js';
import type { Index } from './indexes.js';
import type { Doc } from './values.js';

/**
 * `state` reduced to the documents `index` covers (a text index is always sparse); `state` itself for
 * other indexes or no hint.
 */
export function hintedState(state: CollectionState, index: Index | undefined): CollectionState {
  if (!index || (!index.text && !index.spec.sparse && !index.spec.partialFilterExpression)) return state;
  const docs = new Map<string, Doc>();
  for (const [idKey, doc] of state.docs) if (index.covers(doc)) docs.set(idKey, doc);
  return new CollectionState(docs, state.indexes, state.records);
}
