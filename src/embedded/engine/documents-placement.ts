/**
 * Where MongoDB 7.0 lets `$documents` stand, and what a pipeline without a collection must start with.
 * Its first desugared stage is a queue that is independent of any collection and must come first
 * (document_source_queue.h: PositionRequirement::kFirst, isIndependentOfAnyCollection), so:
 * - a command's pipeline on a collection may not start with it, and one on the database
 *   (`{ aggregate: 1 }`) must (Pipeline::validateTopLevelPipeline, pipeline.cpp: InvalidNamespace, 73);
 * - anywhere but first it is 40602 (Pipeline::validateCommon), checked after those, as a `$match`
 *   holding `$text` there is 17313;
 * - a `$lookup` or `$unionWith` that names no collection must start its pipeline with it (FailedToParse:
 *   validateLookupCollectionlessPipeline, validateUnionWithCollectionlessPipeline).
 * (`$facet` refuses it as it refuses other stages: pipeline-check.ts.)
 */
import { isPlainObject } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** The stages whose first desugared stage is a `$group`, which MongoDB's messages name instead. */
const GROUPING = new Set(['$sortByCount', '$bucket', '$count']);

/** The name of `stage`'s only field. */
const nameOf = (stage: unknown): string | undefined =>
  isPlainObject(stage) ? Object.keys(stage)[0] : undefined;

/** Whether `pipeline` is an array whose first stage holds a `$documents` field. */
function startsWithDocuments(pipeline: unknown): boolean {
  const first: unknown = Array.isArray(pipeline) ? pipeline[0] : undefined;
  return isPlainObject(first) && '$documents' in first;
}

/**
 * A command's own pipeline against what it names: a collection, or the database (`{ aggregate: 1 }`).
 * @throws CommandError InvalidNamespace (73) "{aggregate: 1} is not valid for an empty pipeline." / "… for
 *   '<stage>'; a collection is required." / "'$documents' can only be run with {aggregate: 1}".
 */
export function checkNamespace(pipeline: readonly unknown[], onDatabase: boolean): void {
  const first = nameOf(pipeline[0]);
  if (first === undefined) {
    if (onDatabase)
      throw new CommandError(
        ErrorCodes.InvalidNamespace,
        '{aggregate: 1} is not valid for an empty pipeline.',
      );
    return;
  }
  const independent = first === '$documents';
  if (onDatabase && !independent) {
    const source = GROUPING.has(first) ? '$group' : first;
    throw new CommandError(
      ErrorCodes.InvalidNamespace,
      `{aggregate: 1} is not valid for '${source}'; a collection is required.`,
    );
  }
  if (!onDatabase && independent)
    throw new CommandError(ErrorCodes.InvalidNamespace, "'$documents' can only be run with {aggregate: 1}");
}

/** Whether `filter` holds `$text` at any depth, as DocumentSourceMatch::isTextQuery looks for it. */
export function isTextQuery(filter: unknown): boolean {
  if (Array.isArray(filter)) return filter.some(isTextQuery);
  if (!isPlainObject(filter)) return false;
  return Object.entries(filter).some(([name, value]) => name === '$text' || isTextQuery(value));
}

/**
 * The stages of `pipeline` that must come first, in stage order as Pipeline::validateCommon checks
 * them, in every pipeline (sub-pipelines too).
 * @throws CommandError 40602 for a `$documents` or `$search` stage, 17313 "$match with $text is only
 *   allowed as the first pipeline stage" for a `$match` holding `$text`, that is not the first.
 */
export function checkStagePositions(pipeline: readonly unknown[]): void {
  pipeline.forEach((stage, i) => {
    if (i === 0) return;
    const name = nameOf(stage);
    if (name === '$documents' || name === '$search')
      throw new CommandError(40602, `${name} is only valid as the first stage in a pipeline`);
    if (name === '$match' && isTextQuery((stage as Record<string, unknown>)['$match']))
      throw new CommandError(17313, '$match with $text is only allowed as the first pipeline stage');
  });
}

/**
 * A `$lookup` without `from` or a `$unionWith` without `coll` (`stage`, its object `spec`): its pipeline
 * must start with `$documents`.
 * @throws CommandError FailedToParse (9) "<stage> stage without explicit collection must have a pipeline
 *   with $documents as first stage".
 */
export function checkCollectionless(stage: '$lookup' | '$unionWith', spec: Record<string, unknown>): void {
  const named = stage === '$lookup' ? 'from' in spec : 'coll' in spec;
  if (named || startsWithDocuments(spec['pipeline'])) return;
  // A pipeline that is no array is the stage parser's to refuse.
  if (spec['pipeline'] !== undefined && !Array.isArray(spec['pipeline'])) return;
  throw new CommandError(
    ErrorCodes.FailedToParse,
    `${stage} stage without explicit collection must have a pipeline with $documents as first stage`,
  );
}
