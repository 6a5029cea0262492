/**
 * A pipeline checked as MongoDB checks it when it parses the `aggregate` command, before it reads a
 * document: a malformed `$limit`, `$skip`, `$sort`, `$count`, `$lookup`, `$unwind`, `$group`, `$project`,
 * `$addFields`/`$set`, `$unset`, `$replaceRoot`/`$replaceWith`, `$merge` (merge-check.ts) or an
 * unknown expression fails with MongoDB's code and message even on an empty collection, and so does a
 * read of a variable not defined where it stands (variable-scope.ts). Sub-pipelines (`$facet`, `$lookup`, `$unionWith`) are checked too.
 */
import { checkSortByCount } from './sort-by-count.js';
import { checkAddFieldsPaths } from './add-fields-check.js';
import { checkCollectionless, checkStagePositions } from './documents-placement.js';
import { documentsProjection, INNER_DOCUMENTS } from './documents-stage.js';
import { bsonText } from './bson-text.js';
import { checkExpression, isAccumulatorOperator } from './expression-check.js';
import { checkFieldPath } from './field-path.js';
import { checkMergeStage } from './merge-check.js';
import { checkOperatorArguments, checkPercentileAccumulator } from './operator-arguments.js';
import { checkProject } from './project-check.js';
import { checkSortKeys } from './sort-pattern.js';
import { checkStageVariables, lookupScope } from './stage-variables.js';
import { bsonTypeName, isPlainObject } from './values.js';
import { VariableScope } from './variable-scope.js';
import { CommandError, ErrorCodes } from '../errors.js';

function fail(code: number, message: string): never {
  throw new CommandError(code, message);
}

/** A `$skip` or `$limit` count: a number that is a non-negative 64-bit integer (5107200 / 5107201). */
function checkCount(stage: '$skip' | '$limit', value: unknown, code: number): void {
  const reason =
    typeof value !== 'number'
      ? 'Expected a number in:'
      : !Number.isInteger(value)
        ? 'Expected an integer:'
        : value < 0
          ? 'Expected a non-negative number in:'
          : undefined;
  if (reason) fail(code, `invalid argument to ${stage} stage: ${reason} ${stage}: ${bsonText(value)}`);
}

/** `$sort`: a document (15973) of at least one key (15976), each checked by sort-pattern.ts. */
function checkSort(spec: unknown): void {
  if (!isPlainObject(spec)) fail(15973, 'the $sort key specification must be an object');
  if (Object.keys(spec).length === 0) fail(15976, '$sort stage must have at least one sort key');
  checkSortKeys(spec);
}

/** `$lookup`: MongoDB's FailedToParse (9) checks, in its order. */
function checkLookup(spec: unknown): void {
  if (!isPlainObject(spec))
    fail(ErrorCodes.FailedToParse, 'the $lookup stage specification must be an object');
  for (const [name, value] of Object.entries(spec)) {
    if (name === 'from') {
      if (typeof value !== 'string' && !isPlainObject(value))
        fail(ErrorCodes.FailedToParse, "$lookup 'from' field must be a string");
    } else if (name === 'as' || name === 'localField' || name === 'foreignField') {
      if (typeof value !== 'string')
        fail(ErrorCodes.FailedToParse, `$lookup argument '${name}' must be a string`);
    } else if (name !== 'let' && name !== 'pipeline') {
      fail(ErrorCodes.FailedToParse, `unknown argument to $lookup: ${name}`);
    }
  }
  const hasPipeline = 'pipeline' in spec;
  if (!('from' in spec) && !hasPipeline)
    fail(ErrorCodes.FailedToParse, "must specify 'pipeline' when 'from' is empty");
  if (!('as' in spec)) fail(ErrorCodes.FailedToParse, "must specify 'as' field for a $lookup");
  if (!hasPipeline && !('localField' in spec && 'foreignField' in spec)) {
    fail(
      ErrorCodes.FailedToParse,
      "$lookup requires either 'pipeline' or both 'localField' and 'foreignField' to be specified",
    );
  }
}

function checkCountStage(field: unknown): void {
  if (typeof field !== 'string' || field === '') fail(40156, 'the count field must be a non-empty string');
  if (field.startsWith('$')) fail(40158, 'the count field cannot be a $-prefixed path');
  if (field.includes('.')) fail(40160, "the count field cannot contain '.'");
}

/** `$unwind`: the checks of MongoDB's DocumentSourceUnwind parser, in its order. */
function checkUnwind(spec: unknown): void {
  let path: unknown = spec;
  if (isPlainObject(spec)) {
    path = undefined;
    for (const [key, value] of Object.entries(spec)) {
      if (key === 'path') {
        if (typeof value !== 'string')
          fail(28808, `expected a string as the path for $unwind stage, got ${bsonTypeName(value)}`);
        path = value;
      } else if (key === 'preserveNullAndEmptyArrays') {
        if (typeof value !== 'boolean') {
          fail(
            28809,
            `expected a boolean for the preserveNullAndEmptyArrays option to $unwind stage, got ${bsonTypeName(value)}`,
          );
        }
      } else if (key === 'includeArrayIndex') {
        if (typeof value !== 'string' || value === '') {
          fail(
            28810,
            `expected a non-empty string for the includeArrayIndex  option to $unwind stage, got ${bsonTypeName(value)}`,
          );
        }
        if (value.startsWith('$')) {
          fail(
            28822,
            `includeArrayIndex option to $unwind stage should not be prefixed with a '$': ${value}`,
          );
        }
      } else {
        fail(28811, `unrecognized option to $unwind stage: ${key}`);
      }
    }
  } else if (typeof spec !== 'string') {
    fail(
      15981,
      `expected either a string or an object as specification for $unwind stage, got ${bsonTypeName(spec)}`,
    );
  }
  if (path === undefined || path === '') fail(28812, 'no path specified to $unwind stage');
  if (!(path as string).startsWith('$')) {
    fail(28818, `path option to $unwind stage should be prefixed with a '$': ${path as string}`);
  }
}

/** Accumulators that take one expression: an array argument is refused with 40237. */
const UNARY_ACCUMULATORS = new Set(['$sum', '$avg', '$first', '$last', '$max', '$min', '$push', '$addToSet']);

/** Accumulators that take `{ input, n }`. */
const N_ACCUMULATORS = new Set([
  '$firstN',
  '$lastN',
  '$maxN',
  '$minN',
  '$top',
  '$bottom',
  '$topN',
  '$bottomN',
]);

function checkGroup(spec: unknown, scope: VariableScope): void {
  if (!isPlainObject(spec)) fail(15947, "a group's fields must be specified in an object");
  for (const [field, value] of Object.entries(spec)) {
    if (field === '_id') {
      checkExpression(value, '', scope);
      continue;
    }
    if (field.includes('.')) fail(40235, `The field name '${field}' cannot contain '.'`);
    if (field.startsWith('$')) fail(40236, `The field name '${field}' cannot be an operator name`);
    if (!isPlainObject(value) || Object.keys(value).length === 0)
      fail(40234, `The field '${field}' must be an accumulator object`);
    const operators = Object.keys(value);
    if (operators.length > 1) fail(40238, `The field '${field}' must specify one accumulator`);
    const name = operators[0]!;
    if (!name.startsWith('$')) fail(40234, `The field '${field}' must be an accumulator object`);
    if (!isAccumulatorOperator(name)) fail(15952, `unknown group operator '${name}'`);
    if (UNARY_ACCUMULATORS.has(name) && Array.isArray(value[name]))
      fail(40237, `The ${name} accumulator is a unary operator`);
    // The n-accumulators parse `{ input, n }` as their expression forms do, and the top/bottom ones their
    // `{ output, sortBy, n }` (accumulator_multi.cpp).
    if (N_ACCUMULATORS.has(name)) checkOperatorArguments(name, value[name]);
    // The percentile accumulators parse the IDL spec of their expression forms, with codes of their own.
    if (name === '$median' || name === '$percentile') checkPercentileAccumulator(name, value[name], scope);
    checkExpression(value[name], '', scope);
  }
  if (!('_id' in spec)) fail(15955, 'a group specification must include an _id');
}

/**
 * `$addFields` and `$set`: an object of field paths and expressions (nested objects are field specs).
 * MongoDB validates every path of the spec (add-fields-check.ts) before it parses any expression.
 */
function checkAddFields(stage: string, spec: unknown, scope: VariableScope): void {
  if (!isPlainObject(spec))
    fail(40272, `${stage} specification stage must be an object, got ${bsonTypeName(spec)}`);
  const prefix = `Invalid ${stage} :: caused by :: `;
  checkAddFieldsPaths(spec, prefix);
  for (const value of Object.values(spec)) checkExpression(value, prefix, scope);
}

/** `$unset`: a path or a non-empty array of paths, none of them a prefix of another. */
function checkUnset(spec: unknown): void {
  const paths = typeof spec === 'string' ? [spec] : spec;
  if (!Array.isArray(paths)) fail(31002, '$unset specification must be a string or an array');
  if (paths.length === 0)
    fail(31119, '$unset specification must be a string or an array with at least one field');
  if (paths.some((p) => typeof p !== 'string'))
    fail(31120, '$unset specification must be a string or an array containing only string values');
  const prefix = 'Invalid $unset :: caused by :: ';
  const seen: string[] = [];
  for (const path of paths as string[]) {
    checkFieldPath(path, prefix);
    for (const earlier of seen) {
      if (earlier === path || earlier.startsWith(`${path}.`))
        fail(31250, `${prefix}Path collision at ${path}`);
      // MongoDB parses `$unset` as the exclusion projection `{ <path>: 0, … }`; its 31249 names the
      // path without its first part (FieldPath::tail), whichever earlier path it met.
      if (path.startsWith(`${earlier}.`)) {
        fail(
          31249,
          `${prefix}Path collision at ${path} remaining portion ${path.slice(path.indexOf('.') + 1)}`,
        );
      }
    }
    seen.push(path);
  }
}

/**
 * `$facet`: a non-empty document (40169) of arrays (40170) of documents (40171), every branch checked
 * before any branch's stages are parsed (extractRawPipelines, document_source_facet.cpp).
 */
function checkFacet(spec: unknown): void {
  if (!isPlainObject(spec) || Object.keys(spec).length === 0)
    fail(40169, `the $facet specification must be a non-empty object, but found: $facet: ${bsonText(spec)}`);
  for (const [name, branch] of Object.entries(spec)) {
    if (!Array.isArray(branch))
      fail(40170, `arguments to $facet must be arrays, ${name} is type ${bsonTypeName(branch)}`);
    branch.forEach((stage: unknown, i) => {
      if (!isPlainObject(stage)) {
        fail(
          40171,
          `elements of arrays in $facet spec must be non-empty objects, ${name} argument contained an element of type ${bsonTypeName(stage)}: ${i}: ${bsonText(stage)}`,
        );
      }
    });
  }
}

/** The pipelines nested in a stage (`$facet`, `$lookup`, `$unionWith`), when they are arrays. */
export function subPipelines(name: string, spec: unknown): unknown[][] {
  if (name === '$facet' && isPlainObject(spec)) return Object.values(spec).filter(Array.isArray);
  if ((name === '$lookup' || name === '$unionWith') && isPlainObject(spec) && Array.isArray(spec['pipeline']))
    return [spec['pipeline'] as unknown[]];
  return [];
}

/**
 * Checks every stage of `pipeline` (each already known to be an object with one field); `letNames` are
 * the variables the command's `let` defines.
 * @throws CommandError with MongoDB's code for the first malformed stage, 17276 for the first read of an
 * undefined variable.
 */
export function checkPipeline(pipeline: readonly unknown[], letNames: Iterable<string> = []): void {
  checkStages(pipeline, VariableScope.root(letNames));
}

/**
 * The stages each sub-pipeline refuses, with the code and message tail of its validator: the stages
 * whose constraints say isAllowedInLookupPipeline / isAllowedInUnionPipeline / isAllowedInsideFacetStage
 * is false (lookupPipeValidator in document_source_lookup.cpp, the validator of
 * document_source_union_with.cpp, DocumentSourceFacet::createFromBson in document_source_facet.cpp).
 * The writing stages are among them everywhere, so a nested `$out` or `$merge` never runs.
 */
const REFUSED_INSIDE: Record<string, { refused: ReadonlySet<string>; code: number; where: string }> = {
  $lookup: {
    refused: new Set(['$out', '$merge']),
    code: 51047,
    where: "is not allowed within a $lookup's sub-pipeline",
  },
  $unionWith: {
    refused: new Set(['$out', '$merge']),
    code: 31441,
    where: "is not allowed within a $unionWith's sub-pipeline",
  },
  $facet: {
    refused: new Set(['$out', '$merge', '$facet', '$search', '$documents']),
    code: 40600,
    where: 'is not allowed to be used within a $facet stage',
  },
};

/**
 * A sub-pipeline of the stage `parent` refuses the stages it may not hold, after its own stages parsed
 * (MongoDB runs the validator once Pipeline::parse has built every stage).
 */
function checkAllowedInside(parent: string, pipeline: readonly unknown[]): void {
  const rule = REFUSED_INSIDE[parent];
  if (!rule) return;
  for (const stage of pipeline) {
    const name = isPlainObject(stage) ? Object.keys(stage)[0] : undefined;
    if (name !== undefined && rule.refused.has(name)) fail(rule.code, `${name} ${rule.where}`);
  }
}

/** `checkPipeline` of a pipeline standing in `scope`. */
function checkStages(pipeline: readonly unknown[], scope: VariableScope): void {
  for (const stage of pipeline) {
    if (!isPlainObject(stage)) continue;
    // DocumentSource::parse, which every pipeline's stages go through, nested ones too.
    if (Object.keys(stage).length !== 1)
      fail(40323, 'A pipeline stage specification object must contain exactly one field.');
    const name = Object.keys(stage)[0]!;
    const spec = stage[name];
    switch (name) {
      case '$limit':
        checkCount('$limit', spec, 5107201);
        if (spec === 0) fail(15958, 'the limit must be positive');
        break;
      case '$skip':
        checkCount('$skip', spec, 5107200);
        break;
      case '$sort':
        checkSort(spec);
        break;
      case '$count':
        checkCountStage(spec);
        break;
      case '$lookup':
        checkLookup(spec);
        if (isPlainObject(spec)) checkCollectionless(name, spec);
        break;
      case '$unionWith':
        if (isPlainObject(spec)) checkCollectionless(name, spec);
        break;
      case INNER_DOCUMENTS:
        // The engine's own name for a sub-pipeline's $documents is no stage of MongoDB's.
        throw new CommandError(40324, `Unrecognized pipeline stage name: '${name}'`);
      case '$unwind':
        checkUnwind(spec);
        break;
      case '$group':
        checkGroup(spec, scope);
        break;
      case '$sortByCount':
        // An alias for a $group on this expression (sort-by-count.ts): checked as its key is.
        checkSortByCount(spec);
        checkExpression(spec, '', scope);
        break;
      case '$project':
        checkProject(spec, scope);
        break;
      case '$documents':
        // Desugared into a $project of its argument (documents-stage.ts), which checks it.
        checkProject(documentsProjection(spec), scope, name);
        break;
      case '$addFields':
      case '$set':
        checkAddFields(name, spec, scope);
        break;
      case '$unset':
        checkUnset(spec);
        break;
      case '$replaceWith':
        checkExpression(spec, '', scope);
        break;
      case '$replaceRoot':
        if (isPlainObject(spec)) checkExpression(spec['newRoot'], '', scope);
        break;
      case '$facet':
        checkFacet(spec);
        break;
      case '$merge':
        checkMergeStage(spec, scope);
        break;
      case '$match':
        if (isPlainObject(spec) && '$expr' in spec) checkExpression(spec['$expr'], '', scope);
        checkStageVariables(name, spec, scope);
        break;
      default:
        checkStageVariables(name, spec, scope);
    }
    // A $lookup's sub-pipeline also sees its `let` names; $facet and $unionWith pipelines stand in `scope`.
    const inner = name === '$lookup' ? lookupScope(spec, scope) : scope;
    for (const sub of subPipelines(name, spec)) {
      checkStages(sub, inner);
      checkAllowedInside(name, sub);
      checkStagePositions(sub);
    }
  }
}
