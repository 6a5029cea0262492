/**
 * Query execution: candidate selection (read-plan.ts: the `_id` map, then equality indexes, else a
 * scan), matching with the compiled mingo query, `$text`, and sort/skip/limit/projection. The filter
 * and the projection are parsed first, in the scope of the command's `let` names, as MongoDB parses
 * them before it reads a document (filter-check.ts, project-check.ts).
 */
import { Aggregator } from 'mingo/aggregator';
import type { Options } from 'mingo/types';
import type { CollectionState } from './collection.js';
import type { Collation } from './collation.js';
import { tickDeadline } from './deadline.js';
import { parseFilter, parseFind } from './find-parse.js';
import { applyExclusionExtras, exclusionExtras, exclusionFlags } from './find-exclusion.js';
import { checkFindSlices, integralSlices } from './find-slice.js';
import { withSystemVariables } from './let-variables.js';
import { plainNumbers } from './numbers.js';
import { readPlan } from './read-plan.js';
import { lookupIndex } from './indexes.js';
import type { Index } from './indexes.js';
import { isIdIndex } from './index-order.js';
import { inHintedOrder } from './hinted-order.js';
import type { HintedScan } from './hinted-order.js';
import { applyPositional, positionalQuery } from './positional.js';
import { compile, isEmptyFilter, splitText } from './query.js';
import { mingoOptions } from './mingo-options.js';
import { withMemoryLimits } from './memory-limits.js';
import { checkResultSize, startMeasuring } from './limits.js';
import type { MemoryLimits } from './memory-limits.js';
import { boundSort } from './sort.js';
import { checkSortKey, decimalDirectionsRead } from './sort-pattern.js';
import { answerRecordId, isInclusion, recordIdFields, withRecordIds } from './find-record-id.js';
import { isMeta, metaExpression, metaSortField, RECORD_ID_FIELD, TEXT_SCORE_FIELD } from './meta-fields.js';
import type { MetaSources } from './meta-fields.js';
import { parseTextQuery, textScore } from './text.js';
import { cloneValue, idFirst, isPlainObject, keyOf } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** Counters reported by serverStatus (`metrics.queryExecutor`). */
export const queryStats = { scannedObjects: 0 };

/** Parameters of a query over one collection. */
export interface QuerySpec {
  filter?: unknown;
  sort?: Doc;
  projection?: Doc;
  skip?: number;
  limit?: number;
  collation?: Collation;
  /** `let` variables for `$expr`. */
  variables?: Doc;
  /** The command's memory limits (the sort's); absent, those in force. */
  memory?: MemoryLimits;
  /** The scan a `hint` forces (hinted-order.ts): without a sort, the answer comes in its order. */
  scan?: HintedScan;
  /** find's `showRecordId`: each answered document ends with `$recordId`, its record id as a long. */
  showRecordId?: boolean;
}

/**
 * Documents from an index/`_id` lookup (read-plan.ts), or undefined when the filter needs a scan. A
 * scan a hint forces reads as MongoDB's does: a collection scan reads every document, in storage
 * order; a hinted secondary index serves only its own equalities, so documents with equal keys come
 * in storage order, as that index holds them (by record id).
 */
function candidates(
  state: CollectionState,
  filter: Doc,
  collation: Collation | undefined,
  scan: HintedScan | undefined,
): { docs: Doc[]; index?: Index } | undefined {
  if (scan === 'reverse') return undefined;
  const plan =
    scan && !isIdIndex(scan) ? lookupIndex([scan], filter, collation) : readPlan(state, filter, collation);
  if (!plan) return undefined;
  const keys = 'index' in plan ? plan.ids : plan.idValues.map((id) => keyOf(id));
  const out: Doc[] = [];
  for (const key of keys) {
    const doc = state.docs.get(key);
    if (doc) out.push(doc);
  }
  return { docs: out, ...('index' in plan ? { index: plan.index } : {}) };
}

/**
 * The stored documents (references: never mutate them) matching `filter`, in natural order, or in the
 * order of the scan a hint forces (`scan`, hinted-order.ts). With `$text`, also returns each match's
 * score. `variables` are the command's `let` values, which the filter's `$expr` may read (any other
 * variable is refused with 17276 before a document is read).
 * @throws CommandError BadValue for invalid filters; IndexNotFound (27) for `$text` without a text index.
 */
export function matchDocs(
  state: CollectionState,
  rawFilter: unknown,
  collation?: Collation,
  variables?: Doc,
  scan?: HintedScan,
): { docs: Doc[]; scores?: Map<Doc, number> } {
  return matchParsed(state, parseFilter(rawFilter, variables), collation, variables, scan);
}

/** `matchDocs` of a filter already parsed and prepared. */
function matchParsed(
  state: CollectionState,
  prepared: Doc,
  collation: Collation | undefined,
  variables: Doc | undefined,
  scan: HintedScan | undefined,
): { docs: Doc[]; scores?: Map<Doc, number> } {
  const { rest, text } = splitText(prepared);
  const read = candidates(state, rest, collation, scan);
  const source = read?.docs ?? state.docs.values();
  const query = isEmptyFilter(rest) ? undefined : compile(rest, collation, variables);
  let docs: Doc[] = [];
  if (query) {
    let n = 0;
    for (const doc of source) {
      // MongoDB checks for interrupts as its scan advances: a long scan stops at `maxTimeMS`.
      tickDeadline();
      n++;
      if (query.test(doc)) docs.push(doc);
    }
    queryStats.scannedObjects += n;
  } else {
    docs = Array.isArray(source) ? source : [...source];
    queryStats.scannedObjects += docs.length;
  }
  // A read through a secondary index answers in its order, as MongoDB's index scan reads it.
  const order = scan ?? read?.index;
  if (order) docs = inHintedOrder(docs, order, rest, collation, state.records);
  if (!text) return { docs };
  const index = state.indexes.find((i) => i.text);
  if (!index) throw new CommandError(ErrorCodes.IndexNotFound, 'text index required for $text query');
  const search = text['$search'];
  if (typeof search !== 'string') throw new CommandError(ErrorCodes.BadValue, '$search must be a string');
  const tq = parseTextQuery(search);
  const scores = new Map<Doc, number>();
  const out: Doc[] = [];
  for (const doc of docs) {
    const s = textScore(doc, tq, index.spec.weights ?? {});
    if (s > 0) {
      scores.set(doc, s);
      out.push(doc);
    }
  }
  return { docs: out, scores };
}

function usesMeta(spec: Doc | undefined): boolean {
  return !!spec && Object.values(spec).some((v) => isPlainObject(v) && v['$meta'] === 'textScore');
}

/**
 * Runs a query: match, sort, skip, limit, project. Returns fresh copies.
 * @throws CommandError on invalid filters, sorts or projections.
 */
export function runQuery(state: CollectionState, spec: QuerySpec): Doc[] {
  const prepared = parseFind(spec.filter, spec.projection, spec.variables);
  // Specs compare flags and counts as numbers: `{ name: Double(1) }` includes `name` like `{ name: 1 }`.
  let sort =
    spec.sort && Object.keys(spec.sort).length > 0
      ? plainNumbers(decimalDirectionsRead(spec.sort) as Doc)
      : undefined;
  const scan = sort ? undefined : spec.scan;
  const { docs: matched, scores } = matchParsed(state, prepared, spec.collation, spec.variables, scan);
  let docs = matched;
  if (sort && '$natural' in sort) {
    // Natural order is the order documents are stored in; -1 reads it backwards.
    const { $natural: direction, ...rest } = sort;
    if (direction === -1) docs = [...matched].reverse();
    sort = Object.keys(rest).length > 0 ? rest : undefined;
  }
  const projection =
    spec.projection && Object.keys(spec.projection).length > 0 ? plainNumbers(spec.projection) : undefined;
  const skip = spec.skip ?? 0;
  const limit = spec.limit ?? 0;
  const show = spec.showRecordId === true;
  if (!sort && !projection) {
    const end = limit > 0 ? skip + limit : docs.length;
    const page = docs.slice(skip, end);
    if (show)
      return withRecordIds(page, state.records).map((d) => answerRecordId(cloneValue(d), [], false, true));
    return page.map((d) => cloneValue(d));
  }
  // `$meta` keys are answered (or refused) as in an aggregation (meta-fields.ts); a find has record ids.
  const sources: MetaSources = {
    text: !!scores,
    searched: false,
    sampled: false,
    sorted: !!sort,
    records: true,
  };
  const meta = scores && (usesMeta(sort) || usesMeta(projection));
  const recordFields = recordIdFields(projection);
  const records = show || recordFields.length > 0;
  let input: Doc[] = records ? withRecordIds(docs, state.records) : docs;
  if (meta) input = input.map((d, i) => ({ ...d, [TEXT_SCORE_FIELD]: scores.get(docs[i]!) ?? 0 }));
  const pipeline: Doc[] = [];
  if (sort) {
    const s: Doc = {};
    for (const [k, v] of Object.entries(sort)) {
      if (isPlainObject(v)) {
        const field = metaSortField(v, sources);
        if (field) s[field] = -1;
      } else {
        checkSortKey(k, v);
        s[k] = v;
      }
    }
    // A sort with a limit keeps only the first skip + limit documents (a top-k sort).
    if (limit > 0) boundSort(s, skip + limit);
    if (Object.keys(s).length > 0) pipeline.push({ $sort: s });
  }
  if (skip > 0) pipeline.push({ $skip: skip });
  if (limit > 0) pipeline.push({ $limit: limit });
  /** The projection, run on copies: mingo's exclusion of `a.b` deletes `b` from `a` in place. */
  const shaping: Doc[] = [];
  let positional: { field: string; filter: Doc } | undefined;
  // A find projection made only of `$meta` fields adds them to whole documents (MongoDB's rule).
  const metaValues = projection && Object.values(projection).every(isMeta);
  const metaFields = metaValues
    ? Object.keys(projection).filter(
        (k) => metaExpression((projection[k] as Doc)['$meta'], sources) === `$${TEXT_SCORE_FIELD}`,
      )
    : undefined;
  // An exclusion holding `$slice` or `$elemMatch`: mingo excludes, the engine applies those after.
  const extras = projection && !metaValues ? exclusionExtras(integralSlices(projection)) : undefined;
  if (projection && !metaValues && extras) {
    checkFindSlices(projection, docs.length > skip);
    const flags = exclusionFlags(projection);
    if (flags) shaping.push({ $project: flags });
  } else if (projection && !metaValues) {
    checkFindSlices(projection, docs.length > skip);
    const p: Doc = {};
    for (const [k, v] of Object.entries(integralSlices(projection))) {
      if (k.endsWith('.$')) {
        const field = k.slice(0, -2);
        positional = { field, filter: positionalQuery(spec.filter, field) };
        p[field] = 1;
        continue;
      }
      p[k] = isMeta(v) ? metaExpression(v['$meta'], sources) : v;
    }
    // An exclusion keeps the hidden field; an inclusion must name it.
    if (show && isInclusion(p)) p[RECORD_ID_FIELD] = 1;
    shaping.push({ $project: p });
  }
  if (positional) {
    const { field, filter } = positional;
    input = input.map((d) => applyPositional(d, d, field, filter, spec.collation));
  }
  let out: Doc[];
  // Computed fields may read the command's `let` variables and the system ones (`$$NOW` …).
  const options = mingoOptions(spec.collation, { variables: withSystemVariables(spec.variables) });
  startMeasuring();
  try {
    out = withMemoryLimits(spec.memory, () => {
      const ordered = pipeline.length > 0 ? new Aggregator(pipeline, options).run<Doc>(input) : input;
      if (shaping.length === 0) return ordered;
      // Only the documents the sort, skip and limit kept are copied; the stored ones stay untouched.
      return new Aggregator(shaping, options).run<Doc>(ordered.map((d) => cloneValue(d)));
    });
  } catch (error) {
    if (error instanceof CommandError && error.code === ErrorCodes.QueryExceededMemoryLimitNoDiskUseAllowed)
      throw new CommandError(
        error.code,
        `Executor error during find command :: caused by :: ${error.message}`,
      );
    if (error instanceof CommandError) throw error;
    throw new CommandError(ErrorCodes.BadValue, (error as Error).message);
  }
  return out.map((d) => {
    // Only a projection can compute a document past the limits: a stored one is at most 16 MiB, so
    // plain finds (every DocDbService get and find without $select) skip the walk.
    if (projection) checkResultSize(d);
    // A projection already ran on copies (above); anything else is a stored document and is copied.
    const c = shaping.length > 0 ? d : cloneValue(d);
    if (extras) applyExclusionExtras(c, extras, options as Options);
    for (const field of metaFields ?? []) c[field] = c[TEXT_SCORE_FIELD];
    if (meta) delete c[TEXT_SCORE_FIELD];
    return records ? answerRecordId(idFirst(c), recordFields, !!metaValues, show) : idFirst(c);
  });
}
