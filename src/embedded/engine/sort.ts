/**
 * The `$sort` stage (also behind `find`'s sort): mingo's own sort, run on views of the documents in which
 * int64 values are numbers, so that longs, ints and doubles interleave by value as in MongoDB.
 */
import { Lazy } from 'mingo/lazy';
import type { Iterator } from 'mingo/lazy';
import * as pipelineOperators from 'mingo/operators/pipeline';
import type { Options } from 'mingo/types';
import { plainFields } from './numbers.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';

type PipelineOp = (collection: Iterator, expr: unknown, options: Options) => Iterator;

const builtinSort = (pipelineOperators as unknown as Record<string, PipelineOp>)['$sort']!;

/** The `$sort` pipeline operator registered in the engine's context (same arguments as mingo's). */
export const sortStage: PipelineOp = (collection, sortKeys, options) => {
  if (!isPlainObject(sortKeys)) return builtinSort(collection, sortKeys, options);
  const paths = Object.keys(sortKeys);
  return collection.transform((items: unknown[]) => {
    const docs = items as Doc[];
    let original: Map<unknown, Doc> | undefined;
    const views = docs.map((doc) => {
      const view = isPlainObject(doc) ? plainFields(doc, paths) : doc;
      if (view !== doc) (original ??= new Map()).set(view, doc);
      return view;
    });
    if (!original) return builtinSort(Lazy(docs), sortKeys, options);
    const back = original;
    return builtinSort(Lazy(views), sortKeys, options).map((view) => back.get(view) ?? view);
  });
};
