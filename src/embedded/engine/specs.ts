/**
 * Numbers in the specs of operations (pipeline stages, projections): flags, counts and boundaries are read
 * by value, so `{ $limit: Double(5) }` or `{ $project: { a: Double(1) } }` from a client that sends doubles
 * (or int64s) work like `5` and `1`, while literal values in expressions keep their BSON types. A decimal
 * sort direction is read first as MongoDB reads it (sort-pattern.ts): as a double, `1.5` would sort.
 */
import { plainNumbers } from './numbers.js';
import { decimalDirectionsRead } from './sort-pattern.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';

/** Stages whose numbers are all counts, directions or boundaries. */
const COUNT_STAGES = new Set([
  '$limit',
  '$skip',
  '$sample',
  '$sort',
  '$bucket',
  '$bucketAuto',
  '$densify',
  '$setWindowFields',
]);

/** A `$project` spec with its inclusion flags as JS numbers; expressions (`{ $…: … }`) untouched. */
function projectionFlags(spec: unknown): unknown {
  if (!isPlainObject(spec)) return plainNumbers(spec);
  let out: Doc | undefined;
  for (const [field, value] of Object.entries(spec)) {
    const isExpression = isPlainObject(value) && Object.keys(value).some((k) => k.startsWith('$'));
    const next = isExpression ? value : isPlainObject(value) ? projectionFlags(value) : plainNumbers(value);
    if (next !== value) {
      out ??= { ...spec };
      out[field] = next;
    }
  }
  return out ?? spec;
}

/** One stage with its flags and counts read as numbers, sub-pipelines included. */
function normalizeStage(stage: unknown): unknown {
  if (!isPlainObject(stage)) return stage;
  const keys = Object.keys(stage);
  if (keys.length !== 1) return stage;
  const name = keys[0]!;
  const spec = stage[name];
  if (name === '$sort') return { $sort: plainNumbers(decimalDirectionsRead(spec)) };
  if (name === '$setWindowFields' && isPlainObject(spec) && 'sortBy' in spec) {
    return { $setWindowFields: plainNumbers({ ...spec, sortBy: decimalDirectionsRead(spec['sortBy']) }) };
  }
  if (COUNT_STAGES.has(name)) return { [name]: plainNumbers(spec) };
  if (name === '$project') return { $project: projectionFlags(spec) };
  if (name === '$facet' && isPlainObject(spec)) {
    const facets: Doc = {};
    for (const [k, p] of Object.entries(spec)) facets[k] = Array.isArray(p) ? normalizePipeline(p) : p;
    return { $facet: facets };
  }
  if (
    (name === '$lookup' || name === '$unionWith') &&
    isPlainObject(spec) &&
    Array.isArray(spec['pipeline'])
  ) {
    return { [name]: { ...spec, pipeline: normalizePipeline(spec['pipeline'] as unknown[]) } };
  }
  return stage;
}

/**
 * `pipeline` with the numbers of its stage specs that are flags, counts or boundaries as JS numbers
 * (`$limit`, `$skip`, `$sample`, `$sort`, `$bucket` …, `$project` inclusion flags), in sub-pipelines too.
 */
export function normalizePipeline<T>(pipeline: readonly T[]): T[] {
  return pipeline.map((stage) => normalizeStage(stage) as T);
}
