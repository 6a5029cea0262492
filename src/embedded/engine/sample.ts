/**
 * The `$sample` stage: `{ $sample: { size: N } }` returns N documents of its input chosen at random,
 * each at most once, or all of them in random order when there are N or fewer (MongoDB manual,
 * "$sample (aggregation)"). mingo's own draws with replacement, so it could return one document N
 * times.
 */
import { Lazy } from 'mingo/lazy';
import type { PipelineOp } from './operator-types.js';
import { isPlainObject } from './values.js';
import { CommandError } from '../errors.js';

/** The sample size of a `$sample` spec; throws MongoDB's errors (28745–28749) for a malformed one. */
function sampleSize(spec: unknown): number {
  if (!isPlainObject(spec))
    throw new CommandError(28745, 'the $sample stage specification must be an object');
  let size: number | undefined;
  for (const [name, value] of Object.entries(spec)) {
    if (name !== 'size') throw new CommandError(28748, `unrecognized option to $sample: ${name}`);
    if (typeof value !== 'number' || Number.isNaN(value)) {
      throw new CommandError(28746, 'size argument to $sample must be a number');
    }
    if (value < 0) throw new CommandError(28747, 'size argument to $sample must not be negative');
    size = Math.trunc(value);
  }
  if (size === undefined) throw new CommandError(28749, '$sample stage must specify a size');
  return size;
}

/** The `$sample` pipeline operator registered in the engine's context (same arguments as mingo's). */
export const sampleStage: PipelineOp = (collection, spec) => {
  const size = sampleSize(spec);
  return collection.transform((items: unknown[]) => {
    // A partial Fisher–Yates shuffle of a copy: the first `count` places get distinct random items.
    const pool = items.slice();
    const count = Math.min(size, pool.length);
    for (let i = 0; i < count; i++) {
      const j = i + Math.floor(Math.random() * (pool.length - i));
      const picked = pool[j];
      pool[j] = pool[i];
      pool[i] = picked;
    }
    pool.length = count;
    return Lazy(pool);
  });
};
