/**
 * A change stream's reading side: which records of the change history it sees (one collection, one
 * database or the whole cluster), the change event documents MongoDB 7.0 documents for them, the
 * stages following `$changeStream` applied to those events, and the resume tokens (`_id`,
 * `postBatchResumeToken`). See https://www.mongodb.com/docs/manual/reference/change-events/.
 */
import { BSON, Binary, Long, UUID } from 'bson';
import { Aggregator } from 'mingo/aggregator';
import type { ChangeHistory, ChangeRecord, ClusterTime } from './change-history.js';
import { MAX_BATCH_BYTES } from './limits.js';
import type { Engine } from './database.js';
import { mingoOptions } from './mingo-options.js';
import { normalizePipeline } from './specs.js';
import { cloneValue, isPlainObject, keyOf } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** How many history records one read examines at most. */
const READ_CHUNK = 1000;
/** Databases cluster-wide streams skip, as MongoDB does. */
const INTERNAL_DBS = new Set(['admin', 'config', 'local']);

/** What a change stream watches: the cluster (no db), a database (db) or a collection (db and coll). */
export interface StreamScope {
  db?: string;
  coll?: string;
}

/** The `$changeStream` options that shape events. */
export interface StreamOptions {
  scope: StreamScope;
  fullDocument: 'default' | 'updateLookup' | 'whenAvailable' | 'required';
  fullDocumentBeforeChange: 'off' | 'whenAvailable' | 'required';
  /** `showExpandedEvents: true`: update events carry `updateDescription.disambiguatedPaths`. */
  showExpandedEvents?: boolean;
  /** The stages following `$changeStream`. */
  stages: Doc[];
}

/** A decoded resume token. */
export interface ResumePoint {
  time: ClusterTime;
  seq: number;
  epoch: string;
  /** True for the token of an invalidate event. */
  invalidate: boolean;
}

const hex = (n: number, width: number): string => n.toString(16).toUpperCase().padStart(width, '0');

/** The resume token (`{ _data: hex }`) of position `seq` (an event's, or a high-water mark). */
export function resumeToken(history: ChangeHistory, point: Omit<ResumePoint, 'epoch'>): Doc {
  const data = `82${hex(point.time.t, 8)}${hex(point.time.i, 8)}${hex(point.seq, 16)}${history.epoch.toUpperCase()}${point.invalidate ? '01' : '00'}`;
  return { _data: data };
}

/** Reads a resume token. @throws CommandError BadValue (2) when it is not one of this server's tokens' shape. */
export function decodeResumeToken(token: unknown): ResumePoint {
  const data = isPlainObject(token) ? token['_data'] : undefined;
  if (typeof data !== 'string' || !/^82[0-9A-F]{42}$/i.test(data))
    throw new CommandError(
      ErrorCodes.BadValue,
      'resume token is not valid: expected { _data: <hex string> }',
    );
  return {
    time: { t: parseInt(data.slice(2, 10), 16), i: parseInt(data.slice(10, 18), 16) },
    seq: parseInt(data.slice(18, 34), 16),
    epoch: data.slice(34, 42).toLowerCase(),
    invalidate: data.slice(42) === '01',
  };
}

/** The error for a resume point the history no longer holds (ChangeStreamHistoryLost, 286). */
export function historyLost(): CommandError {
  return new CommandError(
    ErrorCodes.ChangeStreamHistoryLost,
    'Resume of change stream was not possible, as the resume point may no longer be in the oplog.',
  );
}

function inScope(scope: StreamScope, r: ChangeRecord): boolean {
  if (scope.db === undefined) return !INTERNAL_DBS.has(r.db) && !r.coll?.startsWith('system.');
  if (r.db !== scope.db) return false;
  if (scope.coll === undefined) return !r.coll?.startsWith('system.');
  return r.coll === scope.coll;
}

function invalidates(scope: StreamScope, r: ChangeRecord): boolean {
  if (scope.db === undefined) return false;
  if (scope.coll === undefined) return r.op === 'dropDatabase';
  return r.op === 'drop' || r.op === 'rename';
}

function missingImage(what: string): CommandError {
  return new CommandError(
    ErrorCodes.NoMatchingDocument,
    `Change stream was configured to require a ${what} for all update, delete and replace events, but the ${what} was not found.`,
  );
}

/** An open change stream: its position in the history and how it turns records into events. */
export class ChangeStreamReader {
  /** Sequence number of the last record examined. */
  position: number;
  /** Set once the invalidate event was returned: the cursor closes. */
  invalidated = false;
  /** Time of the last record examined (for the high-water-mark token). */
  private time: ClusterTime;

  constructor(
    private readonly engine: Engine,
    private readonly options: StreamOptions,
    position: number,
  ) {
    this.position = position;
    this.time = engine.history.clusterTime;
  }

  /** The `postBatchResumeToken`: resuming there continues after everything examined so far. */
  postBatchResumeToken(): Doc {
    return resumeToken(this.engine.history, { time: this.time, seq: this.position, invalidate: false });
  }

  /** The next events, at most `batchSize` (none when nothing new; then it returns at once). */
  read(batchSize: number | undefined): Doc[] {
    const max = batchSize === undefined ? Infinity : batchSize;
    const out: Doc[] = [];
    let bytes = 0;
    const history = this.engine.history;
    if (this.position < history.oldestSeq - 1) throw historyLost();
    while (out.length < max && !this.invalidated) {
      const records = history.after(this.position, READ_CHUNK);
      if (records.length === 0) {
        this.time = history.clusterTime;
        break;
      }
      const candidates: { record: ChangeRecord; doc: Doc; invalidate: boolean }[] = [];
      for (const record of records) {
        if (!inScope(this.options.scope, record)) continue;
        candidates.push({ record, doc: this.event(record), invalidate: false });
        if (invalidates(this.options.scope, record))
          candidates.push({ record, doc: this.invalidateEvent(record), invalidate: true });
      }
      const passed = this.applyStages(candidates.filter((c) => !c.invalidate).map((c) => c.doc));
      for (let k = 0; k < candidates.length; k++) {
        const c = candidates[k]!;
        const results = c.invalidate ? [c.doc] : (passed.get(keyOf(c.doc['_id'])) ?? []);
        const size = results.reduce((n, doc) => n + BSON.calculateObjectSize(doc), 0);
        if (out.length > 0 && !c.invalidate && bytes + size > MAX_BATCH_BYTES) return out;
        out.push(...results);
        bytes += size;
        if (c.invalidate) {
          this.invalidated = true;
          this.position = c.record.seq;
          this.time = c.record.time;
          return out;
        }
        // A record and its invalidate event travel together: the position moves past both at once.
        if (candidates[k + 1]?.record === c.record) continue;
        this.position = c.record.seq;
        this.time = c.record.time;
        if (out.length >= max) return out;
      }
      const last = records[records.length - 1]!;
      this.position = last.seq;
      this.time = last.time;
    }
    return out;
  }

  /** Runs the following stages; results grouped by the resume token they carry. */
  private applyStages(docs: Doc[]): Map<string, Doc[]> {
    const byToken = new Map<string, Doc[]>();
    let results = docs;
    if (this.options.stages.length > 0 && docs.length > 0) {
      try {
        results = new Aggregator(normalizePipeline(this.options.stages), mingoOptions(undefined)).run<Doc>(
          docs.map((d) => cloneValue(d)),
        );
      } catch (error) {
        if (error instanceof CommandError) throw error;
        throw new CommandError(ErrorCodes.BadValue, (error as Error).message);
      }
    }
    const tokens = new Set(docs.map((d) => keyOf(d['_id'])));
    for (const doc of results) {
      const token = keyOf(doc['_id']);
      if (doc['_id'] === undefined || !tokens.has(token))
        throw new CommandError(
          ErrorCodes.ChangeStreamFatalError,
          'Encountered an event whose _id field, which contains the resume token, was modified by the pipeline. Modifying the _id field of an event makes it impossible to resume the stream from that point. Only transformations that retain the unmodified _id field are allowed.',
        );
      let list = byToken.get(token);
      if (!list) byToken.set(token, (list = []));
      list.push(doc);
    }
    return byToken;
  }

  private header(r: ChangeRecord, operationType: string, invalidate = false): Doc {
    return {
      _id: resumeToken(this.engine.history, { time: r.time, seq: r.seq, invalidate }),
      operationType,
      clusterTime: this.engine.history.timestamp(r.time),
      wallTime: r.wallTime,
    };
  }

  private invalidateEvent(r: ChangeRecord): Doc {
    return this.header(r, 'invalidate', true);
  }

  /** The change event of a record (fields in the order of MongoDB's Change Events page). */
  private event(r: ChangeRecord): Doc {
    const doc = this.header(r, r.op);
    const ns = r.coll === undefined ? { db: r.db } : { db: r.db, coll: r.coll };
    const isDocOp = r.op === 'insert' || r.op === 'update' || r.op === 'replace' || r.op === 'delete';
    if (isDocOp) {
      const full = this.fullDocument(r);
      if (full !== undefined) doc['fullDocument'] = full;
    }
    doc['ns'] = ns;
    if (r.to) doc['to'] = { db: r.to.db, coll: r.to.coll };
    if (isDocOp) doc['documentKey'] = { _id: cloneValue(r.id) };
    if (r.op === 'update') doc['updateDescription'] = this.updateDescription(r.update ?? {});
    if (isDocOp && r.op !== 'insert' && this.options.fullDocumentBeforeChange !== 'off') {
      if (!r.before && this.options.fullDocumentBeforeChange === 'required') throw missingImage('pre-image');
      doc['fullDocumentBeforeChange'] = r.before ? cloneValue(r.before) : null;
    }
    if (r.txn) {
      doc['lsid'] = { id: new UUID(r.txn.lsid), uid: new Binary(Buffer.alloc(32)) };
      doc['txnNumber'] = Long.fromNumber(r.txn.txnNumber);
    }
    return doc;
  }

  /**
   * An update event's `updateDescription`: `disambiguatedPaths` (an empty document when no path is
   * ambiguous) only with `showExpandedEvents`, as change_stream_event_transform.cpp adds it.
   */
  private updateDescription(recorded: Doc): Doc {
    const { disambiguatedPaths, ...rest } = cloneValue(recorded);
    return this.options.showExpandedEvents ? { ...rest, disambiguatedPaths: disambiguatedPaths ?? {} } : rest;
  }

  private fullDocument(r: ChangeRecord): Doc | null | undefined {
    if (r.op === 'insert' || r.op === 'replace') return cloneValue(r.after);
    if (r.op !== 'update') return undefined;
    switch (this.options.fullDocument) {
      case 'updateLookup': {
        const current = this.engine.collection(r.db, r.coll!)?.state.docs.get(keyOf(r.id));
        return current ? cloneValue(current) : null;
      }
      case 'whenAvailable':
        return r.after ? cloneValue(r.after) : null;
      case 'required':
        if (!r.after) throw missingImage('post-image');
        return cloneValue(r.after);
      default:
        return undefined;
    }
  }
}
