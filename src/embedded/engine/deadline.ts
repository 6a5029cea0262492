/**
 * `maxTimeMS`: a command's time limit, checked by the work a client controls the cost of (regex matching,
 * linear-regex.ts). Commands run synchronously up to their first `await`, so the deadline is set around
 * that synchronous part only and never leaks into another connection's command.
 */
import { CommandError, ErrorCodes } from '../errors.js';

let deadline = Infinity;

/**
 * Runs `fn` with `maxTimeMS` (milliseconds; absent, 0 or not a number: no limit) as the deadline of its
 * synchronous part.
 */
export function runWithin<T>(maxTimeMS: unknown, fn: () => T): T {
  const saved = deadline;
  if (typeof maxTimeMS === 'number' && maxTimeMS > 0) deadline = performance.now() + maxTimeMS;
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
 * Milliseconds left before the running command's `maxTimeMS` passes (Infinity without one), read while
 * it runs synchronously, for a command that then waits (a write blocked by a transaction).
 */
export function timeLeft(): number {
  return deadline - performance.now();
}
