/**
 * Opt-in persistence for a data directory:
 * - `journal.<gen>.bson`: an append-only log, one record per committed batch of changes, written and
 *   fsynced before the command replies (so no acknowledged write is lost on a crash);
 * - `snapshot.bson`: a compacted image written to a temp file, fsynced and renamed into place; it names
 *   the journal generation that follows it, so a crash at any point leaves a consistent pair;
 * - `mongod.lock`: holds the owning pid; a second server on the same directory is refused (dir-lock.ts).
 * Every record carries CRC-32C checksums (data-file.ts). A torn record at the journal's end (crash
 * mid-append) is dropped on load: it was never acknowledged. Any other damage stops start-up with a
 * DataFileError and leaves the files untouched (no compaction); repair.ts salvages them on request.
 * A journal append that fails (a full disk) is cut back off the file and nothing is written any more
 * (see {@link Persistence.failure}); a compaction that fails leaves the old pair in place.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CollectionOptions } from './collection.js';
import type { Change, Engine } from './database.js';
import { splitNs } from './namespace.js';
import type { IndexSpec } from './indexes.js';
import { addLoadedIndex, putLoaded } from './load-indexes.js';
import { keyOf } from './values.js';
import type { Doc } from './values.js';
import { serializeBson } from '../serialize.js';
import { MAGIC, frameRecord, readDataFile } from './data-file.js';
import type { DataFileKind } from './data-file.js';
import { JournalWriteError, writeAll } from './disk-write.js';
import { lockDataDirectory, unlockDataDirectory } from './dir-lock.js';

const SNAPSHOT = 'snapshot.bson';

function journalName(gen: number): string {
  return `journal.${gen}.bson`;
}

function fsyncDir(dir: string): void {
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // Some platforms cannot fsync directories; the rename is still atomic.
  }
}

/** Applies a logged change to the engine (used on load; never logs). */
export function applyChange(engine: Engine, change: Change): void {
  switch (change.op) {
    case 'create': {
      const [db, name] = splitNs(change.ns);
      Object.assign(engine.create(db, name, change.options).options, change.options);
      return;
    }
    case 'drop': {
      const [db, name] = splitNs(change.ns);
      engine.drop(db, name);
      return;
    }
    case 'dropDatabase':
      engine.dropDatabase(change.db);
      return;
    case 'rename': {
      const [db, name] = splitNs(change.ns);
      if (engine.collection(db, name)) engine.rename(change.ns, change.to, true);
      return;
    }
    case 'put': {
      const [db, name] = splitNs(change.ns);
      const coll = engine.create(db, name);
      const state = coll.writable();
      const idKey = keyOf(change.doc['_id']);
      putLoaded(state, change.ns, change.doc, state.docs.has(idKey) ? idKey : undefined);
      return;
    }
    case 'delete': {
      const [db, name] = splitNs(change.ns);
      engine.collection(db, name)?.writable().remove(keyOf(change.id));
      return;
    }
    case 'createIndex': {
      const [db, name] = splitNs(change.ns);
      const coll = engine.create(db, name);
      if (!coll.state.index(change.spec.name)) addLoadedIndex(coll.writable(), change.ns, change.spec);
      return;
    }
    case 'dropIndex': {
      const [db, name] = splitNs(change.ns);
      const coll = engine.collection(db, name);
      if (coll) coll.writable().indexes = coll.state.indexes.filter((i) => i.spec.name !== change.name);
      return;
    }
  }
}

/** Options of {@link Persistence}. */
export interface PersistenceOptions {
  /** Compact (snapshot + new journal) at this interval, in ms (default 60 000). */
  snapshotIntervalMs?: number;
  /** Compact when the journal grows past this many bytes (default 64 MiB). */
  maxJournalBytes?: number;
  /** fsync every journal append (default true). Without it, a process crash loses nothing but an OS crash may. */
  fsync?: boolean;
}

/** How {@link Persistence.open} reads the data files; repair.ts swaps in salvaging. */
export interface LoadHooks {
  /** Reads a data file's records. Default: strict, throwing DataFileError on damage. */
  read(file: string, kind: DataFileKind): Doc[];
  /** Applies one logged change. Default: {@link applyChange}. */
  apply(engine: Engine, change: Change): void;
  /** Runs after loading, before the first compaction rewrites the directory. */
  beforeCompact?(): void;
}

const strictLoad: LoadHooks = { read: readDataFile, apply: applyChange };

/** The data directory of one server. */
export class Persistence {
  private fd: number | undefined;
  private gen = 0;
  /** Bytes appended since the last compaction. */
  private journalBytes = 0;
  /** The journal file's length after its last complete append. */
  private journalEnd = 0;
  /** Compact once `journalBytes` passes this (pushed back after a failed compaction). */
  private compactAt: number;
  private timer: NodeJS.Timeout | undefined;
  private readonly fsync: boolean;
  private readonly maxJournalBytes: number;

  private constructor(
    readonly dir: string,
    private readonly engine: Engine,
    options: PersistenceOptions,
  ) {
    this.fsync = options.fsync ?? true;
    this.maxJournalBytes = options.maxJournalBytes ?? 64 * 1024 * 1024;
    this.compactAt = this.maxJournalBytes;
  }

  /**
   * Set once a journal append failed. From then on nothing is written to the directory: memory holds a
   * change the journal does not, and a snapshot would make it durable though it was never acknowledged.
   */
  failure: JournalWriteError | undefined;
  /** Called once, with {@link failure}, when a journal append fails (the server stops serving). */
  onFailure: ((error: JournalWriteError) => void) | undefined;

  /**
   * Locks the directory, loads the snapshot and journal into `engine`, and starts logging its changes.
   * @throws DataFileError when a data file is damaged (nothing is written then); Error when another live
   *   process holds the lock, or the directory cannot be used.
   */
  static open(
    dir: string,
    engine: Engine,
    options: PersistenceOptions = {},
    hooks: LoadHooks = strictLoad,
  ): Persistence {
    fs.mkdirSync(dir, { recursive: true });
    const p = new Persistence(dir, engine, options);
    lockDataDirectory(dir);
    try {
      p.load(hooks);
      hooks.beforeCompact?.();
      p.compact();
    } catch (error) {
      unlockDataDirectory(dir);
      throw error;
    }
    engine.onChanges = (changes) => p.append(changes);
    const interval = options.snapshotIntervalMs ?? 60_000;
    p.timer = setInterval(() => {
      if (p.journalBytes > 0) p.tryCompact();
    }, interval);
    p.timer.unref();
    return p;
  }

  private load(hooks: LoadHooks): void {
    const snapFile = path.join(this.dir, SNAPSHOT);
    const saved = this.engine.onChanges;
    this.engine.onChanges = undefined;
    this.engine.loading = true;
    try {
      const journals = fs
        .readdirSync(this.dir)
        .map((file) => /^journal\.(\d+)\.bson$/.exec(file))
        .filter((m) => m !== null)
        .map((m) => Number(m[1]))
        .sort((a, b) => a - b);
      if (fs.existsSync(snapFile)) {
        const records = hooks.read(snapFile, 'snapshot');
        const header = records[0];
        if (header?.['format'] === 'plume-snapshot') this.gen = Number(header['gen']);
        // Only a salvaged snapshot can lack its header: the oldest journal then follows it.
        else if (hooks === strictLoad) throw new Error(`plume-db: ${snapFile} is not a plume snapshot`);
        else this.gen = journals[0] ?? 0;
        for (const record of records) {
          if (record['type'] === 'collection') {
            const ns = String(record['ns']);
            const [db, name] = splitNs(ns);
            const coll = this.engine.create(db, name, record['options'] as CollectionOptions);
            for (const spec of record['indexes'] as IndexSpec[]) coll.writable().addIndex(ns, spec);
          } else if (record['type'] === 'doc') {
            hooks.apply(this.engine, { op: 'put', ns: String(record['ns']), doc: record['doc'] as Doc });
          }
        }
      }
      // Journals older than the snapshot were folded into it (a crash cut their removal short).
      for (const gen of journals) {
        if (gen < this.gen) fs.rmSync(path.join(this.dir, journalName(gen)), { force: true });
      }
      const journal = path.join(this.dir, journalName(this.gen));
      if (fs.existsSync(journal)) {
        for (const record of hooks.read(journal, 'journal'))
          for (const change of record['changes'] as Change[]) hooks.apply(this.engine, change);
      }
    } finally {
      this.engine.onChanges = saved;
      this.engine.loading = false;
    }
  }

  /**
   * Appends one batch of changes durably (called synchronously before the command replies).
   * @throws JournalWriteError when the journal cannot be written (then and on every later call).
   */
  append(changes: Change[]): void {
    if (this.fd === undefined) return;
    if (this.failure) throw this.failure;
    const record = frameRecord(serializeBson({ changes }));
    try {
      writeAll(this.fd, record);
      if (this.fsync) fs.fdatasyncSync(this.fd);
    } catch (error) {
      throw this.fail(error as Error);
    }
    this.journalEnd += record.length;
    this.journalBytes += record.length;
    if (this.journalBytes > this.compactAt) this.tryCompact();
  }

  private fail(cause: Error): JournalWriteError {
    this.failure = new JournalWriteError(path.join(this.dir, journalName(this.gen)), cause);
    if (this.timer) clearInterval(this.timer);
    try {
      // What part of the record reached the file goes: its write is answered with an error.
      fs.ftruncateSync(this.fd!, this.journalEnd);
    } catch {
      // Left in place, it is the journal's torn last record, which loading drops.
    }
    this.onFailure?.(this.failure);
    return this.failure;
  }

  /** Compacts, or leaves the journal as it is when that fails (it holds every change; retried later). */
  private tryCompact(): void {
    try {
      this.compact();
    } catch {
      this.compactAt = this.journalBytes + this.maxJournalBytes;
    }
  }

  /**
   * Writes a snapshot (temp file, fsync, rename) and starts a fresh journal generation. Does nothing
   * after a {@link failure}.
   * @throws the file system's error when a file cannot be written; the snapshot and journal in place
   *   are then untouched, and the partial new files removed.
   */
  compact(): void {
    if (this.failure) return;
    const next = this.gen + 1;
    const tmp = path.join(this.dir, `${SNAPSHOT}.tmp`);
    const journal = path.join(this.dir, journalName(next));
    let fd: number | undefined;
    try {
      this.writeSnapshot(tmp, next);
      // The next journal exists before the snapshot naming it takes over, so a failure up to the rename
      // leaves the old snapshot and journal as the pair in place.
      fd = fs.openSync(journal, 'w');
      writeAll(fd, MAGIC);
      fs.fsyncSync(fd);
    } catch (error) {
      if (fd !== undefined) fs.closeSync(fd);
      fs.rmSync(tmp, { force: true });
      fs.rmSync(journal, { force: true });
      throw error;
    }
    fs.renameSync(tmp, path.join(this.dir, SNAPSHOT));
    fsyncDir(this.dir);
    const old = this.gen;
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.gen = next;
    this.fd = fd;
    this.journalEnd = MAGIC.length;
    this.journalBytes = 0;
    this.compactAt = this.maxJournalBytes;
    fs.rmSync(path.join(this.dir, journalName(old)), { force: true });
  }

  /** Writes and fsyncs a snapshot of the engine (followed by journal generation `next`) into `file`. */
  private writeSnapshot(file: string, next: number): void {
    const fd = fs.openSync(file, 'w');
    try {
      const chunks: Uint8Array[] = [];
      let size = 0;
      const flush = (): void => {
        if (chunks.length === 0) return;
        writeAll(fd, Buffer.concat(chunks, size));
        chunks.length = 0;
        size = 0;
      };
      chunks.push(MAGIC);
      size += MAGIC.length;
      const push = (doc: Doc): void => {
        const b = frameRecord(serializeBson(doc));
        chunks.push(b);
        size += b.length;
        if (size > 4 * 1024 * 1024) flush();
      };
      push({ format: 'plume-snapshot', version: 2, gen: next, createdAt: new Date() });
      for (const colls of this.engine.databases.values()) {
        for (const coll of colls.values()) {
          push({
            type: 'collection',
            ns: coll.ns,
            options: coll.options,
            indexes: coll.state.indexes.map((i) => i.spec),
          });
          for (const doc of coll.state.docs.values()) push({ type: 'doc', ns: coll.ns, doc });
        }
      }
      flush();
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  }

  /**
   * Compacts (not after a {@link failure}), closes the journal and releases the lock, even when the
   * compaction fails (the journal then still holds every change).
   * @throws the file system's error when the final snapshot cannot be written.
   */
  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.engine.onChanges = undefined;
    try {
      if (this.fd !== undefined && this.journalBytes > 0) this.compact();
    } finally {
      if (this.fd !== undefined) fs.closeSync(this.fd);
      this.fd = undefined;
      unlockDataDirectory(this.dir);
    }
  }
}
