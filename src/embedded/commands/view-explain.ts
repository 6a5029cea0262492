/**
 * `explain` of a `find`, `aggregate` or `count` on a view, as MongoDB answers it: the read is converted to
 * an aggregation (query_request_conversion.cpp, count_command_as_aggregation_command.cpp), the view is
 * resolved to its source collection, and the aggregation explained is that expanded one
 * (ResolvedView::asExpandedViewAggregation: `{ aggregate: <source>, pipeline: [...view stages, ...read
 * stages] }`, with the view's collation). So `queryPlanner.namespace` names the source collection
 * (jstests/core/views/views_find.js) and `command` holds the expanded aggregation. The plan reported is the
 * one for the pipeline's leading `$match` stages, which MongoDB pushes into the query on the source.
 */
import { describeCollation } from '../engine/collation.js';
import type { Collection } from '../engine/collection.js';
import { evaluateLet } from '../engine/let-variables.js';
import { prepareFilter } from '../engine/query.js';
import { queryStats } from '../engine/read.js';
import { isPlainObject } from '../engine/values.js';
import type { Doc } from '../engine/values.js';
import { readView } from '../engine/aggregate.js';
import { resolveView, viewCollation } from '../engine/views.js';
import { parseCollation } from './collation.js';
import type { CommandContext } from './context.js';
import { planStage } from './explain-plan.js';
import { countStages, findStages } from './views.js';

/** The stages the explained read adds after the view's, or undefined for a command not converted here. */
function readStages(inner: Doc, name: string, forExplain: boolean): Doc[] | undefined {
  if (name === 'find') return findStages(inner);
  if (name === 'count') return countStages(inner, forExplain);
  if (name === 'aggregate' && Array.isArray(inner['pipeline'])) return inner['pipeline'] as Doc[];
  return undefined;
}

/**
 * The filter of the leading `$match` stages, as MongoDB's optimizer joins them (`{ $and: [...] }` for
 * several; empty ones drop out), or `{}` when the pipeline does not start with one.
 */
function leadingFilter(pipeline: Doc[]): Doc {
  const filters: Doc[] = [];
  for (const stage of pipeline) {
    const match = stage['$match'];
    if (Object.keys(stage).length !== 1 || !isPlainObject(match)) break;
    if (Object.keys(match).length > 0) filters.push(match);
  }
  if (filters.length === 0) return {};
  return filters.length === 1 ? filters[0]! : { $and: filters };
}

/**
 * The explain reply body (`queryPlanner`, `executionStats` unless `verbosity` is 'queryPlanner', and
 * `command`) of the read `inner` on `view`, or undefined when `inner` is not a find, aggregate or count.
 * @throws CommandError OptionNotSupportedOnView (167) for a collation other than the view's, the read's own
 *   argument errors, ViewDepthLimitExceeded (165), and the pipeline's errors when it runs.
 */
export function explainOnView(
  ctx: CommandContext,
  inner: Doc,
  verbosity: string,
  view: Collection,
): Doc | undefined {
  const name = Object.keys(inner)[0] ?? '';
  const stages = readStages(inner, name, true);
  if (!stages) return undefined;
  viewCollation(view, parseCollation(inner['collation']), inner['collation'] !== undefined);
  const engine = ctx.core.engine;
  const resolved = resolveView(engine, view, ctx.txn);
  const pipeline = [...resolved.pipeline, ...stages];
  const parsedQuery = leadingFilter(pipeline);
  const stage = resolved.source
    ? planStage(prepareFilter(parsedQuery), resolved.source.state.indexes)
    : 'COLLSCAN';
  const reply: Doc = {
    queryPlanner: {
      plannerVersion: 1,
      namespace: `${ctx.db}.${resolved.sourceName}`,
      parsedQuery,
      winningPlan: { stage },
      rejectedPlans: [],
    },
  };
  if (verbosity !== 'queryPlanner') {
    const started = Date.now();
    const before = queryStats.scannedObjects;
    // The documents the read returns (a count's, before they are counted).
    const docs = readView(engine, {
      view,
      pipeline: readStages(inner, name, false)!,
      variables: evaluateLet(inner['let']),
      txn: ctx.txn,
    });
    const examined = queryStats.scannedObjects - before;
    reply['executionStats'] = {
      executionSuccess: true,
      nReturned: docs.length,
      executionTimeMillis: Date.now() - started,
      totalKeysExamined: stage === 'COLLSCAN' ? 0 : examined,
      totalDocsExamined: examined,
    };
  }
  reply['command'] = {
    aggregate: resolved.sourceName,
    pipeline,
    ...(resolved.collation ? { collation: describeCollation(resolved.collation) } : {}),
  };
  return reply;
}
