/**
 * Updates given as an aggregation pipeline: the stages MongoDB allows there run on the one document,
 * with `$$ROOT` the stored document, and the `_id` is kept when the result omits it (as after a
 * `$replaceWith` of a sub-document).
 */
import { Aggregator } from 'mingo/aggregator';
import type { Options } from 'mingo/types';
import { normalizePipeline } from './specs.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** The stages an update pipeline may hold (MongoDB 7.0). */
const UPDATE_STAGES = new Set(['$addFields', '$set', '$project', '$unset', '$replaceRoot', '$replaceWith']);

/**
 * Runs an update pipeline over `doc` (not changed) and returns the new document.
 * @throws CommandError InvalidOptions (72) for a stage updates do not allow, BadValue for mingo errors.
 */
export function applyPipeline(doc: Doc, pipeline: unknown[], options: Partial<Options>): Doc {
  const stages = normalizePipeline(pipeline as Doc[]);
  for (const stage of stages) {
    const name = isPlainObject(stage) ? Object.keys(stage)[0] : undefined;
    if (name === undefined || !UPDATE_STAGES.has(name))
      throw new CommandError(
        ErrorCodes.InvalidOptions,
        `${String(name)} is not allowed to be used within an update`,
      );
  }
  const [next] = new Aggregator(stages, options).run<Doc>([doc]);
  if (!next) return { _id: doc['_id'] };
  return next['_id'] === undefined && doc['_id'] !== undefined ? { _id: doc['_id'], ...next } : next;
}
