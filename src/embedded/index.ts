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
import { ChangeHistory, DEFAULT_HISTORY_SIZE } from './engine/change-history.js';
import { Engine } from './engine/database.js';
import { JournalWriteError } from './engine/disk-write.js';
import { Persistence } from './engine/persistence.js';
import { repairDataDirectory } from './engine/repair.js';
import type { EmbeddedServer, EmbeddedServerOptions } from './declarations.js';
import { abortTransaction } from './engine/transactions.js';
import { releaseExpiredPoints } from './engine/point-in-time.js';
import { expireDocuments } from './engine/ttl.js';
import { HistoryStore } from './history-store.js';
import { closeConnections, serveConnection } from './server.js';
import { startInWorker } from './worker-host.js';

function logFatalError(error: Error): void {
  process.stderr.write(`${error.message}\n`);
}

/** Sessions unused this long are forgotten (logicalSessionTimeoutMinutes: 30). */
const SESSION_TIMEOUT_MS = 30 * 60_000;

/**
 * Starts a MongoDB wire-protocol server in this process (or a worker thread with `worker: true`).
 * Client patterns (`$regex`, `$regexMatch` and its siblings, `$jsonSchema` `pattern`) match with RE2 in
 * linear time (patterns it cannot run, with backreferences or lookarounds, are refused with code 51091).
 * It also turns on V8's `--enable-experimental-regexp-engine-on-excessive-backtracks` for the process,
 * as a second guard.
 * @returns the server's URI, port and a `stop()` function.
 * @throws DataFileError when a data file in `dbPath` is damaged (start-up stops, nothing is written;
 *   repair with `repair: true`, {@link repairDataDirectory} or `plume-db --repair`); Error when the port
 *   cannot be bound (e.g. `EADDRINUSE`), or when `dbPath` is locked by another live process or cannot be
 *   read/written.
 */
export async function startEmbeddedServer(options: EmbeddedServerOptions = {}): Promise<EmbeddedServer> {
  // Client patterns run on RE2 (linear-regex.ts); should one reach V8's backtracking engine, this
  // (process-wide) flag makes V8 switch it to its linear-time engine after 50 000 backtracks (except
  // with the `i` or `u` flag, a lookaround or a backreference).
  v8.setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
  if (options.worker)
    return startInWorker({ ...options, worker: false, onProtocolError: undefined, onFatalError: undefined });
  const host = options.host ?? '127.0.0.1';
  const engine = new Engine();
  engine.history = new ChangeHistory(Math.max(1, options.changeStreamHistory ?? DEFAULT_HISTORY_SIZE));
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
  const historyStore = options.dbPath ? HistoryStore.open(options.dbPath, engine.history) : undefined;
  const core = new ServerCore(engine, settings, options.cursorTimeoutMs ?? 600_000);
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    serveConnection(core, socket, options.onProtocolError);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => {
      historyStore?.close();
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
  const ttl = setInterval(() => {
    try {
      expireDocuments(engine);
    } catch (error) {
      // Thrown out of a timer it would end the process; the server is already down (onFailure below).
      if (!(error instanceof JournalWriteError)) throw error;
    }
  }, options.ttlIntervalMs ?? 60_000);
  ttl.unref();
  const reaper = setInterval(() => {
    const now = Date.now();
    for (const txn of engine.openTransactions) {
      if (now - txn.lastUsed > settings.transactionLifetimeMs) abortTransaction(engine, txn);
    }
    releaseExpiredPoints(engine);
    for (const [key, session] of core.sessions) {
      if (now - session.lastUsed > SESSION_TIMEOUT_MS) core.sessions.delete(key);
    }
  }, 1_000);
  reaper.unref();
  let closed: Promise<void> | undefined;
  /**
   * Stops serving, for `stop()` and for a journal that cannot be written alike: new connections are
   * refused, idle ones closed at once and those with a request in progress 50 ms later (see
   * closeConnections: replies on their way out go out, and the driver sees its idle monitoring
   * connection closed first, which it needs to recover once the server is back). Resolves once every
   * connection is closed.
   */
  const stopServing = (): Promise<void> =>
    (closed ??= new Promise<void>((resolve) => {
      clearInterval(ttl);
      clearInterval(reaper);
      server.close(() => resolve());
      closeConnections(sockets, () => {
        core.cursors.close();
        engine.history.close();
      });
    }));
  if (persistence) {
    persistence.onFailure = (error) => {
      // Every command from now on, the failed write's included, is answered with this error.
      core.failure = error;
      void stopServing();
      // Outside the failed write's call stack: what the callback does (or throws) is not that write's.
      setImmediate(() => (options.onFatalError ?? logFatalError)(error));
    };
  }
  let stopped: Promise<void> | undefined;
  return {
    uri: `mongodb://${settings.me}/`,
    port: address.port,
    host,
    stop() {
      stopped ??= stopServing().then(() => {
        historyStore?.close();
        persistence?.close();
      });
      return stopped;
    },
  };
}

export type { EmbeddedServer, EmbeddedServerOptions } from './declarations.js';
export type { PersistenceOptions } from './engine/persistence.js';
export { DataFileError } from './engine/data-file.js';
export { repairDataDirectory } from './engine/repair.js';
export type { RepairReport } from './engine/repair.js';
