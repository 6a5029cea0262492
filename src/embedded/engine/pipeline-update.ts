/**
 * Updates given as an aggregation pipeline: the stages MongoDB allows there run on the one document,
 * with `$$ROOT` the stored document, and the `_id` is kept when the result omits it (as after a
 * `$replaceWith` of a sub-document). The pipeline is parsed first, as MongoDB's PipelineExecutor parses
 * it (update_driver.cpp, pipeline_executor.cpp), so a malformed stage, an unknown expression or a read of
 * an undefined variable fails before any document is read.
 */
import { Aggregator } from 'mingo/aggregator';
import type { Options } from 'mingo/types';
import { checkPipeline } from './pipeline-check.js';
import { normalizePipeline } from './specs.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** The stages an update pipeline may hold (MongoDB 7.0). */
const UPDATE_STAGES = new Set(['$addFields', '$set', '$project', '$unset', '$replaceRoot', '$replaceWith']);

/** Refuses a stage updates do not allow. @throws CommandError InvalidOptions (72). */
function checkStagesAllowed(stages: readonly unknown[]): void {
  for (const stage of stages) {
    const name = isPlainObject(stage) ? Object.keys(stage)[0] : undefined;
    if (name === undefined || !UPDATE_STAGES.has(name))
      throw new CommandError(
        ErrorCodes.InvalidOptions,
        `${String(name)} is not allowed to be used within an update`,
      );
  }
}

/**
 * Parses a pipeline-style update (`update` an array; anything else is left alone) as MongoDB does before it
 * reads a document: arrayFilters are refused, then every stage is parsed as in `aggregate` with the
 * command's `let` names (and a statement's `c` constants) defined, then each stage must be one updates
 * allow.
 * @throws CommandError FailedToParse (9) when `hasArrayFilters`, the errors of `checkPipeline` (17276 for
 * an undefined variable, 168 for an unknown expression …), InvalidOptions (72) for a stage not allowed.
 */
export function checkUpdatePipeline(
  update: unknown,
  letNames: Iterable<string>,
  hasArrayFilters = false,
): void {
  if (!Array.isArray(update)) return;
  // UpdateDriver::parse refuses them before it builds the pipeline.
  if (hasArrayFilters) {
    throw new CommandError(
      ErrorCodes.FailedToParse,
      'arrayFilters may not be specified for pipeline-style updates',
    );
  }
  const stages = normalizePipeline(update as Doc[]);
  // Pipeline::parse parses every stage before the executor checks which ones updates allow.
  checkPipeline(stages, letNames);
  checkStagesAllowed(stages);
}

/**
 * Runs an update pipeline over `doc` (not changed) and returns the new document.
 * @throws CommandError InvalidOptions (72) for a stage updates do not allow, BadValue for mingo errors.
 */
export function applyPipeline(doc: Doc, pipeline: unknown[], options: Partial<Options>): Doc {
  const stages = normalizePipeline(pipeline as Doc[]);
  checkStagesAllowed(stages);
  const [next] = new Aggregator(stages, options).run<Doc>([doc]);
  if (!next) return { _id: doc['_id'] };
  return next['_id'] === undefined && doc['_id'] !== undefined ? { _id: doc['_id'], ...next } : next;
}
