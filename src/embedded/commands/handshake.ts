/** Handshake, diagnostics and session bookkeeping commands. */
import { ObjectId, UUID } from 'bson';
import os from 'node:os';
import { Session, abortTransaction } from '../engine/transactions.js';
import type { Doc } from '../engine/values.js';
import { queryStats } from '../engine/read.js';
import type { CommandContext, Handler } from './context.js';
import { getParameter, setParameter } from './server-parameters.js';
import { sessionIdList } from './session-info.js';

/** Wire version advertised (17 = MongoDB 6.0 … 21 = 7.0): within driver 6 (8–27) and 7 (9–29). */
export const MAX_WIRE_VERSION = 21;
/** Version string reported by buildInfo/serverStatus. */
export const SERVER_VERSION = '7.0.0';

const ELECTION_ID = new ObjectId('7fffffff0000000000000001');

/** The hello / isMaster reply (no topologyVersion, no compression: see REFERENCE-embedded-db.md). */
export function helloReply(ctx: CommandContext, legacy: boolean): Doc {
  const { settings } = ctx.core;
  const reply: Doc = {
    helloOk: true,
    [legacy ? 'ismaster' : 'isWritablePrimary']: true,
    maxBsonObjectSize: 16 * 1024 * 1024,
    maxMessageSizeBytes: 48_000_000,
    maxWriteBatchSize: 100_000,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: 30,
    connectionId: ctx.connectionId,
    minWireVersion: 0,
    maxWireVersion: MAX_WIRE_VERSION,
    readOnly: false,
  };
  if (settings.replicaSet) {
    Object.assign(reply, {
      setName: settings.replicaSet,
      setVersion: 1,
      hosts: [settings.me],
      primary: settings.me,
      me: settings.me,
      secondary: false,
      electionId: ELECTION_ID,
    });
  }
  reply['ok'] = 1;
  return reply;
}

const hello: Handler = (_cmd, ctx) => helloReply(ctx, false);
const isMaster: Handler = (_cmd, ctx) => helloReply(ctx, true);

const buildInfo: Handler = () => ({
  version: SERVER_VERSION,
  gitVersion: 'plume-embedded',
  versionArray: [7, 0, 0, 0],
  bits: 64,
  debug: false,
  maxBsonObjectSize: 16 * 1024 * 1024,
  javascriptEngine: 'none',
  modules: [],
  allocator: 'system',
  sysInfo: 'deprecated',
  buildEnvironment: {},
  openssl: { running: 'disabled' },
  storageEngines: ['plume-memory'],
  ok: 1,
});

const serverStatus: Handler = (_cmd, ctx) => {
  const { core } = ctx;
  const mem = process.memoryUsage();
  return {
    host: os.hostname(),
    version: SERVER_VERSION,
    process: 'plume-db',
    pid: process.pid,
    uptime: Math.floor((Date.now() - core.startedAt.getTime()) / 1000),
    uptimeMillis: Date.now() - core.startedAt.getTime(),
    localTime: new Date(),
    connections: { current: core.connections, available: 1000, totalCreated: core.totalConnections },
    opcounters: { ...core.opcounters },
    mem: { bits: 64, resident: Math.round(mem.rss / 1048576), virtual: Math.round(mem.rss / 1048576) },
    metrics: {
      cursor: { open: { total: core.cursors.size } },
      queryExecutor: { scannedObjects: queryStats.scannedObjects },
    },
    storageEngine: { name: 'plume-memory', persistent: false },
    ...(core.settings.replicaSet
      ? {
          repl: {
            setName: core.settings.replicaSet,
            isWritablePrimary: true,
            primary: core.settings.me,
            me: core.settings.me,
          },
        }
      : {}),
    ok: 1,
  };
};

const hostInfo: Handler = () => ({
  system: {
    currentTime: new Date(),
    hostname: os.hostname(),
    cpuAddrSize: 64,
    memSizeMB: Math.round(os.totalmem() / 1048576),
    numCores: os.cpus().length,
    cpuArch: os.arch(),
  },
  os: { type: os.type(), name: os.platform(), version: os.release() },
  extra: {},
  ok: 1,
});

/** No authentication: nobody is logged in (`showPrivileges` adds the empty privilege list). */
const connectionStatus: Handler = (cmd) => ({
  authInfo: {
    authenticatedUsers: [],
    authenticatedUserRoles: [],
    ...(cmd['showPrivileges'] ? { authenticatedUserPrivileges: [] } : {}),
  },
  ok: 1,
});

/**
 * endSessions and killSessions: the listed sessions end, their transactions abort and their cursors
 * close. Every id is checked first (session-info.ts), so a bad one ends none.
 */
function endListed(ids: string[], ctx: CommandContext): Doc {
  for (const key of ids) {
    const session = ctx.core.sessions.get(key);
    if (session?.transaction?.state === 'active') abortTransaction(ctx.core.engine, session.transaction);
    ctx.core.sessions.delete(key);
    ctx.core.cursors.killSession(key);
  }
  return { ok: 1 };
}

const endSessions: Handler = (cmd, ctx) =>
  endListed(
    sessionIdList(cmd['endSessions'], 'endSessions.endSessions', 'endSessions.endSessionsFromClient'),
    ctx,
  );

const killSessions: Handler = (cmd, ctx) =>
  endListed(
    sessionIdList(
      cmd['killSessions'],
      'KillSessionsCmdFromClient.killSessions',
      'KillSessionsCmdFromClient.killSessions',
    ),
    ctx,
  );

/** refreshSessions: each listed session counts as used now (an unknown one starts), as MongoDB's vivify. */
const refreshSessions: Handler = (cmd, ctx) => {
  const ids = sessionIdList(
    cmd['refreshSessions'],
    'refreshSessions.refreshSessions',
    'refreshSessions.refreshSessionsFromClient',
  );
  for (const key of ids) {
    const session = ctx.core.sessions.get(key) ?? new Session(key);
    session.lastUsed = Date.now();
    ctx.core.sessions.set(key, session);
  }
  return { ok: 1 };
};

/** Handlers by command name. */
export const handshakeCommands: Record<string, Handler> = {
  hello,
  isMaster,
  ismaster: isMaster,
  ping: () => ({ ok: 1 }),
  buildInfo,
  buildinfo: buildInfo,
  getParameter,
  setParameter,
  serverStatus,
  hostInfo,
  connectionStatus,
  whatsmyuri: (_cmd, ctx) => ({ you: ctx.core.settings.me, ok: 1 }),
  getCmdLineOpts: () => ({ argv: ['plume-db'], parsed: {}, ok: 1 }),
  getLog: () => ({ totalLinesWritten: 0, log: [], ok: 1 }),
  endSessions,
  killSessions,
  refreshSessions,
  // A new session id, as LogicalSessionToClient: `{ id: UUID }`, usable as an `lsid`.
  startSession: () => ({ id: { id: new UUID() }, timeoutMinutes: 30, ok: 1 }),
  getFreeMonitoringStatus: () => ({ state: 'disabled', ok: 1 }),
};
