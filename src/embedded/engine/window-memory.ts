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
 * numbers. Each output field has one state at a time, replaced as the window moves: the stage computes
 * one output document at a time (set-window-fields.ts), so only the current document's values count.
 */
import { approximateSize, memoryLimits, MemoryTracker } from './memory-limits.js';
import { CommandError } from '../errors.js';

/** MongoDB 7.0's error past the limit. */
function windowExceeded(used: number, limit: number): CommandError {
  return new CommandError(
    5414201,
    `Exceeded memory limit in DocumentSourceSetWindowFields, used ${used} bytes but max allowed is ${limit}`,
  );
}

/** The memory of one partition of one `$setWindowFields` (see the file comment). */
export class WindowMemory {
  private readonly tracker = new MemoryTracker(
    'internalDocumentSourceSetWindowFieldsMaxMemoryBytes',
    windowExceeded,
  );
  /** Each output's value for the document last computed, and the bytes it was counted for. */
  private readonly states: { value: unknown; bytes: number }[] = [];

  /**
   * Counts a document the partition holds; only without disk use, as MongoDB spills them otherwise.
   * @throws CommandError 5414201 past the limit.
   */
  holdDocument(doc: unknown): void {
    if (!memoryLimits().allowDiskUse) this.tracker.add(approximateSize(doc));
  }

  /**
   * Replaces the state of output number `output` by one the size of `value`, the value it computed for
   * the current document. A value the output computed for the previous document too (a whole-partition
   * window's, computed once) is not measured again.
   * @throws CommandError 5414201 when the partition and every state together pass the limit.
   */
  setState(output: number, value: unknown): void {
    const previous = this.states[output];
    if (previous && previous.value === value && typeof value === 'object' && value !== null) return;
    const bytes = approximateSize(value);
    this.tracker.add(bytes - (previous?.bytes ?? 0));
    this.states[output] = { value, bytes };
  }
}
