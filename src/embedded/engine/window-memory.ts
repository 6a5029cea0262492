/**
 * The memory one `$setWindowFields` partition holds, counted as MongoDB 7.0 counts it: one tracker per
 * stage (`internalDocumentSourceSetWindowFieldsMaxMemoryBytes`, 100 MiB by default) that holds the
 * documents the partition iterator keeps plus the state of every window function, checked after each
 * function computes its value for a document (DocumentSourceInternalSetWindowFields::doGetNext in
 * document_source_set_window_fields.cpp, 5414201). With `allowDiskUse` MongoDB spills the partition's
 * documents to disk, but not the functions' state, so the functions alone can still exceed the limit;
 * the embedded database keeps the spilled documents in memory and counts only the functions then.
 *
 * A function's state is approximated by the value it computes (memory-limits.ts's `approximateSize`): a
 * `$push`, `$addToSet`, `$topN`, `$firstN` … holds the values it returns, a `$sum` or `$avg` a few
 * numbers. Each output field has one state at a time, replaced as the window moves.
 */
import { approximateSize, memoryLimits, MemoryTracker } from './memory-limits.js';
import { isPlainObject } from './values.js';
import { CommandError } from '../errors.js';

/** MongoDB 7.0's error past the limit. */
function windowExceeded(used: number, limit: number): CommandError {
  return new CommandError(
    5414201,
    `Exceeded memory limit in DocumentSourceSetWindowFields, used ${used} bytes but max allowed is ${limit}`,
  );
}

/**
 * What identifies one output's function between calls: its argument object, which mingo passes on
 * unchanged, or for a plain argument (`'$x'`) the operator and that value, shared by outputs that
 * compute the same thing.
 */
function stateKey(op: string, args: unknown): unknown {
  return isPlainObject(args) || Array.isArray(args) ? args : `${op}\u0000${typeof args}\u0000${String(args)}`;
}

/** The memory of one partition of one `$setWindowFields` (see the file comment). */
export class WindowMemory {
  private readonly tracker = new MemoryTracker(
    'internalDocumentSourceSetWindowFieldsMaxMemoryBytes',
    windowExceeded,
  );
  private readonly states = new Map<unknown, number>();
  /** How many outputs share each key: two outputs `{ $push: '$x' }` hold two states. */
  private readonly copies = new Map<unknown, number>();

  /** @param outputs each output's operator and argument, as the stage runs them. */
  constructor(outputs: [op: string, args: unknown][]) {
    for (const [op, args] of outputs) {
      const key = stateKey(op, args);
      this.copies.set(key, (this.copies.get(key) ?? 0) + 1);
    }
  }

  /** True when `op` with `args` is one of the outputs (and not a call made on its behalf). */
  isOutput(op: string, args: unknown): boolean {
    return this.copies.has(stateKey(op, args));
  }

  /**
   * Counts a document the partition holds; only without disk use, as MongoDB spills them otherwise.
   * @throws CommandError 5414201 past the limit.
   */
  holdDocument(doc: unknown): void {
    if (!memoryLimits().allowDiskUse) this.tracker.add(approximateSize(doc));
  }

  /**
   * Replaces the state of the output computing `op` with `args` by one the size of `value`.
   * @throws CommandError 5414201 when the partition and every state together pass the limit.
   */
  setState(op: string, args: unknown, value: unknown): void {
    const key = stateKey(op, args);
    const bytes = approximateSize(value) * (this.copies.get(key) ?? 1);
    this.tracker.add(bytes - (this.states.get(key) ?? 0));
    this.states.set(key, bytes);
  }
}
