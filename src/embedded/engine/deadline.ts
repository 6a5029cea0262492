/**
 * `maxTimeMS`: a command's time limit, checked by the work a client controls the cost of (regex matching,
 * linear-regex.ts; documents scanned, read.ts; statements of a write batch, crud.ts). Commands run
 * synchronously between their `await`s, so the deadline is set around each synchronous part
 * ({@link runUntil}) and never leaks into another connection's command.
 */
import { CommandError, ErrorCodes } from '../errors.js';

let deadline = Infinity;

/** Calls of {@link tickDeadline} since it last read the clock. */
let ticks = 0;

/** How many {@link tickDeadline} calls share one reading of the clock. */
const TICKS_PER_CHECK = 64;

/**
 * The `performance.now()` time at which a command given `maxTimeMS` (milliseconds; absent, 0 or not a
 * number: no limit) from now runs out of time; Infinity without a limit.
 */
export function deadlineAfter(maxTimeMS: unknown): number {
  return typeof maxTimeMS === 'number' && maxTimeMS > 0 ? performance.now() + maxTimeMS : Infinity;
}

/**
 * Runs `fn` with `until` (from {@link deadlineAfter}) as the deadline of its synchronous part. A command
 * that awaits between its steps (the statements of a write batch) runs each step this way, so the
 * later ones are held to the same time limit as the first.
 */
export function runUntil<T>(until: number, fn: () => T): T {
  const saved = deadline;
  deadline = until;
  try {
    return fn();
  } finally {
    deadline = saved;
  }
}

/**
 * Stops the running command once its `maxTimeMS` has passed.
 * @throws CommandError MaxTimeMSExpired (50) "operation exceeded time limit", as MongoDB answers.
 */
export function checkDeadline(): void {
  if (deadline !== Infinity && performance.now() > deadline) {
    throw new CommandError(ErrorCodes.MaxTimeMSExpired, 'operation exceeded time limit');
  }
}

/**
 * {@link checkDeadline} for a step of a loop over many cheap steps (the documents a filter scans),
 * reading the clock once every 64 steps: a step that can itself be slow (a regex, a `$reduce`) checks
 * the deadline inside. Without a time limit it costs one comparison.
 * @throws CommandError MaxTimeMSExpired (50), as {@link checkDeadline}.
 */
export function tickDeadline(): void {
  if (deadline === Infinity || ++ticks < TICKS_PER_CHECK) return;
  ticks = 0;
  checkDeadline();
}
