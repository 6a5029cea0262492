/**
 * The `$bucketAuto` stage, as MongoDB 7.0's document_source_bucket_auto.cpp builds buckets: documents
 * sorted by their `groupBy` value in BSON order (missing counts as null), about `round(n ÷ buckets)` to a
 * bucket, documents with the value that ends a bucket kept in it, each bucket's `max` the next one's
 * `min`, and the last bucket taking all that is left. With a `granularity`, bounds are rounded to its
 * series (granularity.ts) and a bucket also takes the documents below its rounded-up `max`. Each bucket's
 * `output` accumulators run as a `$group` of its documents, in sorted order. mingo's stage compared
 * values with its own order, put `0` as the first bucket's rounded `min`, and dropped nulls from array
 * outputs. With `allowDiskUse: false` the sort holds at most `internalDocumentSourceBucketAutoMaxMemoryBytes`
 * of documents, as the server's sorter does (its error is 292).
 */
import { evalExpr } from 'mingo/core';
import { Lazy } from 'mingo/lazy';
import type { Options } from 'mingo/types';
import { numberKind } from './arithmetic.js';
import { normalizeCollation } from './collation.js';
import { compareBson } from './compare.js';
import { isPathOrOperator } from './bucket.js';
import { granularityRounder, type GranularityRounder } from './granularity.js';
import { approximateSize, blockingTracker, sortExceeded } from './memory-limits.js';
import { builtinStage } from './operator-types.js';
import type { PipelineOp } from './operator-types.js';
import { typeName, valueText } from './value-strings.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError } from '../errors.js';

const builtinGroup = builtinStage('$group');

interface BucketAutoSpec {
  groupBy: unknown;
  buckets: number;
  output: Doc;
  granularity: string | undefined;
}

/** The stage's arguments, checked as `DocumentSourceBucketAuto::createFromBson` checks them. */
function parseSpec(spec: unknown): BucketAutoSpec {
  if (!isPlainObject(spec))
    throw new CommandError(
      40240,
      `The argument to $bucketAuto must be an object, but found type: ${typeName(spec)}`,
    );
  let groupBy: unknown;
  let buckets: number | undefined;
  let output: Doc = { count: { $sum: 1 } };
  let granularity: string | undefined;
  for (const [name, value] of Object.entries(spec)) {
    if (name === 'groupBy') {
      // Unlike `$bucket`, `$bucketAuto` also refuses a lone `'$'`.
      if (!isPathOrOperator(value) || value === '$')
        throw new CommandError(
          40239,
          `The $bucketAuto 'groupBy' field must be defined as a $-prefixed path or an expression object, but found: ${valueText(value)}`,
        );
      groupBy = value;
    } else if (name === 'buckets') {
      if (numberKind(value) === undefined)
        throw new CommandError(
          40241,
          `The $bucketAuto 'buckets' field must be a numeric value, but found type: ${typeName(value)}`,
        );
      const n = Number(String(value));
      if (!Number.isInteger(n) || n < -2147483648 || n > 2147483647)
        throw new CommandError(
          40242,
          `The $bucketAuto 'buckets' field must be representable as a 32-bit integer, but found ${valueText(value)}`,
        );
      buckets = n;
    } else if (name === 'output') {
      if (!isPlainObject(value))
        throw new CommandError(
          40244,
          `The $bucketAuto 'output' field must be an object, but found type: ${typeName(value)}`,
        );
      output = value;
    } else if (name === 'granularity') {
      if (typeof value !== 'string')
        throw new CommandError(
          40261,
          `The $bucketAuto 'granularity' field must be a string, but found type: ${typeName(value)}`,
        );
      granularity = value;
    } else {
      throw new CommandError(40245, `Unrecognized option to $bucketAuto: ${name}`);
    }
  }
  if (groupBy === undefined || buckets === undefined)
    throw new CommandError(40246, "$bucketAuto requires 'groupBy' and 'buckets' to be specified");
  if (buckets <= 0)
    throw new CommandError(
      40243,
      `The $bucketAuto 'buckets' field must be greater than 0, but found: ${buckets}`,
    );
  return { groupBy, buckets, output, granularity };
}

/** A `groupBy` value that a granularity can round (40258–40260, `extractKey`). */
function checkRoundableKey(key: unknown): void {
  if (numberKind(key) === undefined)
    throw new CommandError(
      40258,
      `$bucketAuto can specify a 'granularity' with numeric boundaries only, but found a value with type: ${typeName(key)}`,
    );
  const n = Number(String(key));
  if (Number.isNaN(n))
    throw new CommandError(
      40259,
      "$bucketAuto can specify a 'granularity' with numeric boundaries only, but found a NaN",
    );
  if (n < 0)
    throw new CommandError(
      40260,
      "$bucketAuto can specify a 'granularity' with non-negative numbers only, but found a negative number",
    );
}

interface Entry {
  key: unknown;
  doc: unknown;
}

interface Bucket {
  min: unknown;
  max: unknown;
  docs: unknown[];
}

/** The buckets of `sorted` (see the file comment; `populateNextBucket` in the server). */
function fillBuckets(
  sorted: Entry[],
  count: number,
  rounder: GranularityRounder | undefined,
  compare: (a: unknown, b: unknown) => number,
): Bucket[] {
  const out: Bucket[] = [];
  if (sorted.length === 0) return out;
  const approxSize = Math.max(1, Math.round(sorted.length / count));
  let index = 0;
  const take = (): Entry | undefined => (index < sorted.length ? sorted[index++] : undefined);
  let next: Entry | undefined = take();
  let previousMax: unknown;
  for (let number = 1; number <= count && next !== undefined; number++) {
    const first: Entry = next;
    const bucket: Bucket = { min: first.key, max: first.key, docs: [] };
    if (rounder) bucket.min = out.length > 0 ? previousMax : rounder.roundDown(first.key);
    const add = (entry: Entry): void => {
      bucket.max = entry.key;
      bucket.docs.push(entry.doc);
    };
    add(first);
    for (let i = 1; index < sorted.length && (i < approxSize || number === count); i++) add(take()!);
    next = take();
    if (rounder) {
      const boundary = rounder.roundUp(bucket.max);
      while (next && (compare(boundary, next.key) > 0 || compare(bucket.max, next.key) === 0)) {
        add(next);
        next = take();
      }
      // A bucket whose rounded max is 0 ends where the next one's rounded-down min starts.
      bucket.max = Number(String(boundary)) === 0 && next ? rounder.roundDown(next.key) : boundary;
    } else {
      while (next && compare(bucket.max, next.key) === 0) {
        add(next);
        next = take();
      }
      if (next) bucket.max = next.key;
    }
    previousMax = bucket.max;
    out.push(bucket);
  }
  return out;
}

/** A bucket's output document: `_id: { min, max }`, then the accumulators over its documents. */
function bucketDocument(bucket: Bucket, output: Doc, options: Options): Doc {
  const [group] = builtinGroup(Lazy(bucket.docs), { _id: null, ...output }, options).collect<Doc>();
  const doc: Doc = { _id: { min: bucket.min, max: bucket.max } };
  for (const name of Object.keys(output)) doc[name] = group?.[name] ?? null;
  return doc;
}

/**
 * The `$bucketAuto` pipeline operator registered in the engine's context (same arguments as mingo's).
 * @throws CommandError with the server's codes for a malformed stage (40239–40261), a value a granularity
 *   cannot round (40258–40260), and 292 past the sort's memory limit without disk use.
 */
export const bucketAutoStage: PipelineOp = (collection, expr, options) => {
  const spec = parseSpec(expr);
  const rounder = spec.granularity === undefined ? undefined : granularityRounder(spec.granularity, options);
  const collation = normalizeCollation(options.collation);
  const compare = (a: unknown, b: unknown): number => compareBson(a, b, collation);
  return collection.transform((items: unknown[]) => {
    const tracker = blockingTracker('internalDocumentSourceBucketAutoMaxMemoryBytes', sortExceeded);
    const entries = items.map((doc): Entry => {
      tracker?.add(approximateSize(doc));
      const key = evalExpr(doc, spec.groupBy, options) ?? null;
      if (rounder) checkRoundableKey(key);
      return { key, doc };
    });
    entries.sort((a, b) => compare(a.key, b.key));
    const buckets = fillBuckets(entries, spec.buckets, rounder, compare);
    return Lazy(buckets.map((bucket) => bucketDocument(bucket, spec.output, options)));
  });
};
