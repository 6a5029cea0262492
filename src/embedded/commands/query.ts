/** Read commands: find, getMore, killCursors, aggregate, count, distinct, explain. */
import { checkGetMoreOwner, cursorOwner } from './cursor-owner.js';
import { Long } from 'bson';
import { runAggregate } from '../engine/aggregate.js';
import { hintedState } from '../engine/hinted-state.js';
import { filterBounds, hintedScan } from '../engine/hinted-order.js';
import type { Index } from '../engine/indexes.js';
import { evaluateLet } from '../engine/let-variables.js';
import { readableCollection } from '../engine/system-views.js';
import { expandListLocalSessions } from './local-sessions.js';
import { matchDocs, queryStats, runQuery } from '../engine/read.js';
import { withoutValidation } from '../engine/write.js';
import { bypassesValidation } from './idl-fields.js';
import { parseFilter, parseFind } from '../engine/find-parse.js';
import { checkFindSort } from '../engine/sort-pattern.js';
import { prepareFilter, splitText } from '../engine/query.js';
import {
  checkCountTarget,
  checkDistinct,
  checkFindOptions,
  checkFindTarget,
  findCount,
  isIdLookup,
  getMoreCollection,
  killCursorIds,
} from '../engine/read-arguments.js';
import { bsonTypeName, isPlainObject, keyOf } from '../engine/values.js';
import { compareBson } from '../engine/compare.js';
import { elementsAlongPath } from '../engine/path-elements.js';
import type { Doc } from '../engine/values.js';
import { CommandError, ErrorCodes } from '../errors.js';
import type { Collection } from '../engine/collection.js';
import type { CommandContext, Handler } from './context.js';
import { changeStreamGetMore, isChangeStream, openChangeStream } from './change-stream.js';
import { isView } from '../engine/views.js';
import { aggregateOnView, countOnView, distinctOnView, findOnView } from './views.js';
import { planStage } from './explain-plan.js';
import { keyIndex, namesIdIndex, returnedKey, scanDirection } from '../engine/return-key.js';
import { idIndex } from '../engine/index-order.js';
import { boundedState, indexBounds, withinBounds } from '../engine/min-max.js';
import { explainOnView } from './view-explain.js';
import { checkKnownFields } from './known-fields.js';
import {
  batchSizeOf,
  collationFor,
  collectionName,
  docOption,
  intOption,
  memoryLimitsFor,
  retryBlocked,
} from './context.js';

/** The collection a read names (a view, or the derived `system.views`, included). */
function readCollection(cmd: Doc, ctx: CommandContext) {
  return readableCollection(ctx.core.engine, ctx.db, collectionName(cmd), ctx.txn);
}

/**
 * Checks that a `hint` names an existing index (by name or key pattern), like MongoDB, and returns
 * that index when it is a secondary one.
 * @throws CommandError BadValue (2) otherwise.
 */
export function checkHint(hint: unknown, coll: Collection | undefined): Index | undefined {
  if (hint === undefined || hint === null || !coll) return undefined;
  if (typeof hint === 'string') {
    if (hint === '_id_') return undefined;
    const index = coll.state.index(hint);
    if (index) return index;
  } else if (typeof hint === 'object' && !Array.isArray(hint)) {
    const key = keyOf(hint);
    if (Object.keys(hint).length === 0 || '$natural' in hint || key === keyOf({ _id: 1 })) return undefined;
    const index = coll.state.indexes.find((i) => keyOf(i.spec.key) === key);
    if (index) return index;
  }
  throw new CommandError(
    ErrorCodes.BadValue,
    'error processing query: planner returned error :: caused by :: hint provided does not correspond to an existing index',
  );
}

const find: Handler = (cmd, ctx) => {
  checkFindTarget(cmd);
  checkFindOptions(cmd);
  const name = collectionName(cmd);
  const coll = readCollection(cmd, ctx);
  if (isView(coll)) {
    ctx.core.opcounters.query++;
    return findOnView(cmd, ctx, coll);
  }
  const hinted = checkHint(cmd['hint'], coll);
  const ns = `${ctx.db}.${name}`;
  // The find command takes no negative limit (drivers turn a legacy negative limit into singleBatch).
  const limit = findCount(cmd, 'limit') ?? 0;
  const singleBatch = cmd['singleBatch'] === true;
  const skip = findCount(cmd, 'skip') ?? 0;
  const filter = docOption(cmd, 'filter');
  // returnKey answers keys in place of documents, so the projection does not apply.
  const returnKey = cmd['returnKey'] === true;
  const projection = returnKey ? undefined : docOption(cmd, 'projection');
  ctx.core.opcounters.query++;
  const sort = docOption(cmd, 'sort');
  let docs: Doc[] = [];
  if (coll) {
    const state = ctx.core.engine.readState(coll, ctx.txn);
    const collation = collationFor(cmd, coll);
    const variables = evaluateLet(cmd['let']);
    const id = idIndex(coll.options.collation);
    const hintIndex = hinted ?? (namesIdIndex(cmd['hint']) ? id : undefined);
    const bounds = indexBounds(cmd['min'], cmd['max'], hintIndex, isIdLookup(filter), collation);
    const read = hintedState(state, hinted);
    // A min/max scan is already in index order; other hinted reads are put in it.
    const scan = bounds ? undefined : hintedScan(cmd['hint'], hinted, id);
    docs = runQuery(bounds ? boundedState(read, bounds) : read, {
      filter,
      ...(scan ? { scan } : {}),
      sort,
      projection,
      skip,
      limit,
      collation,
      variables,
      memory: memoryLimitsFor(cmd, ctx),
      // returnKey answers keys, which carry no record id (return_key.cpp clears it).
      showRecordId: cmd['showRecordId'] === true && !returnKey,
    });
    if (returnKey) {
      const prepared = parseFilter(filter, variables);
      const index = keyIndex(state, cmd['hint'], hinted, id, prepared, collation);
      // The scan's bounds are min/max's when given (the filter then only filters), else the filter's.
      const reads = bounds
        ? withinBounds(bounds)
        : index && filterBounds(index, splitText(prepared).rest, collation);
      // A min/max scan is a simple range, which no multikey index reads backwards for a sort.
      const direction = bounds ? 1 : scanDirection(index, sort, prepared);
      docs = docs.map((doc) => returnedKey(index, doc, reads, direction));
    }
  } else {
    // MongoDB parses the query before it looks for the collection.
    parseFind(filter, projection, evaluateLet(cmd['let']));
    checkFindSort(sort);
  }
  return ctx.core.cursors.open(ns, docs, cursorOwner(ctx), {
    batchSize: batchSizeOf(cmd['batchSize'], 'FindCommandRequest.batchSize'),
    singleBatch,
    lazyEnd: coll !== undefined && !(limit > 0 && docs.length >= limit) && !isIdLookup(filter),
  });
};

/** A cursor id as MongoDB takes it: an int64, nothing else. @throws CommandError TypeMismatch. */
function cursorId(raw: unknown, field: string): Long {
  if (Long.isLong(raw)) return raw;
  throw new CommandError(
    ErrorCodes.TypeMismatch,
    `BSON field '${field}' is the wrong type '${bsonTypeName(raw)}', expected type 'long'`,
  );
}

const getMore: Handler = (cmd, ctx) => {
  const id = cursorId(cmd['getMore'], 'getMore.getMore');
  const collection = getMoreCollection(cmd);
  // MongoDB checks batchSize when it parses the command, before it looks the cursor up.
  const batchSize = batchSizeOf(cmd['batchSize'], 'getMore.batchSize');
  const cursor = ctx.core.cursors.get(id);
  if (!cursor) throw new CommandError(ErrorCodes.CursorNotFound, `cursor id ${id.toString()} not found`);
  checkGetMoreOwner(ctx, cursor);
  const ns = `${ctx.db}.${collection}`;
  if (cursor.ns !== ns)
    throw new CommandError(
      ErrorCodes.Unauthorized,
      `Requested getMore on namespace '${ns}', but cursor belongs to a different namespace ${cursor.ns}`,
    );
  ctx.core.opcounters.getmore++;
  if (cursor.stream) return changeStreamGetMore(cmd, ctx, cursor);
  return ctx.core.cursors.more(cursor, batchSize);
};

const killCursors: Handler = (cmd, ctx) => {
  const ids = cmd['cursors'];
  if (!Array.isArray(ids))
    throw new CommandError(
      ErrorCodes.FailedToParse,
      "BSON field 'killCursors.cursors' is missing but a required field",
    );
  const killed: Long[] = [];
  const notFound: Long[] = [];
  for (const id of killCursorIds(ids)) (ctx.core.cursors.kill(id) ? killed : notFound).push(id);
  ctx.core.engine.history.nudge();
  return { cursorsKilled: killed, cursorsNotFound: notFound, cursorsAlive: [], cursorsUnknown: [], ok: 1 };
};

const aggregate: Handler = (cmd, ctx) => {
  const target = cmd['aggregate'];
  const pipeline = cmd['pipeline'];
  if (!Array.isArray(pipeline))
    throw new CommandError(ErrorCodes.TypeMismatch, "'pipeline' option must be specified as an array");
  if (cmd['explain'] === true) return explainReply(ctx, { aggregate: target, pipeline });
  if (cmd['cursor'] === undefined)
    throw new CommandError(
      ErrorCodes.FailedToParse,
      "The 'cursor' option is required, except for aggregate with the explain argument",
    );
  const cursorSpec = cmd['cursor'];
  if (typeof cursorSpec !== 'object' || cursorSpec === null || Array.isArray(cursorSpec))
    throw new CommandError(ErrorCodes.TypeMismatch, 'cursor field must be missing or an object');
  if (isChangeStream(pipeline)) return openChangeStream(cmd, ctx);
  const isCollectionless = target === 1 || (typeof target === 'number' && target === 1);
  const name = isCollectionless ? undefined : collectionName(cmd);
  const coll = name ? readableCollection(ctx.core.engine, ctx.db, name, ctx.txn) : undefined;
  ctx.core.opcounters.command++;
  // `bypassDocumentValidation` concerns the documents a final $out or $merge writes.
  const bypass = bypassesValidation(cmd);
  // `$out` and `$merge` write nothing while an open transaction holds what they would write
  // (out-stage.ts, merge-stage.ts): they wait and run again, as a plain write does.
  const last: unknown = pipeline[pipeline.length - 1];
  const writes = isPlainObject(last) && ('$out' in last || '$merge' in last);
  if (isView(coll)) {
    const onView = (): Doc =>
      withoutValidation(bypass, () => aggregateOnView(cmd, ctx, coll, pipeline as Doc[]));
    return writes ? retryBlocked(ctx, onView) : onView();
  }
  const hint = checkHint(cmd['hint'], coll);
  const scan = hintedScan(cmd['hint'], hint, idIndex(coll?.options.collation));
  const run = (): Doc[] =>
    withoutValidation(bypass, () =>
      runAggregate(ctx.core.engine, {
        db: ctx.db,
        collection: coll,
        target: isCollectionless ? 'database' : 'collection',
        pipeline: expandListLocalSessions(ctx.core, ctx.db, target, pipeline as Doc[]),
        collation: collationFor(cmd, coll),
        variables: evaluateLet(cmd['let']),
        txn: ctx.txn,
        ...(hint ? { hint } : {}),
        ...(scan ? { scan } : {}),
        memory: memoryLimitsFor(cmd, ctx),
      }),
    );
  const open = (docs: Doc[]): Doc => {
    const cursorOpts = docOption(cmd, 'cursor') ?? {};
    return ctx.core.cursors.open(`${ctx.db}.${name ?? '$cmd.aggregate'}`, docs, cursorOwner(ctx), {
      batchSize: batchSizeOf(cursorOpts['batchSize'], 'cursor.batchSize'),
      // A pipeline notices its end only when a read past the last document fails.
      lazyEnd: true,
    });
  };
  if (writes) return retryBlocked(ctx, run).then(open);
  return open(run());
};

const count: Handler = (cmd, ctx) => {
  checkCountTarget(cmd);
  const coll = readCollection(cmd, ctx);
  if (isView(coll)) return countOnView(cmd, ctx, coll);
  const hinted = checkHint(cmd['hint'], coll);
  const query = docOption(cmd, 'query');
  // MongoDB parses the filter even when the collection does not exist (SERVER-8514).
  if (!coll) {
    parseFilter(query ?? {}, undefined);
    return { n: 0, ok: 1 };
  }
  const state = hintedState(ctx.core.engine.readState(coll, ctx.txn), hinted);
  let n =
    query && Object.keys(query).length > 0
      ? matchDocs(state, query, collationFor(cmd, coll)).docs.length
      : state.docs.size;
  const skip = intOption(cmd, 'skip') ?? 0;
  const limit = Math.abs(intOption(cmd, 'limit') ?? 0);
  n = Math.max(0, n - skip);
  if (limit > 0) n = Math.min(n, limit);
  return { n, ok: 1 };
};

const distinct: Handler = (cmd, ctx) => {
  const key = checkDistinct(cmd, ctx.db);
  const coll = readCollection(cmd, ctx);
  // ParsedDistinct::parse parses the filter before the collection is looked at.
  if (!coll) {
    parseFilter(docOption(cmd, 'query') ?? {}, undefined);
    return { values: [], ok: 1 };
  }
  const { docs, collation } = isView(coll)
    ? distinctOnView(cmd, ctx, coll, key)
    : {
        collation: collationFor(cmd, coll),
        docs: matchDocs(
          ctx.core.engine.readState(coll, ctx.txn),
          docOption(cmd, 'query') ?? {},
          collationFor(cmd, coll),
        ).docs,
      };
  // distinct.cpp keeps the values in a BSONElementSet: one of each under the collation, in BSON order.
  const seen = new Map<string, unknown>();
  for (const doc of docs) {
    for (const v of elementsAlongPath(doc, key)) {
      const k = keyOf(v, collation);
      if (!seen.has(k)) seen.set(k, v);
    }
  }
  return { values: [...seen.values()].sort((a, b) => compareBson(a, b, collation)), ok: 1 };
};

function explainReply(ctx: CommandContext, inner: Doc, verbosity = 'queryPlanner'): Doc {
  const name = Object.keys(inner)[0] ?? 'find';
  const collName = inner[name];
  const coll =
    typeof collName === 'string'
      ? readableCollection(ctx.core.engine, ctx.db, collName, undefined)
      : undefined;
  // A read on a view is explained as the aggregation it becomes on the view's source (view-explain.ts).
  const onView = isView(coll) ? explainOnView(ctx, inner, verbosity, coll) : undefined;
  if (onView) return { ...onView, serverInfo: { host: ctx.core.settings.me, version: '7.0.0' }, ok: 1 };
  const filter = (inner['filter'] ?? inner['query'] ?? {}) as Doc;
  const stage = coll ? planStage(prepareFilter(filter), coll.state.indexes) : 'COLLSCAN';
  const reply: Doc = {
    queryPlanner: {
      plannerVersion: 1,
      namespace: `${ctx.db}.${String(collName)}`,
      parsedQuery: filter,
      winningPlan: { stage },
      rejectedPlans: [],
    },
  };
  if (verbosity !== 'queryPlanner' && (name === 'find' || name === 'count')) {
    const started = Date.now();
    const before = queryStats.scannedObjects;
    const docs = coll
      ? runQuery(ctx.core.engine.readState(coll, ctx.txn), {
          filter,
          sort: docOption(inner, 'sort'),
          skip: intOption(inner, 'skip'),
          limit: Math.abs(intOption(inner, 'limit') ?? 0),
          collation: collationFor(inner, coll),
        })
      : [];
    reply['executionStats'] = {
      executionSuccess: true,
      nReturned: docs.length,
      executionTimeMillis: Date.now() - started,
      totalKeysExamined: stage === 'COLLSCAN' ? 0 : queryStats.scannedObjects - before,
      totalDocsExamined: queryStats.scannedObjects - before,
    };
  }
  return {
    ...reply,
    command: inner,
    serverInfo: { host: ctx.core.settings.me, version: '7.0.0' },
    ok: 1,
  };
}

const explain: Handler = (cmd, ctx) => {
  const inner = docOption(cmd, 'explain');
  if (!inner) throw new CommandError(ErrorCodes.BadValue, 'explain command requires a nested object');
  // MongoDB parses the explained command with its own parser: its unknown fields are refused too.
  checkKnownFields(Object.keys(inner)[0] ?? '', inner);
  return explainReply(ctx, inner, typeof cmd['verbosity'] === 'string' ? cmd['verbosity'] : 'queryPlanner');
};

/** Handlers by command name. */
export const queryCommands: Record<string, Handler> = {
  find,
  getMore,
  killCursors,
  aggregate,
  count,
  distinct,
  explain,
};
