/**
 * `plume/embedded`: an in-process MongoDB-compatible server. The official `mongodb` driver connects
 * to it over the real wire protocol; queries, updates and aggregation run on `mingo`.
 *
 * @example
 * ```ts
 * const server = await startEmbeddedServer();
 * const client = new MongoClient(server.uri);
 * // …
 * await client.close();
 * await server.stop();
 * ```
 */
import net from 'node:net';
import v8 from 'node:v8';
import { ServerCore } from './commands/context.js';
import { Engine } from './engine/database.js';
import { Persistence } from './engine/persistence.js';
import { repairDataDirectory } from './engine/repair.js';
import type { PersistenceOptions } from './engine/persistence.js';
import { abortTransaction } from './engine/transactions.js';
import { expireDocuments } from './engine/ttl.js';
import { serveConnection } from './server.js';
import { startInWorker } from './worker-host.js';

/** Sessions unused this long are forgotten (logicalSessionTimeoutMinutes: 30). */
const SESSION_TIMEOUT_MS = 30 * 60_000;

/** Options of {@link startEmbeddedServer}. */
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
  /** How long a plain write waits for a transaction holding its document, in milliseconds (default 5 000). */
  lockTimeoutMs?: number;
  /**
   * Data directory. When set, data survives restarts (append-only journal fsynced before each reply,
   * compacted snapshots) and a lock file keeps a second server out. Without it, data lives in memory.
   */
  dbPath?: string;
  /** Persistence tuning (only with `dbPath`). */
  persistence?: PersistenceOptions;
  /**
   * Repair `dbPath` before starting: salvage every readable record into a new snapshot and move the
   * damaged files aside (see {@link repairDataDirectory}). Default false: a damaged data file stops
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

/**
 * Starts a MongoDB wire-protocol server in this process (or a worker thread with `worker: true`).
 * Query `$regex` patterns match with RE2 in linear time (patterns it cannot run, with backreferences or
 * lookarounds, are refused with code 51091). It also turns on V8's
 * `--enable-experimental-regexp-engine-on-excessive-backtracks` for the process, for the regexes of
 * aggregation expressions (`$regexMatch` …).
 * @returns the server's URI, port and a `stop()` function.
 * @throws DataFileError when a data file in `dbPath` is damaged (start-up stops, nothing is written;
 *   repair with `repair: true`, {@link repairDataDirectory} or `plume-db --repair`); Error when the port
 *   cannot be bound (e.g. `EADDRINUSE`), or when `dbPath` is locked by another live process or cannot be
 *   read/written.
 */
export async function startEmbeddedServer(options: EmbeddedServerOptions = {}): Promise<EmbeddedServer> {
  // `$regex` runs on V8's backtracking engine here: a pattern like `.*.*.*x` or `^(a+)+$` could stall
  // the process for minutes. This (process-wide) flag makes V8 switch such a regex to its linear-time
  // engine after 50 000 backtracks; results are the same.
  v8.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
  if (options.worker) return startInWorker({ ...options, worker: false, onProtocolError: undefined });
  const host = options.host ?? '127.0.0.1';
  const engine = new Engine();
  const sockets = new Set<net.Socket>();
  const settings = {
    me: '',
    replicaSet: options.replicaSet === false ? undefined : (options.replicaSet ?? 'plume'),
    lockTimeoutMs: options.lockTimeoutMs ?? 5_000,
    transactionLifetimeMs: options.transactionLifetimeMs ?? 60_000,
  };
  if (options.repair && options.dbPath) repairDataDirectory(options.dbPath);
  const persistence = options.dbPath
    ? Persistence.open(options.dbPath, engine, options.persistence)
    : undefined;
  const core = new ServerCore(engine, settings, options.cursorTimeoutMs ?? 600_000);
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    serveConnection(core, socket, options.onProtocolError);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => {
      persistence?.close();
      reject(error);
    });
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as net.AddressInfo;
  const advertised =
    host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  settings.me = `${advertised}:${address.port}`;
  const ttl = setInterval(() => expireDocuments(engine), options.ttlIntervalMs ?? 60_000);
  ttl.unref();
  const reaper = setInterval(() => {
    const now = Date.now();
    for (const txn of engine.openTransactions) {
      if (now - txn.lastUsed > settings.transactionLifetimeMs) abortTransaction(engine, txn);
    }
    for (const [key, session] of core.sessions) {
      if (now - session.lastUsed > SESSION_TIMEOUT_MS) core.sessions.delete(key);
    }
  }, 1_000);
  reaper.unref();
  let stopped: Promise<void> | undefined;
  return {
    uri: `mongodb://${settings.me}/`,
    port: address.port,
    host,
    stop() {
      stopped ??= new Promise<void>((resolve, reject) => {
        clearInterval(ttl);
        clearInterval(reaper);
        core.cursors.close();
        for (const socket of sockets) socket.destroy();
        server.close(() => {
          try {
            persistence?.close();
            resolve();
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
      });
      return stopped;
    },
  };
}

export type { PersistenceOptions } from './engine/persistence.js';
export { DataFileError } from './engine/data-file.js';
export { repairDataDirectory } from './engine/repair.js';
export type { RepairReport } from './engine/repair.js';
