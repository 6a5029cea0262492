import type { Query } from '../core/index.js';
import type { DocDbDriverOptions, DocDbParams } from './declarations.js';

/** Options for every driver call of a method call: `params.docdb` plus `params.collation` (which wins). */
export function callDriverOptions(params: DocDbParams): DocDbDriverOptions {
  const docdb = params.docdb;
  const options: DocDbDriverOptions = { ...docdb };
  const collation = params.collation ?? docdb?.collation;
  if (collation !== undefined) options.collation = collation;
  return options;
}

/** `{ $select }` of the call's query, the only part `create` and re-reads use. */
export function selectOnly(params: DocDbParams): Query {
  const select = params.query?.$select;
  return select === undefined ? {} : { $select: select };
}

/**
 * Params for a read the service makes itself (the records a multi write touches, re-reads after a
 * write): the call's collection, session, collation and pipeline with `query`; no pagination.
 */
export function internalParams<P extends DocDbParams>(params: P, query: Query): P {
  return { ...params, query, paginate: false, adapter: { ...params.adapter, paginate: false } };
}
