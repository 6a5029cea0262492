/**
 * The events this instance publishes on their way to the sync collection: queued in emit order and
 * written in ordered batches (write.ts), so that every other instance receives them in that order.
 */
import type { Collection, Document } from 'mongodb';
import type { SyncRecord } from './declarations.js';
import { notWritten, writeBatch } from './write.js';

/** Most events written by one insertMany. */
const BATCH = 1000;

/** The queue of events to write, and the loop writing it (one per {@link Sync}). */
export class Outbox {
  private readonly pending: SyncRecord[] = [];
  private draining: Promise<void> | undefined;
  /** Records of the batch being written (not yet known to be written). */
  private writing = 0;
  /** Set once `close()` began: queued writes are then not retried. */
  private closing = false;
  private closed = false;

  constructor(
    private readonly collection: Promise<Collection<Document>>,
    private readonly report: (error: unknown) => void,
  ) {}

  /** Queues a record and starts writing if nothing is being written. */
  push(record: SyncRecord): void {
    this.pending.push(record);
    this.draining ??= this.drain();
  }

  /** Writes queued events in batches, in emit order (one ordered insertMany per batch). */
  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, BATCH);
      if (this.closed) continue;
      this.writing = batch.length;
      const written = await this.collection.then(
        async (collection) => writeBatch(collection, batch, this.report, () => this.closing),
        (error: unknown) => (this.report(notWritten(batch.length, error)), false),
      );
      this.writing = 0;
      // Closing with the database out of reach: each batch would wait for it again.
      if (!written && this.closing && this.pending.length > 0)
        this.report(notWritten(this.pending.splice(0).length, 'the database is out of reach'));
    }
    this.draining = undefined;
  }

  /** Waits until every event queued so far is written (or reported as not written). */
  async flush(): Promise<void> {
    while (this.draining) await this.draining;
  }

  /**
   * Writes what is queued, waiting at most `timeoutMs` milliseconds; what is still unwritten then is
   * reported as not written, and nothing queued later is written.
   */
  async close(timeoutMs: number): Promise<void> {
    this.closing = true;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<boolean>((resolve) => (timer = setTimeout(resolve, timeoutMs, true)));
    const gaveUp = await Promise.race([this.flush().then(() => false), expired]);
    clearTimeout(timer);
    if (gaveUp) {
      const count = this.writing + this.pending.splice(0).length;
      const reason = `teardown stopped waiting for the database after ${timeoutMs} ms (teardownTimeoutMs)`;
      this.report(notWritten(count, reason));
    }
    this.closed = true;
  }
}
