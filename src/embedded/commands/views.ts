/**
 * Commands on views (see engine/views.ts): `create` with `viewOn`, `collMod` of a view's definition, and
 * the reads MongoDB runs on a view as an aggregation after the view's pipeline (`find`, `aggregate`,
 * `count`, `distinct`). Codes and messages are MongoDB 7.0's (view_catalog.cpp, the "Views" and
 * "db.createView()" manual pages).
 */
import { cursorOwner } from './cursor-owner.js';
import { runAggregate } from '../engine/aggregate.js';
import type { Collation } from '../engine/collation.js';
import { sameCollation } from '../engine/collation.js';
import type { Collection } from '../engine/collection.js';
import type { Engine } from '../engine/database.js';
import { checkFieldPath } from '../engine/field-path.js';
import { parseFilter } from '../engine/find-parse.js';
import { evaluateLet } from '../engine/let-variables.js';
import { subPipelines } from '../engine/pipeline-check.js';
import { findCount } from '../engine/read-arguments.js';
import { createIn, collectionIn } from '../engine/transaction-ddl.js';
import { bsonTypeName, isPlainObject, keyOf } from '../engine/values.js';
import type { Doc } from '../engine/values.js';
import { readView } from '../engine/aggregate.js';
import { isView, viewCollation } from '../engine/views.js';
import { CommandError, ErrorCodes } from '../errors.js';
import { parseCollation } from './collation.js';
import { isGenericArgument } from './generic-arguments.js';
import type { CommandContext } from './context.js';
import { batchSizeOf, docOption, intOption, memoryLimitsFor } from './context.js';

function wrongType(field: string, value: unknown, expected: string): CommandError {
  return new CommandError(
    ErrorCodes.TypeMismatch,
    `BSON field '${field}' is the wrong type '${bsonTypeName(value)}', expected type '${expected}'`,
  );
}

/** True when `stages` (or a pipeline nested in one of them) writes with `$out` or `$merge`. */
function writesToDisk(stages: Doc[]): string | undefined {
  for (const stage of stages) {
    const name = Object.keys(stage)[0] ?? '';
    if (name === '$out' || name === '$merge') return name;
    const nested = subPipelines(name, stage[name]).map((p) => writesToDisk(p as Doc[]));
    const found = nested.find((n) => n !== undefined);
    if (found) return found;
  }
  return undefined;
}

/**
 * Checks a view definition `db.name` = `pipeline` on `viewOn` as MongoDB does before storing it.
 * @throws CommandError InvalidNamespace (73), OptionNotSupportedOnView (167), GraphContainsCycle (5),
 *   or the pipeline's own parse errors.
 */
function checkDefinition(
  engine: Engine,
  db: string,
  name: string,
  viewOn: string,
  pipeline: Doc[],
  collation: Collation | undefined,
): void {
  if (viewOn === '' || viewOn.includes('$') || viewOn.includes('\0'))
    throw new CommandError(ErrorCodes.InvalidNamespace, `invalid name for 'viewOn': ${viewOn}`);
  pipeline.forEach((stage, i) => {
    if (!isPlainObject(stage)) return;
    const stageName = writesToDisk([stage]);
    if (stageName)
      throw new CommandError(
        ErrorCodes.OptionNotSupportedOnView,
        `The aggregation stage ${stageName} in location ${i} of the pipeline cannot be used in the view definition of ${db}.${name} because it writes to disk`,
      );
  });
  const chain = [name];
  let next: string | undefined = viewOn;
  while (next !== undefined) {
    chain.push(next);
    if (next === name)
      throw new CommandError(
        ErrorCodes.GraphContainsCycle,
        `View cycle detected: [${chain.map((n) => `${db}.${n}`).join(' => ')}]`,
      );
    const coll = engine.collection(db, next);
    if (next === viewOn && isView(coll) && !sameCollation(coll.options.collation, collation))
      throw new CommandError(
        ErrorCodes.OptionNotSupportedOnView,
        `View ${db}.${name} has conflicting collation with view ${db}.${next}`,
      );
    next = isView(coll) ? coll.options['viewOn'] : undefined;
  }
  // The pipeline is parsed (unknown stages, malformed specs) by running it over no documents.
  runAggregate(engine, { db, collection: undefined, pipeline, ...(collation ? { collation } : {}) });
}

/** A view's `pipeline` argument: an array of stage documents. */
function pipelineArgument(value: unknown, command: string): Doc[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw wrongType(`${command}.pipeline`, value, 'array');
  return value as Doc[];
}

/**
 * `create` with `viewOn`: stores the view. The same name with the same definition is accepted again;
 * any other existing namespace of that name is NamespaceExists, as for collections.
 */
export function createView(cmd: Doc, ctx: CommandContext, name: string): Doc {
  const viewOn = cmd['viewOn'];
  if (typeof viewOn !== 'string') throw wrongType('create.viewOn', viewOn, 'string');
  const pipeline = pipelineArgument(cmd['pipeline'], 'create');
  const collation = parseCollation(cmd['collation'], 'create');
  if (ctx.txn)
    throw new CommandError(
      ErrorCodes.OperationNotSupportedInTransaction,
      'Cannot create a view in a multi-document transaction.',
    );
  const engine = ctx.core.engine;
  const options: Doc = { viewOn, pipeline };
  if (collation) options['collation'] = collation;
  // An existing namespace is answered first (ok when identical, else NamespaceExists), as by MongoDB.
  const existing = collectionIn(engine, ctx.db, name, ctx.txn);
  if (existing && keyOf(existing.options) === keyOf(options)) return { ok: 1 };
  if (!existing) checkDefinition(engine, ctx.db, name, viewOn, pipeline, collation);
  createIn(engine, ctx.db, name, ctx.txn, options, true);
  return { ok: 1 };
}

/**
 * `collMod` of a view: `viewOn` and/or `pipeline` replace its definition (its collation stays). Other
 * options do not apply to a view.
 * @throws CommandError InvalidOptions (72) for any other option.
 */
export function modifyView(cmd: Doc, ctx: CommandContext, view: Collection): Doc {
  for (const field of Object.keys(cmd).slice(1)) {
    if (field === 'viewOn' || field === 'pipeline' || field.startsWith('$')) continue;
    if (isGenericArgument(field)) continue;
    throw new CommandError(ErrorCodes.InvalidOptions, `option not supported on a view: ${field}`);
  }
  const viewOn = cmd['viewOn'] ?? view.options['viewOn'];
  if (typeof viewOn !== 'string') throw wrongType('collMod.viewOn', viewOn, 'string');
  const pipeline =
    cmd['pipeline'] === undefined
      ? (view.options['pipeline'] as Doc[])
      : pipelineArgument(cmd['pipeline'], 'collMod');
  checkDefinition(ctx.core.engine, ctx.db, view.name, viewOn, pipeline, view.options.collation);
  view.options['viewOn'] = viewOn;
  view.options['pipeline'] = pipeline;
  ctx.core.engine.emit([{ op: 'create', ns: view.ns, options: view.options }]);
  return { ok: 1 };
}

/** The collation of a read on `view` (its own; a different one asked for is refused). */
function readCollation(cmd: Doc, view: Collection): Collation | undefined {
  return viewCollation(view, parseCollation(cmd['collation']), cmd['collation'] !== undefined);
}

/** A `$match` stage for a non-empty filter. */
function matchStage(filter: Doc | undefined): Doc[] {
  return filter && Object.keys(filter).length > 0 ? [{ $match: filter }] : [];
}

/**
 * The stages a `find` becomes on a view, as MongoDB converts it (query_request_conversion.cpp): `$match`
 * of a non-empty filter, `$sort`, `$skip`, `$limit`, `$project` of a non-empty projection.
 * @throws CommandError the find argument errors of read-arguments.ts (skip and limit).
 */
export function findStages(cmd: Doc): Doc[] {
  const sort = docOption(cmd, 'sort');
  const projection = docOption(cmd, 'projection');
  const skip = findCount(cmd, 'skip') ?? 0;
  const limit = findCount(cmd, 'limit') ?? 0;
  return [
    ...matchStage(docOption(cmd, 'filter')),
    ...(sort && Object.keys(sort).length > 0 ? [{ $sort: sort }] : []),
    ...(skip > 0 ? [{ $skip: skip }] : []),
    ...(limit > 0 ? [{ $limit: limit }] : []),
    ...(projection && Object.keys(projection).length > 0 ? [{ $project: projection }] : []),
  ];
}

/**
 * The stages a `count` becomes on a view, as MongoDB converts it (count_command_as_aggregation_command.cpp):
 * `$match` of a non-empty query, `$skip`, `$limit` (its absolute value), then `$count: 'count'` when
 * `withCount` (the count handler counts the documents itself).
 * @throws CommandError TypeMismatch (14) for a query, skip or limit of the wrong type.
 */
export function countStages(cmd: Doc, withCount: boolean): Doc[] {
  const skip = intOption(cmd, 'skip') ?? 0;
  const limit = Math.abs(intOption(cmd, 'limit') ?? 0);
  return [
    ...matchStage(docOption(cmd, 'query')),
    ...(skip > 0 ? [{ $skip: skip }] : []),
    ...(limit > 0 ? [{ $limit: limit }] : []),
    ...(withCount ? [{ $count: 'count' }] : []),
  ];
}

/** `find` on a view: its filter, sort, skip, limit and projection as stages after the view's. */
export function findOnView(cmd: Doc, ctx: CommandContext, view: Collection): Doc {
  readCollation(cmd, view);
  const docs = readView(ctx.core.engine, {
    view,
    pipeline: findStages(cmd),
    variables: evaluateLet(cmd['let']),
    txn: ctx.txn,
    memory: memoryLimitsFor(cmd, ctx),
  });
  return ctx.core.cursors.open(view.ns, docs, cursorOwner(ctx), {
    batchSize: batchSizeOf(cmd['batchSize'], 'FindCommandRequest.batchSize'),
    singleBatch: cmd['singleBatch'] === true,
    lazyEnd: true,
  });
}

/** `aggregate` on a view: the view's pipeline, then the command's. */
export function aggregateOnView(cmd: Doc, ctx: CommandContext, view: Collection, pipeline: Doc[]): Doc {
  readCollation(cmd, view);
  const docs = readView(ctx.core.engine, {
    view,
    pipeline,
    variables: evaluateLet(cmd['let']),
    txn: ctx.txn,
    memory: memoryLimitsFor(cmd, ctx),
  });
  const cursorOpts = docOption(cmd, 'cursor') ?? {};
  return ctx.core.cursors.open(view.ns, docs, cursorOwner(ctx), {
    batchSize: batchSizeOf(cursorOpts['batchSize'], 'cursor.batchSize'),
    lazyEnd: true,
  });
}

/** `count` on a view: the documents of the view its query, skip and limit keep. */
export function countOnView(cmd: Doc, ctx: CommandContext, view: Collection): Doc {
  readCollation(cmd, view);
  const docs = readView(ctx.core.engine, {
    view,
    pipeline: countStages(cmd, false),
    txn: ctx.txn,
    memory: memoryLimitsFor(cmd, ctx),
  });
  return { n: docs.length, ok: 1 };
}

/**
 * The documents of a view a `distinct` on `key` reads (those its `query` keeps), with the collation to
 * use. MongoDB 7.0 runs it as an aggregation (parsed_distinct.cpp, asAggregationCommand: `$match` of the
 * query, `$replaceRoot` of `$_internalFindAllValuesAtPath` (the values a collection's distinct reads),
 * `$unwind`, `$group` with `$addToSet`), under the view's collation; building it makes `key` a FieldPath,
 * so a key a collection's distinct takes (`''`, `'$a'`, `'a..b'`) fails on a view once the query is
 * parsed, before a document is read.
 * @throws CommandError 167 for a collation other than the view's; 40352, 15998, 40353, 16410 for the key.
 */
export function distinctOnView(
  cmd: Doc,
  ctx: CommandContext,
  view: Collection,
  key: string,
): { docs: Doc[]; collation: Collation | undefined } {
  const collation = readCollation(cmd, view);
  const query = docOption(cmd, 'query');
  parseFilter(query ?? {}, undefined);
  checkFieldPath(key, '', false, true);
  const docs = readView(ctx.core.engine, {
    view,
    pipeline: matchStage(query),
    txn: ctx.txn,
    memory: memoryLimitsFor(cmd, ctx),
  });
  return { docs, collation };
}
