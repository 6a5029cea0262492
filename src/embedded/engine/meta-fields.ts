/**
 * `{ $meta: <name> }` in an aggregation, as MongoDB 7.0 parses and answers it. The engine keeps the only
 * metadata it computes, the `$text` and `$search` scores, in hidden fields (aggregate.ts); every other
 * name answers what MongoDB answers without that metadata, or is refused where MongoDB would have it.
 *
 * In an expression (`$project`, `$addFields` …; ExpressionMeta::parse in expression.cpp): a name that is
 * not a string is 17307, an unknown name 17308. `textScore` needs a `$text` query and `geoNearDistance` /
 * `geoNearPoint` a `$geoNear` stage (which the embedded database does not run), else 40218 "query
 * requires <what> metadata, but it is not available" (DepsTracker::setNeedsMetadata in depends.h, with
 * document_metadata_fields.cpp's names). `searchScore`, `searchHighlights`, `searchScoreDetails` and
 * `indexKey` are missing without the stage that sets them (no `$search`, a collection scan), as are
 * `randVal` before any `$sample` and `sortKey` before any `$sort`; after those stages MongoDB has a
 * value the engine does not keep, so it refuses them (NotImplemented), and `recordId` in an aggregation
 * (a find answers it, find-record-id.ts).
 *
 * In a `$sort` (SortPattern, sort_pattern.cpp): only `textScore` and `randVal` sort (`geoNearDistance`
 * too, so without `$geoNear` it is 40218); `searchScore` is 31218, `searchHighlights` 31219, anything
 * else 31138 "Illegal $meta sort: $meta: <value>"; a second key in the `$meta` document is
 * FailedToParse.
 */
import { bsonText } from './bson-text.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** What metadata the documents reaching a `$meta` carry. */
export interface MetaSources {
  /** The pipeline began with a `$match` holding `$text`. */
  text: boolean;
  /** The pipeline began with `$search`. */
  searched: boolean;
  /** A `$sample` ran before. */
  sampled: boolean;
  /** A `$sort` ran before. */
  sorted: boolean;
  /** The documents carry their record id (a find's, in `RECORD_ID_FIELD`). */
  records?: boolean;
}

/** The hidden fields aggregate.ts keeps the scores in. */
export const TEXT_SCORE_FIELD = '__plume_textScore';
export const SEARCH_SCORE_FIELD = '__plume_searchScore';
/** The hidden field a find carries each document's record id in (find-record-id.ts). */
export const RECORD_ID_FIELD = '__plume_recordId';

/** The names MongoDB 7.0 knows (document_metadata_fields.cpp, expression.cpp). */
const NAMES = new Set([
  'textScore',
  'randVal',
  'searchScore',
  'searchHighlights',
  'geoNearDistance',
  'geoNearPoint',
  'recordId',
  'indexKey',
  'sortKey',
  'searchScoreDetails',
]);

/** What 40218 calls each kind of metadata MongoDB checks is available. */
const UNAVAILABLE: Record<string, string> = {
  textScore: 'text score',
  geoNearDistance: '$geoNear distance',
  geoNearPoint: '$geoNear point',
};

function unavailable(name: string): CommandError {
  return new CommandError(40218, `query requires ${UNAVAILABLE[name]!} metadata, but it is not available`);
}

function notKept(name: string, after: string): CommandError {
  return new CommandError(
    ErrorCodes.NotImplemented,
    `$meta: '${name}'${after} is not supported by the embedded database, which keeps no ${name} metadata`,
  );
}

/**
 * The expression mingo evaluates in place of `{ $meta: name }`: a hidden score field, or `$$REMOVE`
 * (missing) where MongoDB has no value.
 * @throws CommandError 17307, 17308, 40218 or NotImplemented (238) as the file comment describes.
 */
export function metaExpression(name: unknown, sources: MetaSources): string {
  if (typeof name !== 'string') throw new CommandError(17307, '$meta only supports string arguments');
  if (!NAMES.has(name)) throw new CommandError(17308, `Unsupported argument to $meta: ${name}`);
  if (name in UNAVAILABLE && !(name === 'textScore' && sources.text)) throw unavailable(name);
  if (name === 'textScore') return `$${TEXT_SCORE_FIELD}`;
  if (name === 'searchScore') return `$${SEARCH_SCORE_FIELD}`;
  if (name === 'recordId') {
    if (sources.records) return `$${RECORD_ID_FIELD}`;
    throw notKept(name, '');
  }
  if (name === 'randVal' && sources.sampled) throw notKept(name, ' after $sample');
  if (name === 'sortKey' && sources.sorted) throw notKept(name, ' after $sort');
  return '$$REMOVE';
}

/**
 * The field a `$sort` key `{ $meta: … }` sorts by (descending, as MongoDB sorts metadata), or undefined
 * for one that leaves the order as it is (`randVal`: MongoDB sorts by values the engine does not keep,
 * in the order `$sample` drew them, and otherwise by none).
 * @throws CommandError 17312, FailedToParse (9), 31138, 31218, 31219 or 40218 (sort_pattern.cpp).
 */
export function metaSortField(spec: Doc, sources: MetaSources): string | undefined {
  const [first, ...rest] = Object.entries(spec);
  if (first?.[0] !== '$meta')
    throw new CommandError(17312, '$meta is the only expression supported by $sort right now');
  if (rest.length > 0)
    throw new CommandError(
      ErrorCodes.FailedToParse,
      'Cannot have additional keys in a $meta sort specification',
    );
  const name = first[1];
  if (name === 'searchScore')
    throw new CommandError(31218, "$meta sort by 'searchScore' metadata is not supported");
  if (name === 'searchHighlights')
    throw new CommandError(31219, "$meta sort by 'searchHighlights' metadata is not supported");
  if (name !== 'textScore' && name !== 'randVal' && name !== 'geoNearDistance')
    throw new CommandError(31138, `Illegal $meta sort: $meta: ${bsonText(name)}`);
  if (name === 'randVal') return undefined;
  if (name === 'geoNearDistance' || !sources.text) throw unavailable(name);
  return TEXT_SCORE_FIELD;
}

/** True for `{ $meta: … }` in an expression (a document whose one key is `$meta`). */
export function isMeta(value: unknown): value is Doc {
  return isPlainObject(value) && Object.keys(value).length === 1 && '$meta' in value;
}

/**
 * Removes the hidden score fields from the documents `results` and every document they hold, each
 * shared document visited once.
 */
export function dropScoreFields(results: unknown[]): void {
  const seen = new Set<object>();
  const visit = (value: unknown): void => {
    if (value === null || typeof value !== 'object' || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) value.forEach(visit);
    else if (isPlainObject(value)) {
      delete value[TEXT_SCORE_FIELD];
      delete value[SEARCH_SCORE_FIELD];
      Object.values(value).forEach(visit);
    }
  };
  results.forEach(visit);
}
