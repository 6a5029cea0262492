/**
 * Server-side cursors: materialized result lists handed out in batches by count and by size
 * (~16 MiB per reply), int64 ids, an idle timeout and killCursors. A result document over 16 MiB + 16 KiB
 * (a `$lookup` or `$group` can build one) fails the batch that reaches it, as MongoDB fails to turn it
 * into BSON, and closes the cursor.
 */
import { BSON, Long } from 'bson';
import { randomBytes } from 'node:crypto';
import type { ChangeStreamReader } from './change-stream.js';
import { MAX_BATCH_BYTES, MAX_BSON_INTERNAL_SIZE, objectTooLarge } from './limits.js';
import type { Doc } from './values.js';

/**
 * Who opened a cursor: the session key (hex of the `lsid` UUID) and the `txnNumber` of the command,
 * each undefined when the command had none. Only the same owner may run getMore on it.
 */
export interface CursorOwner {
  sessionId: string | undefined;
  txnNumber: number | undefined;
}

/** An open cursor. */
export interface Cursor {
  id: Long;
  ns: string;
  docs: Doc[];
  position: number;
  batchSize: number | undefined;
  lastUsed: number;
  /** The session and transaction number of the command that opened the cursor. */
  owner: CursorOwner;
  /**
   * True when, like a MongoDB plan executor scanning a collection, the cursor only notices its end
   * when a read past the last document fails: a batch that ends exactly on the last document leaves
   * the cursor open, and the next getMore answers an empty batch with id 0.
   */
  lazyEnd?: boolean;
  /** For a change stream: its reader (such a cursor has no documents and stays open until killed). */
  stream?: ChangeStreamReader;
}

/** Owns the open cursors of one server. */
export class CursorManager {
  private readonly cursors = new Map<string, Cursor>();
  private readonly timer: NodeJS.Timeout;

  /** @param idleTimeoutMs idle cursors are closed after this many milliseconds (MongoDB: 10 minutes). */
  constructor(private readonly idleTimeoutMs: number) {
    this.timer = setInterval(() => this.sweep(), Math.min(60_000, Math.max(50, idleTimeoutMs / 2)));
    this.timer.unref();
  }

  get size(): number {
    return this.cursors.size;
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, c] of this.cursors) if (now - c.lastUsed > this.idleTimeoutMs) this.cursors.delete(key);
  }

  /**
   * True when the cursor is done after a batch: every document is handed out and, for a lazy end,
   * the batch was not `full` (it stopped short of its size because a read found nothing more).
   */
  static exhausted(cursor: Pick<Cursor, 'docs' | 'position' | 'lazyEnd'>, full: boolean): boolean {
    return cursor.position >= cursor.docs.length && !(cursor.lazyEnd && full);
  }

  /**
   * Takes the next batch (by count, then by bytes; always at least one document when any remain).
   * @throws CommandError BSONObjectTooLarge (10334) when it reaches a document over 16 MiB + 16 KiB.
   */
  static take(cursor: Pick<Cursor, 'docs' | 'position'>, batchSize: number | undefined): Doc[] {
    const out: Doc[] = [];
    let bytes = 0;
    const max = batchSize && batchSize > 0 ? batchSize : Infinity;
    while (cursor.position < cursor.docs.length && out.length < max) {
      const doc = cursor.docs[cursor.position]!;
      const size = BSON.calculateObjectSize(doc);
      if (size > MAX_BSON_INTERNAL_SIZE) throw objectTooLarge(doc, size);
      if (out.length > 0 && bytes + size > MAX_BATCH_BYTES) break;
      bytes += size;
      out.push(doc);
      cursor.position++;
    }
    return out;
  }

  /**
   * Builds a first-batch reply; registers a cursor when documents remain (unless `singleBatch`).
   * `batchSize` defaults to 101 like MongoDB; 0 returns an empty first batch. With `lazyEnd` (see
   * {@link Cursor.lazyEnd}) a first batch that ends exactly on the last document keeps the cursor.
   */
  open(
    ns: string,
    docs: Doc[],
    owner: CursorOwner,
    options: { batchSize?: number; singleBatch?: boolean; lazyEnd?: boolean },
  ): Doc {
    const state = { docs, position: 0, lazyEnd: options.lazyEnd };
    const size = options.batchSize ?? 101;
    // A first batch of 0 opens the cursor without returning anything (MongoDB's `batchSize: 0`).
    const first = size === 0 ? [] : CursorManager.take(state, size);
    let id = Long.ZERO;
    if (!CursorManager.exhausted(state, first.length >= size) && !options.singleBatch) {
      id = this.newId();
      this.cursors.set(id.toString(), {
        id,
        ns,
        docs,
        position: state.position,
        batchSize: undefined,
        lastUsed: Date.now(),
        owner,
        lazyEnd: options.lazyEnd,
      });
    }
    return { cursor: { firstBatch: first, id, ns }, ok: 1 };
  }

  /** Registers a change stream cursor; returns its id. */
  openStream(ns: string, stream: ChangeStreamReader, owner: CursorOwner): Long {
    const id = this.newId();
    const cursor = { id, ns, docs: [], position: 0, batchSize: undefined, lastUsed: Date.now(), owner };
    this.cursors.set(id.toString(), { ...cursor, stream });
    return id;
  }

  private newId(): Long {
    for (;;) {
      const id = Long.fromBytesLE([...randomBytes(8)]).and(Long.MAX_VALUE);
      if (!id.isZero() && !this.cursors.has(id.toString())) return id;
    }
  }

  get(id: Long): Cursor | undefined {
    return this.cursors.get(id.toString());
  }

  /** Next batch reply for getMore; drops the cursor once exhausted. */
  more(cursor: Cursor, batchSize: number | undefined): Doc {
    cursor.lastUsed = Date.now();
    let batch: Doc[];
    try {
      batch = CursorManager.take(cursor, batchSize);
    } catch (error) {
      this.cursors.delete(cursor.id.toString());
      throw error;
    }
    const full = batchSize !== undefined && batchSize > 0 && batch.length >= batchSize;
    const done = CursorManager.exhausted(cursor, full);
    if (done) this.cursors.delete(cursor.id.toString());
    return { cursor: { nextBatch: batch, id: done ? Long.ZERO : cursor.id, ns: cursor.ns }, ok: 1 };
  }

  /** Closes the cursors a session opened (endSessions). */
  killSession(sessionId: string): void {
    for (const [key, c] of this.cursors) if (c.owner.sessionId === sessionId) this.cursors.delete(key);
  }

  kill(id: Long): boolean {
    return this.cursors.delete(id.toString());
  }

  /** Closes every cursor (server shutdown). */
  close(): void {
    clearInterval(this.timer);
    this.cursors.clear();
  }
}
