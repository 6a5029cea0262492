/**
 * The `$bucket` stage, checked and rewritten as MongoDB 7.0's document_source_bucket.cpp does it: into a
 * `$group` whose `_id` is a `$switch` over the boundaries, then a `$sort` on `_id` (mingo misplaced
 * boundary values). The boundaries must be constants of one canonical type in strictly ascending order,
 * and a `default` of that type must lie outside them; mingo ran such stages and bucketed by whatever
 * order it found.
 */
import type { Collation } from './collation.js';
import { normalizeCollation } from './collation.js';
import { compareBson, typeRank } from './compare.js';
import type { PipelineOp } from './operator-types.js';
import { typeName, valueText } from './value-strings.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError } from '../errors.js';

/** Whether `value` is a constant rather than an expression (a `$` path or an operator object). */
function isConstant(value: unknown): boolean {
  if (typeof value === 'string') return !value.startsWith('$');
  if (Array.isArray(value)) return value.every(isConstant);
  if (!isPlainObject(value)) return true;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === '$literal') return true;
  return keys.every((key) => !key.startsWith('$')) && Object.values(value).every(isConstant);
}

/** Whether `value` is a `$`-prefixed path or an operator object: the `groupBy` of `$bucket` and `$bucketAuto`. */
export function isPathOrOperator(value: unknown): boolean {
  if (typeof value === 'string') return value.startsWith('$');
  return isPlainObject(value) && (Object.keys(value)[0]?.startsWith('$') ?? false);
}

const literal = (value: unknown): unknown =>
  isPlainObject(value) && Object.keys(value).length === 1 && '$literal' in value ? value['$literal'] : value;

/** The boundaries, checked (40200, 40191, 40192, 40193, 40194). */
function checkBoundaries(value: unknown, collation: Collation | undefined): unknown[] {
  if (!Array.isArray(value))
    throw new CommandError(
      40200,
      `The $bucket 'boundaries' field must be an array, but found type: ${typeName(value)}.`,
    );
  const bounds = value.map((bound: unknown) => {
    if (!isConstant(bound))
      throw new CommandError(
        40191,
        `The $bucket 'boundaries' field must be an array of constant values, but found value: ${valueText(bound)}.`,
      );
    return literal(bound);
  });
  if (bounds.length < 2)
    throw new CommandError(
      40192,
      `The $bucket 'boundaries' field must have at least 2 values, but found ${bounds.length} value(s).`,
    );
  for (let i = 1; i < bounds.length; i++) {
    const [lower, upper] = [bounds[i - 1], bounds[i]];
    if (typeRank(lower) !== typeRank(upper))
      throw new CommandError(
        40193,
        `All values in the the 'boundaries' option to $bucket must have the same type. Found conflicting types ${typeName(lower)} and ${typeName(upper)}.`,
      );
    if (compareBson(lower, upper, collation) >= 0)
      throw new CommandError(
        40194,
        `The 'boundaries' option to $bucket must be sorted, but elements ${i - 1} and ${i} are not in ascending order (${valueText(lower)} is not less than ${valueText(upper)}).`,
      );
  }
  return bounds;
}

/**
 * `$bucket` as the `$group` + `$sort` MongoDB runs; any other stage as it is.
 * @throws CommandError 40191–40202 for a malformed stage, with MongoDB 7.0's messages.
 */
export function rewriteBucket(stage: Doc, collation: Collation | undefined): Doc[] {
  if (!('$bucket' in stage)) return [stage];
  const spec = stage['$bucket'];
  if (!isPlainObject(spec))
    throw new CommandError(
      40201,
      `Argument to $bucket stage must be an object, but found type: ${typeName(spec)}.`,
    );
  let groupBy: unknown;
  let bounds: unknown[] | undefined;
  let output: Doc = { count: { $sum: 1 } };
  const defaults: { default?: unknown } = {};
  for (const [name, value] of Object.entries(spec)) {
    if (name === 'groupBy') {
      if (!isPathOrOperator(value))
        throw new CommandError(
          40202,
          `The $bucket 'groupBy' field must be defined as a $-prefixed path or an expression, but found: ${valueText(value)}.`,
        );
      groupBy = value;
    } else if (name === 'boundaries') {
      bounds = checkBoundaries(value, collation);
    } else if (name === 'default') {
      if (!isConstant(value))
        throw new CommandError(
          40195,
          `The $bucket 'default' field must be a constant expression, but found: ${valueText(value)}.`,
        );
      defaults.default = literal(value);
    } else if (name === 'output') {
      if (!isPlainObject(value))
        throw new CommandError(
          40196,
          `The $bucket 'output' field must be an object, but found type: ${typeName(value)}.`,
        );
      output = value;
    } else {
      throw new CommandError(40197, `Unrecognized option to $bucket: ${name}.`);
    }
  }
  if (groupBy === undefined || bounds === undefined)
    throw new CommandError(40198, "$bucket requires 'groupBy' and 'boundaries' to be specified.");
  const lowest = bounds[0];
  const highest = bounds[bounds.length - 1];
  if ('default' in defaults && typeRank(defaults.default) === typeRank(lowest)) {
    const outside =
      compareBson(defaults.default, lowest, collation) < 0 ||
      compareBson(defaults.default, highest, collation) >= 0;
    if (!outside)
      throw new CommandError(
        40199,
        "The $bucket 'default' field must be less than the lowest boundary or greater than or equal to the highest boundary.",
      );
  }
  const branches = bounds.slice(1).map((upper, i) => ({
    case: { $and: [{ $gte: [groupBy, { $literal: bounds[i] }] }, { $lt: [groupBy, { $literal: upper }] }] },
    then: { $literal: bounds[i] },
  }));
  const $switch =
    'default' in defaults ? { branches, default: { $literal: defaults.default } } : { branches };
  return [{ $group: { _id: { $switch }, ...output } }, { $sort: { _id: 1 } }];
}

/**
 * `$bucket` as a pipeline stage, for the sub-pipelines of `$lookup`, `$unionWith` and `$facet` (a
 * top-level `$bucket` is rewritten before the pipeline runs, aggregate.ts): the `$group` and `$sort` of
 * {@link rewriteBucket}, run by the engine's own `group` and `sort` stages, so a sub-pipeline's `$bucket`
 * is checked and answers as a top-level one.
 * @throws CommandError 40191–40202 as {@link rewriteBucket}.
 */
export function bucketStage(group: PipelineOp, sort: PipelineOp): PipelineOp {
  return (collection, expr, options) => {
    const [grouping, sorting] = rewriteBucket({ $bucket: expr }, normalizeCollation(options.collation));
    return sort(group(collection, grouping!['$group'], options), sorting!['$sort'], options);
  };
}
