/**
 * A scenario for the wire fuzzer that checks `find` against `aggregate`: the same filter, sort, skip,
 * limit and projection sent as a `find` and as `$match`, `$sort`, `$skip`, `$limit` and `$project`
 * stages. MongoDB answers both from the same query semantics (since 4.4 a find projection is an
 * aggregation projection, the manual's Projection Restrictions), so the two answers must be the same
 * documents in the same order, or the same error.
 */
import { BSON } from 'bson';
import { indexDoc, indexFilter } from './index-scenarios.js';
import { run, type ScenarioContext } from './scenarios.js';

type Doc = Record<string, unknown>;

const ejson = (value: unknown): string => BSON.EJSON.stringify(value, { relaxed: false });

const SORTS: Doc[] = [
  { _id: 1 },
  { k: 1, _id: 1 },
  { n: -1, _id: 1 },
  { 'arr.id': 1, _id: -1 },
  { s: 1, _id: 1 },
  { nums: -1, _id: 1 },
  { 'nested.x.y': 1, k: -1, _id: 1 },
  { zz: 1, _id: -1 },
];

const PROJECTIONS: (Doc | undefined)[] = [
  undefined,
  { k: 1 },
  { k: 0 },
  { 'arr.id': 1 },
  { nested: 0, s: 0 },
  { _id: 0, k: 1, 'nested.x': 1 },
  { n: 1, 'arr.v': 1 },
  { 'arr.v': 0, _id: 0 },
  { nums: 1, zz: 1 },
];

/** The documents or the error code of a reply. */
function answerOf(reply: Doc | undefined): string {
  if (reply === undefined) return 'no reply';
  if (reply.ok !== 1) return `error ${String(reply.code)}`;
  return (((reply.cursor as Doc | undefined)?.firstBatch as Doc[] | undefined) ?? []).map(ejson).join('\n');
}

/** Random reads sent as a find and as the equivalent pipeline; a difference is a finding. */
async function findVersusAggregate(ctx: ScenarioContext): Promise<void> {
  const { r } = ctx;
  if (r.chance(0.3))
    await run(ctx, ctx.a, {
      createIndexes: ctx.coll,
      indexes: [{ key: r.pick<Doc>([{ k: 1 }, { 'arr.id': 1 }, { n: -1, k: 1 }, { nums: 1 }]), name: 'i' }],
    });
  const docs = Array.from({ length: 5 + r.int(30) }, (_, i) => indexDoc(r, i));
  await run(ctx, ctx.a, { insert: ctx.coll, documents: docs, ordered: false });
  for (let read = 0; read < 10; read++) {
    const filter = indexFilter(r);
    const sort = r.pick(SORTS);
    const skip = r.chance(0.3) ? 1 + r.int(5) : 0;
    const limit = r.chance(0.3) ? 1 + r.int(8) : 0;
    const projection = r.pick(PROJECTIONS);
    const find: Doc = { find: ctx.coll, filter, sort, batchSize: 100_000 };
    if (skip) find.skip = skip;
    if (limit) find.limit = limit;
    if (projection) find.projection = projection;
    const pipeline: Doc[] = [{ $match: filter }, { $sort: sort }];
    if (skip) pipeline.push({ $skip: skip });
    if (limit) pipeline.push({ $limit: limit });
    if (projection) pipeline.push({ $project: projection });
    const a = answerOf(await run(ctx, ctx.a, find));
    const b = answerOf(
      await run(ctx, ctx.b, { aggregate: ctx.coll, pipeline, cursor: { batchSize: 100_000 } }),
    );
    if (a !== b)
      ctx.record('find and aggregate differ', `${ejson(find)}:\n${a.slice(0, 600)}\nvs\n${b.slice(0, 600)}`);
  }
}

/** The scenarios, by name. */
export const FIND_AGGREGATE_SCENARIOS: Record<string, (ctx: ScenarioContext) => Promise<void>> = {
  findVersusAggregate,
};
