/**
 * The change history on disk (with `dbPath`): `change-history.bson` holds a header (the history's
 * epoch, newest sequence number and cluster time) and then the change records, appended as they are
 * committed and compacted to the retained ones when the file holds twice as many. Loaded at start,
 * so a change stream resumes across a server restart with the tokens it had.
 * The file is written without fsync: after a crash (not a clean stop) the newest records may be
 * missing, and resuming from them then fails with ChangeStreamHistoryLost. A write that fails (a full
 * disk) stops the appending until a compaction rewrites the whole file: appending after a gap would
 * let a stream resume across changes it never saw.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ChangeHistory, ChangeRecord, ClusterTime } from './engine/change-history.js';
import { writeAll } from './engine/disk-write.js';
import { serializeBson } from './serialize.js';
import { decodeDocument } from './wire.js';

const FILE = 'change-history.bson';

interface Header {
  epoch: string;
  latest: number;
  time: ClusterTime;
}

// serializeBson, not BSON.serialize: an update record with both images of a large document passes
// BSON's 17 MiB shared buffer, which would cut it short without an error.
function encode(doc: object): Buffer {
  return Buffer.from(serializeBson(doc as Record<string, unknown>));
}

/** Reads the BSON documents of a file (stops at a torn last one). */
function readDocs(file: string): Record<string, unknown>[] {
  if (!fs.existsSync(file)) return [];
  const buf = fs.readFileSync(file);
  const docs: Record<string, unknown>[] = [];
  let offset = 0;
  while (offset + 4 <= buf.length) {
    const size = buf.readInt32LE(offset);
    if (size < 5 || offset + size > buf.length) break;
    try {
      docs.push(decodeDocument(buf.subarray(offset, offset + size)));
    } catch {
      break;
    }
    offset += size;
  }
  return docs;
}

/** Keeps a change history in a data directory. */
export class HistoryStore {
  private fd: number;
  private written = 0;
  /** The file's length after its last complete append. */
  private end = 0;
  /** An append failed: none until the next compaction. */
  private broken = false;

  private constructor(
    private readonly file: string,
    private readonly history: ChangeHistory,
  ) {
    this.fd = fs.openSync(file, 'a');
    this.end = fs.fstatSync(this.fd).size;
  }

  /** Loads the history saved in `dir` (if any) into `history` and keeps appending to it. */
  static open(dir: string, history: ChangeHistory): HistoryStore {
    const file = path.join(dir, FILE);
    const [header, ...records] = readDocs(file) as unknown as [Header | undefined, ...ChangeRecord[]];
    if (header && typeof header.epoch === 'string') {
      const latest = Number(header.latest);
      const last = records[records.length - 1];
      history.restore(header.epoch, records, Math.max(latest, last?.seq ?? 0), last?.time ?? header.time);
    }
    const store = new HistoryStore(file, history);
    store.compact();
    history.onAppend = (added) => store.append(added);
    return store;
  }

  private append(records: ChangeRecord[]): void {
    this.written += records.length;
    if (this.written > 2 * this.history.maxRecords) this.tryCompact();
    else if (!this.broken) {
      const bytes = Buffer.concat(records.map((r) => encode(r)));
      try {
        writeAll(this.fd, bytes);
        this.end += bytes.length;
      } catch {
        this.broken = true;
        try {
          fs.ftruncateSync(this.fd, this.end);
        } catch {
          // A torn last record is where reading stops anyway.
        }
      }
    }
  }

  /** Compacts; on failure the file keeps what it had (the history is not what writes depend on). */
  private tryCompact(): void {
    try {
      this.compact();
    } catch {
      fs.rmSync(`${this.file}.tmp`, { force: true });
      this.broken = true;
    }
  }

  /** Rewrites the file with the retained records (temporary file, then rename). */
  private compact(): void {
    const records = this.history.after(this.history.oldestSeq - 1);
    const header: Header = {
      epoch: this.history.epoch,
      latest: this.history.latestSeq,
      time: this.history.clusterTime,
    };
    const temp = `${this.file}.tmp`;
    fs.writeFileSync(temp, Buffer.concat([encode(header), ...records.map((r) => encode(r))]));
    fs.renameSync(temp, this.file);
    fs.closeSync(this.fd);
    this.fd = fs.openSync(this.file, 'a');
    this.end = fs.fstatSync(this.fd).size;
    this.written = records.length;
    this.broken = false;
  }

  /** Compacts (when it can) and closes the file (server stop). */
  close(): void {
    this.history.onAppend = undefined;
    this.tryCompact();
    fs.closeSync(this.fd);
  }
}
