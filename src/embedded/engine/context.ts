/**
 * The mingo operator context the engine uses: mingo's own operators, with query operators that read
 * their field as MongoDB's matcher does (query-path.ts, path-operators.ts), collation-aware comparison
 * operators, range operators in MongoDB's comparison order, a BSON-aware `$type`, `$all` as MongoDB's
 * `$and` of clauses (all-operator.ts), MongoDB's `$sort` and `$group`, `$lookup`, `$facet`, `$graphLookup` and
 * `$sample`, `$addFields`/`$set` and `$project` computed fields with MongoDB's paths through arrays
 * (add-fields.ts, project-paths.ts), the `$elemMatch` projection, the operators that compare or compute
 * numbers (number-operators.ts), the date expressions (date-operators.ts), `$bsonSize`/`$binarySize`
 * (size-expressions.ts), the boolean expressions with MongoDB's truth (logical-expressions.ts), the accumulators used as
 * expressions (accumulator-expressions.ts), `$slice`/`$reverseArray`/`$zip` (array-expressions.ts),
 * `$sortArray` (sort-array.ts), `$median`/`$percentile` (percentile.ts), the bitwise expressions
 * (bit-expressions.ts), `$toHashedIndexKey` (hashed-index-key.ts), `$function`/`$accumulator` refused
 * (javascript-operators.ts) and the expressions MongoDB
 * refuses where mingo answers null (strict-expressions.ts), registered over the built-ins. Used with the
 * *base* `Query` and `Aggregator` classes (the default `mingo` entry would merge its built-ins over ours).
 */
import { Context, evalExpr } from 'mingo/core';
import * as accumulatorOperators from 'mingo/operators/accumulator';
import * as expressionOperators from 'mingo/operators/expression';
import * as pipelineOperators from 'mingo/operators/pipeline';
import * as projectionOperators from 'mingo/operators/projection';
import * as queryOperators from 'mingo/operators/query';
import * as windowOperators from 'mingo/operators/window';
import type { Options } from 'mingo/types';
import type { ExpressionOp, PipelineOp, Predicate, QueryOp } from './operator-types.js';
import { builtinStage } from './operator-types.js';
import { changingStages, checkedStages } from './checked-stages.js';
import { accumulatorExpressions, mergeObjectsAccumulator } from './accumulator-expressions.js';
import { addFieldsStage } from './add-fields.js';
import { arrayExpressions } from './array-expressions.js';
import { arrayInputExpressions } from './array-input.js';
import { allQuery } from './all-operator.js';
import { numberKind } from './arithmetic.js';
import { bitQueryOperators } from './bits.js';
import { bitExpressions } from './bit-expressions.js';
import { compareStrings, normalizeCollation } from './collation.js';
import type { Collation } from './collation.js';
import { compareBson, MAX_KEY_RANK, MIN_KEY_RANK, typeRank } from './compare.js';
import { comparisonExpressions } from './comparison-expressions.js';
import { setExpressions } from './set-expressions.js';
import { arraySearchExpressions } from './array-search-expressions.js';
import { sizeExpressions } from './size-expressions.js';
import { dateArithmeticExpressions } from './date-arithmetic.js';
import { dateFromParts } from './date-from-parts.js';
import { dateExpressions } from './date-operators.js';
import { DBREF_SELF } from './dbref-filter.js';
import { PULL_ELEMENT } from './pull-object.js';
import { documentEquality } from './document-equality.js';
import { windowFunctions } from './window-functions.js';
import { densifyStage } from './densify-stage.js';
import { limitStage } from './limit-stage.js';
import { fillStage } from './fill-stage.js';
import { setWindowFieldsStage } from './window-stage.js';
import { elemMatchProjection } from './elem-match-projection.js';
import { fieldNameExpressions } from './field-name-expressions.js';
import { graphLookupStage } from './graph-lookup.js';
import { hashedIndexKeyExpression } from './hashed-index-key.js';
import { groupStage } from './group.js';
import { inSetPredicate } from './in-set.js';
import { linearRegexOperator } from './linear-regex.js';
import { lookupStage } from './lookup.js';
import { documentsStage, INNER_DOCUMENTS, unionWithStage } from './documents-stage.js';
import { facetStage } from './facet.js';
import { interruptibleExpressions } from './interruptible-expressions.js';
import { javascriptAccumulators, javascriptExpressions } from './javascript-operators.js';
import { logicalExpressions } from './logical-expressions.js';
import { arrayAccumulators } from './array-accumulators.js';
import { orderedAccumulators, orderedExpressions } from './ordered-accumulators.js';
import {
  numberAccumulators,
  numberExpressions,
  numberQueryOperators,
  numericQuery,
} from './number-operators.js';
import { projectPathsStage } from './project-paths.js';
import { replaceRootStage, replaceWithStage } from './replace-root.js';
import { percentileAccumulators, percentileExpressions } from './percentile.js';
import { sampleStage } from './sample.js';
import { matchesSchema } from './schema.js';
import { checkSchema } from './schema-check.js';
import { sortStage } from './sort.js';
import { sortArrayExpression } from './sort-array.js';
import { bucketAutoStage } from './bucket-auto.js';
import { bucketStage } from './bucket.js';
import { sortByCountStage } from './sort-by-count.js';
import { strictExpressions } from './strict-expressions.js';
import { conversionExpressions } from './convert.js';
import { timestampExpressions } from './timestamp-expressions.js';
import { redactStage } from './redact.js';
import { pathOperators, valueEquality } from './path-operators.js';
import { filterPath, someValue } from './query-path.js';
import { bsonTypeName, hasType, isPlainObject, keyOf, typeAlias } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

const builtin = queryOperators as unknown as Record<string, QueryOp>;

/**
 * The only mingo query operators the engine keeps: they read no field themselves (the logical ones
 * compile their clauses with this context, `$expr` evaluates an expression). Every operator on a field
 * is the engine's and reads it with query-path.ts, as MongoDB's matcher does.
 */
const PATHLESS_BUILTINS = ['$and', '$or', '$nor', '$not', '$expr'];

function collationOf(options: Options): Collation | undefined {
  return normalizeCollation(options.collation);
}

function stringPredicate(selector: string, test: (s: string) => boolean): Predicate {
  const path = filterPath(selector);
  return (obj) => someValue(obj, path, (v) => typeof v === 'string' && test(v));
}

function eqPredicate(selector: string, value: unknown, options: Options): Predicate {
  const collation = collationOf(options);
  if (isPlainObject(value)) return documentEquality(selector, value, collation);
  if (collation && typeof value === 'string') {
    return stringPredicate(selector, (s) => compareStrings(s, value, collation) === 0);
  }
  if (collation && value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const key = keyOf(value, collation);
    const path = filterPath(selector);
    return (obj) => someValue(obj, path, (v) => keyOf(v, collation) === key);
  }
  return valueEquality(selector, value, options);
}

/**
 * `$gt`, `$gte`, `$lt`, `$lte` in MongoDB's comparison order (compare.ts), with its type bracketing: a value
 * only compares with values of the same type class (every number type is one class), except MinKey and
 * MaxKey, which compare with everything. Arrays match when an element does.
 */
function orderOp(test: (n: number) => boolean): QueryOp {
  return (selector, value, options) => {
    const collation = collationOf(options);
    const bracket = typeRank(value);
    const anyType = bracket === MIN_KEY_RANK || bracket === MAX_KEY_RANK;
    const matches = (v: unknown): boolean =>
      (anyType || typeRank(v) === bracket) && test(compareBson(v, value, collation));
    const path = filterPath(selector);
    return (obj) => someValue(obj, path, matches);
  };
}

function inPredicate(selector: string, value: unknown, options: Options): Predicate {
  if (!Array.isArray(value)) throw new CommandError(ErrorCodes.BadValue, '$in needs an array');
  if (value.some(isPlainObject)) {
    // Documents by MongoDB's equality (document-equality.ts), the other values as below.
    const docs = value.filter(isPlainObject).map((doc) => eqPredicate(selector, doc, options));
    const others = inPredicate(
      selector,
      value.filter((v) => !isPlainObject(v)),
      options,
    );
    return (obj) => others(obj) || docs.some((p) => p(obj));
  }
  if (!collationOf(options)) return inSetPredicate(selector, value);
  const preds = value.map((v: unknown) =>
    v instanceof RegExp ? pathOperators['$regex']!(selector, v, options) : eqPredicate(selector, v, options),
  );
  return (obj) => preds.some((p) => p(obj));
}

function typePredicate(selector: string, value: unknown): Predicate {
  const specs = Array.isArray(value) ? value : [value];
  const aliases = specs.map((s: unknown) => {
    // A code may come as any number type (`16`, `16.0`, `NumberLong(16)`).
    const alias = typeAlias(numberKind(s) === undefined ? s : Number(String(s)));
    if (alias === undefined) {
      throw new CommandError(ErrorCodes.BadValue, `Unknown type name alias: ${String(s)}`);
    }
    return alias;
  });
  const path = filterPath(selector);
  return (obj) => someValue(obj, path, (v) => v !== undefined && aliases.some((a) => hasType(v, a)));
}

const overrides: Record<string, QueryOp> = {
  ...pathOperators,
  ...numberQueryOperators,
  ...bitQueryOperators,
  $eq: eqPredicate,
  $ne: (selector, value, options) => {
    const p = eqPredicate(selector, value, options);
    return (obj) => !p(obj);
  },
  $gt: orderOp((n) => n > 0),
  $gte: orderOp((n) => n >= 0),
  $lt: orderOp((n) => n < 0),
  $lte: orderOp((n) => n <= 0),
  $in: inPredicate,
  // MongoDB's `$and` of one clause per entry (all-operator.ts), over number-operators.ts's mingo `$all`.
  $all: allQuery,
  $nin: (selector, value, options) => {
    const p = inPredicate(selector, value, options);
    return (obj) => !p(obj);
  },
  $type: (selector, value) => typePredicate(selector, value),
  $jsonSchema: (_selector, value) => {
    if (!value || typeof value !== 'object')
      throw new CommandError(ErrorCodes.TypeMismatch, '$jsonSchema must be an object');
    const schema = value as Record<string, unknown>;
    // MongoDB parses the schema before reading a document: a malformed keyword fails the compile.
    checkSchema(schema);
    return (obj) => matchesSchema(schema, obj);
  },
};

for (const name of ['$eq', '$ne', '$in', '$nin']) {
  overrides[name] = numericQuery(overrides[name]!);
}
for (const name of ['$regex', '$in', '$nin', '$not', '$all']) {
  overrides[name] = linearRegexOperator(overrides[name] ?? builtin[name]!);
}

/**
 * A DBRef's names in a query on an array's documents (a `$pull` condition or an `$elemMatch` query
 * `{ $ref: 'c', $id: 5 }`), which mingo reads as operators on the array's path, or on the document
 * itself (`{ $ref: 'c' }` at a filter level, rewritten onto `DBREF_SELF` by dbref-filter.ts): MongoDB matches each as
 * equality on that field of the element (parseDBRef, src/mongo/db/matcher/expression_parser.cpp),
 * `$id` under the collation, `$ref` and `$db` by binary comparison.
 */
for (const name of ['$ref', '$id', '$db']) {
  const equal = name === '$id' ? overrides['$eq']! : numericQuery(valueEquality);
  overrides[name] = (selector, value, options) =>
    equal(selector === DBREF_SELF ? name : `${selector}.${name}`, value, options);
}

/**
 * `$and` on the array element a `$pull` condition tests (pull-object.ts): only a document matches, as in
 * MongoDB's ObjectMatcher (src/mongo/db/update/pull_node.cpp). Any other `$and` is mingo's.
 */
overrides['$and'] = (selector, value, options) => {
  const all = builtin['$and']!(selector, value, options);
  return selector === PULL_ELEMENT ? (obj) => isPlainObject(obj) && all(obj) : all;
};

/** `$type` in expressions, with MongoDB's type names (mingo's say `objectid`, `long` for big doubles …). */
const typeExpression: ExpressionOp = (obj, expr, options) => {
  const value = evalExpr(obj, expr, options);
  return value === undefined ? 'missing' : bsonTypeName(value);
};

/** mingo's expression operators that MongoDB 7.0 does not have (`$sigmoid` came in 8.x): 168 there. */
const NOT_IN_MONGODB_7 = new Set(['$sigmoid']);

const EXPRESSIONS = {
  ...Object.fromEntries(Object.entries(expressionOperators).filter(([name]) => !NOT_IN_MONGODB_7.has(name))),
  ...fieldNameExpressions,
  ...numberExpressions,
  ...comparisonExpressions,
  ...setExpressions,
  ...arraySearchExpressions,
  ...sizeExpressions,
  ...dateExpressions,
  ...dateArithmeticExpressions,
  $dateFromParts: dateFromParts,
  ...orderedExpressions,
  ...arrayInputExpressions,
  ...logicalExpressions,
  // After the two above: its $map, $filter and $reduce wrap theirs.
  ...interruptibleExpressions,
  ...accumulatorExpressions,
  ...arrayExpressions,
  ...sortArrayExpression,
  ...percentileExpressions,
  ...bitExpressions,
  ...hashedIndexKeyExpression,
  ...javascriptExpressions,
  ...strictExpressions,
  ...timestampExpressions,
  $type: typeExpression,
};

/** mingo's pipeline stages, by name (the module's `default` export is not one). */
const { default: _module, ...builtinStages } = pipelineOperators as unknown as Record<string, PipelineOp>;

/** The engine's operator context. */
export const CONTEXT: Context = Context.init({
  accumulator: {
    ...accumulatorOperators,
    ...numberAccumulators,
    ...orderedAccumulators,
    ...arrayAccumulators,
    ...mergeObjectsAccumulator,
    ...percentileAccumulators,
    ...javascriptAccumulators,
  },
  expression: {
    ...EXPRESSIONS,
    ...conversionExpressions(EXPRESSIONS),
  },
  pipeline: {
    ...changingStages({
      ...builtinStages,
      $densify: densifyStage,
      $redact: redactStage,
    }),
    // Checks its new documents itself, measuring the values they share once (set-window-fields.ts).
    $setWindowFields: setWindowFieldsStage,
    // These pass on the very documents they receive, unchanged: a size kept for one still holds.
    $limit: limitStage,
    $match: builtinStage('$match'),
    $skip: builtinStage('$skip'),
    $unionWith: unionWithStage,
    $sample: sampleStage,
    $sort: sortStage,
    ...checkedStages({
      $addFields: addFieldsStage,
      $bucket: bucketStage(groupStage, sortStage),
      $bucketAuto: bucketAutoStage,
      $documents: documentsStage,
      [INNER_DOCUMENTS]: documentsStage,
      $facet: facetStage,
      $fill: fillStage,
      $graphLookup: graphLookupStage,
      $group: groupStage,
      $lookup: lookupStage,
      $project: projectPathsStage,
      $replaceRoot: replaceRootStage,
      $replaceWith: replaceWithStage,
      $set: addFieldsStage,
      $sortByCount: sortByCountStage(groupStage, sortStage),
    }),
  },
  projection: { ...projectionOperators, $elemMatch: elemMatchProjection },
  query: { ...Object.fromEntries(PATHLESS_BUILTINS.map((name) => [name, builtin[name]!])), ...overrides },
  window: { ...windowOperators, ...windowFunctions },
});
