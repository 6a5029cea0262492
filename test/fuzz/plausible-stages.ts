/**
 * Pipelines whose stages are well-formed, for the wire fuzzer: grammar.ts' stages have hostile
 * arguments and most fail at parse time, so the execution paths behind the parser (joins, windows,
 * buckets, densify and fill over mixed types, `$merge` into the collection being read) are reached
 * only by well-formed ones. Field names are those of the fuzzer's seed documents.
 */
import { expression } from './grammar.js';
import type { Random } from './hostile-values.js';

type Stage = Record<string, unknown>;

const FIELDS = ['a', 'b', 'n', 's', 'arr', 'd', 'x', 'x.y', 'a.b', 'arr.a'];
const ACCUMULATORS = ['$sum', '$avg', '$min', '$max', '$first', '$last', '$push', '$addToSet', '$stdDevPop'];

/** An expression over the seed documents' fields that usually evaluates. */
function value(r: Random): unknown {
  return r.pick<unknown>([
    `$${r.pick(FIELDS)}`,
    { $add: [`$${r.pick(FIELDS)}`, 1] },
    { $size: { $ifNull: ['$arr', []] } },
    { $concat: [{ $toString: '$_id' }, '-'] },
    { $cond: [{ $gt: ['$n', 0] }, '$n', null] },
    { $type: `$${r.pick(FIELDS)}` },
    { $mergeObjects: ['$x', { k: 1 }] },
    r.int(5),
    null,
    r.chance(0.2) ? expression(r, 1) : '$$ROOT',
  ]);
}

/** A group or window accumulator, the N-taking ones with their `n` and `sortBy`. */
function accumulator(r: Random): Stage {
  const roll = r.int(ACCUMULATORS.length + 6);
  if (roll < ACCUMULATORS.length) return { [ACCUMULATORS[roll]!]: value(r) };
  const sortBy = { [r.pick(FIELDS)]: r.pick([1, -1]) };
  return r.pick<Stage>([
    { $count: {} },
    { $topN: { n: 2, sortBy, output: value(r) } },
    { $bottom: { sortBy, output: value(r) } },
    { $firstN: { n: r.pick([1, 3]), input: value(r) } },
    { $maxN: { n: 2, input: value(r) } },
    { $median: { input: '$n', method: 'approximate' } },
  ]);
}

/** One well-formed stage. `depth` bounds sub-pipelines. */
export function plausibleStage(r: Random, depth = 1): Stage {
  const sub = (): Stage[] => (depth > 0 ? plausiblePipeline(r, depth - 1) : []);
  const other = r.pick(['c', 'd', 'v', 'missing']);
  switch (r.int(22)) {
    case 0:
      return {
        $match: { [r.pick(FIELDS)]: r.pick<unknown>([{ $exists: true }, { $gte: 1 }, { $type: 'array' }]) },
      };
    case 1:
      return { $group: { _id: value(r), g1: accumulator(r), g2: accumulator(r) } };
    case 2:
      return {
        $bucket: {
          groupBy: '$n',
          boundaries: [-10, 0, 5, 100],
          default: 'other',
          output: { o: accumulator(r) },
        },
      };
    case 3:
      return {
        $bucketAuto: { groupBy: value(r), buckets: r.pick([1, 2, 7]), output: { o: accumulator(r) } },
      };
    case 4:
      return { $sortByCount: value(r) };
    case 5:
      return {
        $setWindowFields: {
          ...(r.chance(0.5) ? { partitionBy: '$b' } : {}),
          sortBy: { [r.pick(['n', '_id', 'd'])]: r.pick([1, -1]) },
          output: {
            w: {
              ...r.pick<Stage>([
                accumulator(r),
                { $rank: {} },
                { $documentNumber: {} },
                { $shift: { output: '$n', by: r.pick([-1, 1, 2]), default: 0 } },
                { $locf: '$n' },
                { $linearFill: '$n' },
                { $derivative: { input: '$n' } },
                { $integral: { input: '$n' } },
                { $expMovingAvg: { input: '$n', N: 2 } },
              ]),
              ...(r.chance(0.5)
                ? {
                    window: {
                      documents: r.pick([
                        ['unbounded', 'current'],
                        [-1, 1],
                      ]),
                    },
                  }
                : {}),
            },
          },
        },
      };
    case 6:
      return {
        $densify: {
          field: r.pick(['n', 'd', '_id']),
          range: { step: r.pick([1, 2.5]), bounds: r.pick<unknown>(['full', 'partition', [0, 10]]) },
        },
      };
    case 7:
      return {
        $fill: {
          sortBy: { _id: 1 },
          output: {
            [r.pick(['n', 'a', 's'])]: r.chance(0.5) ? { method: r.pick(['locf', 'linear']) } : { value: 0 },
          },
        },
      };
    case 8:
      return {
        $redact: {
          $cond: [{ $eq: [{ $type: '$a' }, 'object'] }, r.pick(['$$DESCEND', '$$PRUNE']), '$$KEEP'],
        },
      };
    case 9:
      return { $replaceWith: r.pick<unknown>(['$x', '$$ROOT', { $mergeObjects: ['$$ROOT', '$x'] }, '$a']) };
    case 10:
      return {
        $unwind: {
          path: r.pick(['$arr', '$a', '$a.c']),
          includeArrayIndex: r.pick(['i', 'arr']),
          preserveNullAndEmptyArrays: r.chance(0.5),
        },
      };
    case 11:
      return { $sample: { size: r.pick([0, 1, 3, 1000]) } };
    case 12:
      return r.chance(0.5)
        ? { $lookup: { from: other, localField: r.pick(FIELDS), foreignField: r.pick(FIELDS), as: 'j' } }
        : {
            $lookup: {
              from: other,
              let: { v: '$n' },
              pipeline: [{ $match: { $expr: { $eq: ['$n', '$$v'] } } }, ...sub()],
              as: 'j',
            },
          };
    case 13:
      return {
        $graphLookup: {
          from: other,
          startWith: value(r),
          connectFromField: r.pick(FIELDS),
          connectToField: r.pick(['_id', 'a', 'n']),
          as: 'g',
          maxDepth: r.pick([0, 2, 10]),
          depthField: 'depth',
        },
      };
    case 14:
      return { $facet: { f: sub(), g: sub() } };
    case 15:
      return { $unionWith: { coll: other, pipeline: sub() } };
    case 16:
      return {
        $merge: {
          into: r.pick<unknown>(['c', 'd', 'm', { db: 'fuzz', coll: 'm' }]),
          on: '_id',
          whenMatched: r.pick<unknown>([
            'merge',
            'replace',
            'keepExisting',
            'fail',
            [{ $set: { merged: true } }],
          ]),
          whenNotMatched: r.pick(['insert', 'discard', 'fail']),
        },
      };
    case 17:
      return { $out: r.pick(['o', 'd']) };
    case 18:
      return { $project: { [r.pick(FIELDS)]: r.pick<unknown>([1, 0, value(r)]) } };
    case 19:
      return { $sort: { [r.pick(FIELDS)]: r.pick([1, -1]) } };
    case 20:
      return { $addFields: { [r.pick(['z', 'a', 'x.y', 'arr'])]: value(r) } };
    default:
      return { $limit: r.pick([1, 2, 100]) };
  }
}

/** A pipeline of one to four well-formed stages; `$out` and `$merge` only ever end it. */
export function plausiblePipeline(r: Random, depth = 1): Stage[] {
  const stages: Stage[] = [];
  for (let i = 1 + r.int(4); i > 0; i--) {
    const next = plausibleStage(r, depth);
    if ('$out' in next || '$merge' in next) {
      if (depth === 1 && i === 1) stages.push(next);
      continue;
    }
    stages.push(next);
  }
  return stages;
}
