import type { Document } from 'mongodb';
import type { QueryFilters } from '../adapter/index.js';
import type { Query } from '../core/index.js';

/** The custom stage that marks where the service query goes into `params.pipeline`. */
export const FRAMEWORK_STAGE = '$framework';

/**
 * Splits `params.pipeline` at the first `{ $framework: {} }` stage (spec: "Adapter query syntax"):
 * stages before it run on the stored data, stages after it on the query's result. Without the
 * marker every stage comes after the query.
 */
export function splitPipeline(pipeline: readonly Document[] | undefined): {
  before: Document[];
  after: Document[];
} {
  if (!pipeline) return { before: [], after: [] };
  const index = pipeline.findIndex((stage) => Object.hasOwn(stage, FRAMEWORK_STAGE));
  if (index === -1) return { before: [], after: [...pipeline] };
  return { before: pipeline.slice(0, index), after: pipeline.slice(index + 1) };
}

/** The projection for `$select`: the listed fields plus the id field; `undefined` selects everything. */
export function getProjection(select: readonly string[] | undefined, idField: string): Document | undefined {
  if (!select || select.length === 0) return undefined;
  // MongoDB refuses overlapping paths ("path collision" for `a` and `a.b`), so a path inside an
  // already selected one is left out: selecting `a` returns `a.b` anyway.
  const fields = [idField, ...select].sort((a, b) => a.length - b.length);
  const projection: Document = {};
  for (const field of fields) {
    const covered = Object.keys(projection).some((kept) => field === kept || field.startsWith(`${kept}.`));
    if (!covered) projection[field] = 1;
  }
  return projection;
}

/** The query as aggregation stages: `$match`, then `$sort`, `$skip`, `$limit`, `$project` when set. */
export function queryStages(query: Query, filters: QueryFilters, idField: string): Document[] {
  const stages: Document[] = [{ $match: query }];
  if (filters.$sort && Object.keys(filters.$sort).length > 0) stages.push({ $sort: filters.$sort });
  if (filters.$skip) stages.push({ $skip: filters.$skip });
  if (filters.$limit !== undefined) stages.push({ $limit: filters.$limit });
  const projection = getProjection(filters.$select, idField);
  if (projection) stages.push({ $project: projection });
  return stages;
}
