/**
 * The change history: committed writes as change records (what MongoDB reads from its oplog for change
 * streams), in commit order, bounded, with a logical cluster clock and waiters woken by new records.
 * Writes outside transactions are appended as they happen; writes in a transaction are staged and
 * appended together at commit (with the session's `lsid` and `txnNumber`), and dropped on abort.
 */
import { randomBytes } from 'node:crypto';
import { Timestamp } from 'bson';
import type { Doc } from './values.js';

/** The operation a change record describes. */
export type ChangeOp = 'insert' | 'update' | 'replace' | 'delete' | 'drop' | 'rename' | 'dropDatabase';

/** A cluster time as MongoDB's Timestamp holds it: seconds and an increment within the second. */
export interface ClusterTime {
  t: number;
  i: number;
}

/** What a write reports; the history adds sequence, time and transaction. */
export interface ChangeDraft {
  op: ChangeOp;
  db: string;
  /** Collection name (all but dropDatabase). */
  coll?: string;
  /** Target of a rename. */
  to?: { db: string; coll: string };
  /** The document's `_id` (document operations). */
  id?: unknown;
  /** The document after the change: always for insert/replace, for updates only with post-images. */
  after?: Doc;
  /** The document before the change (only when the collection has changeStreamPreAndPostImages). */
  before?: Doc;
  /** updatedFields / removedFields / truncatedArrays of an update. */
  update?: Doc;
}

/** One committed change. */
export interface ChangeRecord extends ChangeDraft {
  /** Position in the history: 1, 2, 3 … (continuous across trimming). */
  seq: number;
  time: ClusterTime;
  wallTime: Date;
  /** For writes of a transaction: the session id (hex UUID) and transaction number. */
  txn?: { lsid: string; txnNumber: number };
}

/** Default number of change records kept (older ones are forgotten; resuming before them fails). */
export const DEFAULT_HISTORY_SIZE = 10_000;

/** The bounded, ordered list of committed changes of one server. */
export class ChangeHistory {
  /** Identifies this history: tokens from another one (another server, a restart without dbPath) are refused. */
  epoch = randomBytes(4).toString('hex');
  private records: ChangeRecord[] = [];
  private last: ClusterTime = { t: Math.floor(Date.now() / 1000), i: 0 };
  private lastSeq = 0;
  private readonly waiters = new Set<() => void>();
  private readonly staged = new WeakMap<object, ChangeDraft[]>();
  private closed = false;
  /** Called with the records of each append (persistence of the history). */
  onAppend: ((records: ChangeRecord[]) => void) | undefined;

  /** @param maxRecords how many records are retained (at least 1). */
  constructor(readonly maxRecords = DEFAULT_HISTORY_SIZE) {}

  /** Sequence number of the newest record (0 when none was ever written). */
  get latestSeq(): number {
    return this.lastSeq;
  }

  /** Sequence number of the oldest retained record (latestSeq + 1 when none is retained). */
  get oldestSeq(): number {
    return this.records[0]?.seq ?? this.lastSeq + 1;
  }

  /** The cluster time of the newest write (operationTime of replies). */
  get clusterTime(): ClusterTime {
    return this.last;
  }

  /** The cluster time as a bson Timestamp. */
  timestamp(time: ClusterTime = this.last): Timestamp {
    return new Timestamp({ t: time.t, i: time.i });
  }

  private tick(): ClusterTime {
    const now = Math.floor(Date.now() / 1000);
    this.last = now > this.last.t ? { t: now, i: 1 } : { t: this.last.t, i: this.last.i + 1 };
    return this.last;
  }

  /** Records changes committed together (one cluster time for all, as a transaction's commit). */
  append(drafts: ChangeDraft[], txn?: ChangeRecord['txn']): void {
    if (drafts.length === 0) return;
    const time = this.tick();
    const wallTime = new Date();
    const added = drafts.map((d) => ({ ...d, seq: ++this.lastSeq, time, wallTime, ...(txn ? { txn } : {}) }));
    this.records.push(...added);
    const excess = this.records.length - this.maxRecords;
    // Trim in chunks so a full history does not shift the array on every write.
    if (excess > Math.max(1, this.maxRecords / 16)) this.records.splice(0, excess);
    this.onAppend?.(added);
    this.wake();
  }

  /** Adds a write of an open transaction: it reaches the history at commit, or never. */
  stage(txn: object, draft: ChangeDraft): void {
    let list = this.staged.get(txn);
    if (!list) this.staged.set(txn, (list = []));
    list.push(draft);
  }

  /** Appends the staged writes of a committed transaction, in the order they were made. */
  commit(txn: object, lsid: string, txnNumber: number): void {
    const list = this.staged.get(txn);
    this.staged.delete(txn);
    if (list) this.append(list, { lsid, txnNumber });
  }

  /** The retained records after `seq`, oldest first (at most `limit`). */
  after(seq: number, limit = Infinity): ChangeRecord[] {
    const first = this.oldestSeq;
    const start = Math.max(0, seq + 1 - first);
    return this.records.slice(start, start + Math.min(limit, this.records.length));
  }

  /** The sequence number of the first retained record at or after `time` (latestSeq + 1 when none). */
  seqAtOrAfter(time: ClusterTime): number {
    for (const r of this.records)
      if (r.time.t > time.t || (r.time.t === time.t && r.time.i >= time.i)) return r.seq;
    return this.lastSeq + 1;
  }

  /** Resolves when records are appended, the history is closed, or after `ms` (no polling). */
  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.closed) return resolve();
      const waiters = this.waiters;
      const timer = setTimeout(done, Math.max(0, ms));
      function done(): void {
        clearTimeout(timer);
        waiters.delete(done);
        resolve();
      }
      waiters.add(done);
    });
  }

  /** Wakes the waiters without new records (a waiting getMore whose cursor was killed returns). */
  nudge(): void {
    this.wake();
  }

  private wake(): void {
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const w of waiters) w();
  }

  /** Replaces the content (loading persisted records); `latest` is the newest sequence number. */
  restore(epoch: string, records: ChangeRecord[], latest: number, time: ClusterTime): void {
    this.epoch = epoch;
    this.records = records.slice(-this.maxRecords);
    this.lastSeq = Math.max(latest, records[records.length - 1]?.seq ?? 0);
    if (time.t > this.last.t || (time.t === this.last.t && time.i > this.last.i)) this.last = time;
  }

  /** True once {@link close} was called. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Wakes every waiter (server shutdown). */
  close(): void {
    this.closed = true;
    this.wake();
  }
}
