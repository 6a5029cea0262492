/** The public shapes of `plume/embedded`: the options of `startEmbeddedServer` and the server it returns. */
import type { PersistenceOptions } from './engine/persistence.js';

/** Options of `startEmbeddedServer`. */
export interface EmbeddedServerOptions {
  /** TCP port; 0 (default) picks a free one. */
  port?: number;
  /** Interface to bind; default `127.0.0.1`. */
  host?: string;
  /**
   * Replica-set name advertised in `hello` (default `'plume'`): enables retryable writes and lets
   * `?replicaSet=<name>` URIs connect. `false` advertises a standalone server.
   */
  replicaSet?: string | false;
  /** Idle cursors are closed after this many milliseconds (default 600 000, like MongoDB). */
  cursorTimeoutMs?: number;
  /** How often TTL indexes are swept, in milliseconds (default 60 000, like MongoDB). */
  ttlIntervalMs?: number;
  /** Transactions idle longer than this are aborted, in milliseconds (default 60 000). */
  transactionLifetimeMs?: number;
  /**
   * How long a plain write, `$out`, `$merge`, `drop`, `dropDatabase`, `renameCollection`,
   * `createIndexes`, `dropIndexes`, `collMod` or `validate` waits for a transaction holding its
   * target, in milliseconds (default 5 000); then a plain write or `$merge` fails with WriteConflict
   * (112), the others, which wait for the collection's exclusive lock, with LockTimeout (24).
   */
  lockTimeoutMs?: number;
  /**
   * Data directory. When set, data survives restarts (append-only journal fsynced before each reply,
   * compacted snapshots) and a lock file keeps a second server out. Without it, data lives in memory.
   */
  dbPath?: string;
  /**
   * How many committed changes are kept for change streams (default 10 000). A stream resuming from a
   * point older than that fails with ChangeStreamHistoryLost (286).
   */
  changeStreamHistory?: number;
  /** Persistence tuning (only with `dbPath`). */
  persistence?: PersistenceOptions;
  /**
   * Repair `dbPath` before starting: salvage every readable record into a new snapshot and move the
   * damaged files aside (see `repairDataDirectory`). Default false: a damaged data file stops
   * start-up with a `DataFileError` naming the file and byte offset, and nothing is written.
   */
  repair?: boolean;
  /**
   * Run the server in a worker thread so long scans do not block this event loop (default false).
   * The returned object is the same; `stop()` also terminates the worker.
   */
  worker?: boolean;
  /**
   * Called when a client sends a malformed message (a bad size, illegal OP_MSG flag bits, a checksum
   * mismatch, an absurd messageLength): that connection is closed, every other client is still served.
   * Default: one line on stderr. Not called with `worker: true` (the worker logs to stderr).
   */
  onProtocolError?: (error: Error, remote: string) => void;
  /**
   * Called when the server stops serving because its journal cannot be written (a full disk, a failing
   * disk), as mongod stops: the write that failed and every command after it are answered with that
   * error (code 14031 OutOfDiskSpace, or 1 InternalError), connections are closed as `stop()` closes
   * them (idle ones at once, busy ones 50 ms later), new ones refused,
   * and `stop()` releases the data directory without writing to it. Every write acknowledged before is
   * on disk; the failed one is not. Default: one line on stderr. Not called with `worker: true` (the
   * worker logs to stderr).
   */
  onFatalError?: (error: Error) => void;
}

/** A running embedded server. */
export interface EmbeddedServer {
  /** Connection string for the driver, e.g. `mongodb://127.0.0.1:54321/`. Works as is and with `?replicaSet=` or `?directConnection=true` appended. */
  uri: string;
  /** The bound TCP port. */
  port: number;
  /** The bound interface. */
  host: string;
  /**
   * Closes the listener and every connection and stops timers; with `dbPath`, also writes a final
   * snapshot and releases the lock file. Resolves once closed; idempotent.
   */
  stop(): Promise<void>;
}
