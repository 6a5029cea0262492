/**
 * Aggregation on mingo's Aggregator with the engine's context: other collections resolve through the
 * reader's snapshot (`$lookup`, `$graphLookup`, `$unionWith`), a leading `$match`/`$search` uses indexes
 * and text search, and `$out`/`$merge` write into collections (out-stage.ts, merge-stage.ts).
 */
import { Aggregator } from 'mingo/aggregator';
import { CollectionState } from './collection.js';
import type { Collection } from './collection.js';
import type { Engine } from './database.js';
import type { Collation } from './collation.js';
import { withSystemVariables } from './let-variables.js';
import { hintedState } from './hinted-state.js';
import { inHintedOrder } from './hinted-order.js';
import type { HintedScan } from './hinted-order.js';
import { collectionAt } from './transaction-ddl.js';
import type { Index } from './indexes.js';
import { matchDocs } from './read.js';
import { prepareMatchStages } from './match-stages.js';
import { normalizePipeline } from './specs.js';
import { checkPipeline } from './pipeline-check.js';
import { checkStagePositions, checkNamespace } from './documents-placement.js';
import { isTextMatch, searchSubPipelines } from './sub-pipeline-text.js';
import { mingoOptions } from './mingo-options.js';
import { parseTextQuery, textScore } from './text.js';
import type { Transaction } from './transaction.js';
import { writeOut } from './out-stage.js';
import { withMemoryLimits } from './memory-limits.js';
import { checkResultSize, startMeasuring } from './limits.js';
import {
  dropScoreFields,
  isMeta,
  metaExpression,
  metaSortField,
  SEARCH_SCORE_FIELD,
  TEXT_SCORE_FIELD,
} from './meta-fields.js';
import type { MetaSources } from './meta-fields.js';
import { boundSort } from './sort.js';
import { rewriteBucket } from './bucket.js';
import type { MemoryLimits } from './memory-limits.js';
import { isView, resolveView } from './views.js';
import { cloneValue, isPlainObject, sharingCopier } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** Inputs of an aggregation. */
export interface AggregateArgs {
  db: string;
  /** The collection read, or undefined (`aggregate: 1`, a collection that does not exist). */
  collection: Collection | undefined;
  /**
   * What the command's pipeline runs on, set for an aggregate command's own pipeline only: a collection
   * (named, existing or not) or the database (`aggregate: 1`), which its first stage must suit.
   */
  target?: 'collection' | 'database';
  pipeline: Doc[];
  collation?: Collation;
  variables?: Doc;
  txn?: Transaction;
  /** The index a `hint` names: a sparse or partial one limits the input to the documents it holds. */
  hint?: Index;
  /** The scan the hint forces (hinted-order.ts): the pipeline reads the collection in its order. */
  scan?: HintedScan;
  /** The command's memory limits; absent, those in force (an aggregation read from inside another). */
  memory?: MemoryLimits;
}

function stageName(stage: Doc): string {
  const keys = Object.keys(stage);
  if (keys.length !== 1)
    throw new CommandError(40323, 'A pipeline stage specification object must contain exactly one field.');
  return keys[0]!;
}

function searchStage(engine: Engine, args: AggregateArgs, spec: unknown): Doc[] {
  if (!isPlainObject(spec) || !isPlainObject(spec['text'])) {
    throw new CommandError(
      ErrorCodes.BadValue,
      '$search supports only the text operator: { $search: { text: { query, path } } }',
    );
  }
  const text = spec['text'];
  const query = Array.isArray(text['query']) ? (text['query'] as unknown[]).join(' ') : text['query'];
  if (typeof query !== 'string')
    throw new CommandError(ErrorCodes.BadValue, '$search.text.query must be a string');
  const paths = text['path'];
  const weights: Record<string, number> = {};
  const add = (p: unknown): void => {
    if (typeof p === 'string') weights[p] = 1;
    else if (isPlainObject(p) && p['wildcard'] === '*') weights['$**'] = 1;
    else
      throw new CommandError(
        ErrorCodes.BadValue,
        '$search.text.path must be a string, an array of strings or { wildcard: "*" }',
      );
  };
  if (Array.isArray(paths)) paths.forEach(add);
  else add(paths);
  const tq = parseTextQuery(query);
  const docs = args.collection ? [...engine.readState(args.collection, args.txn).docs.values()] : [];
  const scored = docs.map((d) => [d, textScore(d, tq, weights)] as const).filter(([, s]) => s > 0);
  scored.sort((a, b) => b[1] - a[1]);
  return scored.map(([d, s]) => ({ ...cloneValue(d), [SEARCH_SCORE_FIELD]: s }));
}

/**
 * Runs a pipeline and returns fresh result documents.
 * @throws CommandError for invalid stages or write-stage failures, and when a stage passes its memory
 *   limit (memory-limits.ts).
 */
export function runAggregate(engine: Engine, args: AggregateArgs): Doc[] {
  return withMemoryLimits(args.memory, () => aggregateNow(engine, args));
}

function aggregateNow(engine: Engine, args: AggregateArgs): Doc[] {
  // Specs read flags, counts and boundaries by value (`$limit: Double(5)`, `$project: { a: Double(1) }`).
  const pipeline = normalizePipeline(args.pipeline);
  for (const stage of pipeline)
    if (!isPlainObject(stage))
      throw new CommandError(ErrorCodes.TypeMismatch, 'Each element of the pipeline array must be an object');
  checkPipeline(pipeline, Object.keys(args.variables ?? {}));
  if (args.target) checkNamespace(pipeline, args.target === 'database');
  checkStagePositions(pipeline);
  let input: Doc[];
  const first = pipeline[0];
  let searched = false;
  let text = false;
  if (first && stageName(first) === '$search') {
    input = searchStage(engine, args, first['$search']);
    pipeline.shift();
    searched = true;
  } else if (first && stageName(first) === '$match' && args.collection) {
    const state = hintedState(engine.readState(args.collection, args.txn), args.hint);
    const { docs, scores } = matchDocs(state, first['$match'], args.collation, args.variables, args.scan);
    text = scores !== undefined;
    input = docs.map((d) =>
      scores ? { ...cloneValue(d), [TEXT_SCORE_FIELD]: scores.get(d) } : cloneValue(d),
    );
    pipeline.shift();
  } else if (first && stageName(first) === '$documents') {
    input = [];
  } else {
    const state = args.collection
      ? hintedState(engine.readState(args.collection, args.txn), args.hint)
      : new CollectionState();
    const stored = [...state.docs.values()];
    const read = args.scan ? inHintedOrder(stored, args.scan, {}, args.collation, state.records) : stored;
    input = read.map((d) => cloneValue(d));
  }
  let out: { kind: '$out' | '$merge'; spec: unknown } | undefined;
  const last = pipeline[pipeline.length - 1];
  if (last && (stageName(last) === '$out' || stageName(last) === '$merge')) {
    out = { kind: stageName(last) as '$out' | '$merge', spec: last[stageName(last)] };
    pipeline.pop();
  }
  for (const stage of pipeline) {
    const name = stageName(stage);
    if (name === '$changeStream') {
      throw new CommandError(
        40324,
        'Unrecognized pipeline stage name: $changeStream (change streams are not supported by the plume embedded database)',
      );
    }
    if (name === '$out' || name === '$merge')
      throw new CommandError(40601, `${name} can only be the final stage in the pipeline`);
    if (name === '$search')
      throw new CommandError(40602, '$search is only valid as the first stage in a pipeline');
  }
  const resolver = (name: string): Doc[] => {
    const coll = collectionAt(engine, args.db, name, args.txn);
    if (isView(coll)) return readView(engine, { view: coll, pipeline: [], txn: args.txn });
    return coll ? engine.documents(coll, args.txn) : [];
  };
  const sources: MetaSources = { text, searched, sampled: false, sorted: false };
  const rewritten = prepareMatchStages(pipeline).flatMap((stage) => {
    const stages = rewriteBucket(rewriteMeta(stage, sources), args.collation);
    if (stageName(stage) === '$sample') sources.sampled = true;
    if (stageName(stage) === '$sort') sources.sorted = true;
    return stages;
  });
  rewritten.forEach((stage, i) => {
    // MongoDB folds a $limit into the $sort before it, which then keeps only that many documents.
    const limit = rewritten[i + 1]?.['$limit'];
    if (isPlainObject(stage['$sort']) && typeof limit === 'number') boundSort(stage['$sort'], limit);
  });
  // A $lookup or $unionWith pipeline starting with $text searches its collection (sub-pipeline-text.ts).
  let subText = false;
  const collectionNamed = (name: string): Collection | undefined => {
    subText = true;
    const coll = collectionAt(engine, args.db, name, args.txn);
    return coll && !isView(coll) ? coll : undefined;
  };
  const stages = searchSubPipelines(rewritten, {
    text: (name, text) => {
      const coll = collectionNamed(name);
      if (!coll) return [];
      const filter = { $text: text };
      const { docs, scores } = matchDocs(
        engine.readState(coll, args.txn),
        filter,
        args.collation,
        args.variables,
      );
      return docs.map((d) => ({ ...cloneValue(d), [TEXT_SCORE_FIELD]: scores?.get(d) }));
    },
    search: (name, spec) => searchStage(engine, { ...args, collection: collectionNamed(name) }, spec),
  });
  let result: Doc[];
  startMeasuring();
  try {
    result = new Aggregator(
      stages,
      mingoOptions(args.collation, {
        collectionResolver: resolver,
        variables: withSystemVariables(args.variables),
      }),
    ).run(input);
  } catch (error) {
    if (error instanceof CommandError) throw error;
    const message = (error as Error).message;
    const unknown = /unregistered pipeline operator (\$\w+)/.exec(message);
    if (unknown) throw new CommandError(40324, `Unrecognized pipeline stage name: '${unknown[1]!}'`);
    // checkPipeline refuses undefined variables up front; what reaches mingo is a system variable
    // MongoDB defines but has no value for here (variables.cpp: 51144), or a read inside a spec the check
    // does not walk (e.g. a $graphLookup restrictSearchWithMatch), which keeps MongoDB's 17276.
    const undefinedVariable = /^Use of undefined variable: (\w+)/.exec(message);
    if (undefinedVariable?.[1] === 'JS_SCOPE' || undefinedVariable?.[1] === 'IS_MR')
      throw new CommandError(51144, `Builtin variable '$$${undefinedVariable[1]}' is not available`);
    if (undefinedVariable) throw new CommandError(17276, message);
    throw new CommandError(ErrorCodes.BadValue, message);
  }
  // The copies share what the results share: a whole-partition $setWindowFields output, one array held
  // by every document of its partition, is copied once, not once per document (n² values). MongoDB
  // holds such a value once too (Value is reference-counted) and serializes it batch by batch.
  const copy = sharingCopier();
  result = result.map((d) => {
    checkResultSize(d);
    return copy(d);
  });
  // A score is metadata in MongoDB, never a field: not in a document that `$$ROOT` or a `$facet` nested.
  if (text || searched || subText) dropScoreFields(result);
  if (out) {
    if (args.txn)
      throw new CommandError(
        ErrorCodes.OperationNotSupportedInTransaction,
        `${out.kind} cannot be used in a transaction`,
      );
    writeOut(engine, args.db, out.kind, out.spec, result, args.variables, args.collation);
    return [];
  }
  return result;
}

/**
 * The stage with its `{ $meta: … }` expressions and sort keys replaced as meta-fields.ts answers them
 * (the hidden score fields, `$$REMOVE`, or its errors).
 */
function rewriteMeta(value: unknown, sources: MetaSources): Doc {
  if (isPlainObject(value) && isPlainObject(value['$sort'])) {
    const sort: Doc = {};
    for (const [k, v] of Object.entries(value['$sort'])) {
      if (!isPlainObject(v)) sort[k] = v;
      else {
        const field = metaSortField(v, sources);
        if (field) sort[field] = -1;
      }
    }
    // A sort by randVal alone keeps the order (meta-fields.ts).
    return Object.keys(sort).length > 0 ? { $sort: sort } : { $skip: 0 };
  }
  const name = isPlainObject(value) ? Object.keys(value)[0] : undefined;
  const spec = name === undefined ? undefined : (value as Doc)[name];
  // A $facet branch reads the very documents, with their metadata; the $sort of any sub-pipeline is a
  // $sort too.
  if (name === '$facet' && isPlainObject(spec)) {
    const branches: Doc = {};
    for (const [k, v] of Object.entries(spec))
      branches[k] = Array.isArray(v) ? rewriteMetaStages(v as Doc[], sources) : v;
    return { $facet: branches };
  }
  if (
    (name === '$lookup' || name === '$unionWith') &&
    isPlainObject(spec) &&
    Array.isArray(spec['pipeline'])
  ) {
    const { pipeline, ...rest } = spec;
    // The sub-pipeline reads other documents: only its own leading $text or $search scores them.
    const head = (pipeline as unknown[])[0];
    const searched = isPlainObject(head) && '$search' in head;
    const inner = { text: isTextMatch(head), searched, sampled: false, sorted: false };
    return {
      [name]: {
        ...rewriteMeta(rest, sources),
        pipeline: rewriteMetaStages(pipeline as Doc[], inner),
      },
    };
  }
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!isPlainObject(v) || '$literal' in v) return v;
    if (isMeta(v)) return metaExpression(v['$meta'], sources);
    const o: Doc = {};
    for (const [k, x] of Object.entries(v)) o[k] = walk(x);
    return o;
  };
  return walk(value) as Doc;
}

/** The stages of a sub-pipeline, each through `rewriteMeta`, noting the `$sample` and `$sort` it passes. */
function rewriteMetaStages(pipeline: readonly Doc[], outer: MetaSources): Doc[] {
  const sources = { ...outer };
  return pipeline.map((stage) => {
    if (!isPlainObject(stage)) return stage;
    const rewritten = rewriteMeta(stage, sources);
    if ('$sample' in stage) sources.sampled = true;
    if ('$sort' in stage) sources.sorted = true;
    return rewritten;
  });
}

/** Inputs of a read on a view: the stages that follow the view's own. */
export interface ViewRead {
  view: Collection;
  pipeline: Doc[];
  variables?: Doc | undefined;
  txn: Transaction | undefined;
  /** The command's memory limits; absent, those in force. */
  memory?: MemoryLimits | undefined;
}

/**
 * Runs the view's pipeline, then `read.pipeline`, on the view's source collection. Here rather than in
 * views.ts: reading a view is an aggregation, and an aggregation may read a view (`$lookup`, `$unionWith`).
 */
export function readView(engine: Engine, read: ViewRead): Doc[] {
  const resolved = resolveView(engine, read.view, read.txn);
  return runAggregate(engine, {
    db: read.view.db,
    collection: resolved.source,
    pipeline: [...resolved.pipeline, ...read.pipeline],
    ...(resolved.collation ? { collation: resolved.collation } : {}),
    ...(read.variables ? { variables: read.variables } : {}),
    ...(read.txn ? { txn: read.txn } : {}),
    ...(read.memory ? { memory: read.memory } : {}),
  });
}
