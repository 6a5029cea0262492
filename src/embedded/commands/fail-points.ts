/**
 * The `failCommand` fail point drivers and ODM test suites configure with `configureFailPoint`, so
 * applications can test their retry and error paths: chosen commands fail with an error code, a
 * write-concern error, a closed connection, or after blocking the connection for a while.
 */
import type { Doc } from '../engine/values.js';
import { isPlainObject } from '../engine/values.js';
import { CommandError, ErrorCodes, codeName } from '../errors.js';
import type { Handler, ServerCore } from './context.js';

/** Marks a reply after which the server closes the connection without answering. */
export const CLOSE_CONNECTION = Symbol('closeConnection');

interface FailCommand {
  commands: Set<string>;
  /** Activations left (`{ times }`), or Infinity (`alwaysOn`, `{ skip }`, `{ activationProbability }`). */
  times: number;
  skip: number;
  probability: number;
  data: Doc;
}

interface FailPointState {
  failCommand: FailCommand | undefined;
  /** `client.application.name` from each connection's handshake. */
  appNames: Map<number, string>;
}

const states = new WeakMap<ServerCore, FailPointState>();

function stateOf(core: ServerCore): FailPointState {
  let state = states.get(core);
  if (!state) states.set(core, (state = { failCommand: undefined, appNames: new Map() }));
  return state;
}

/** Remembers the application name a connection gave in its handshake (for the `appName` filter). */
export function noteHandshake(core: ServerCore, connectionId: number, cmd: Doc): void {
  const client = cmd['client'];
  const app =
    isPlainObject(client) && isPlainObject(client['application']) ? client['application'] : undefined;
  if (app && typeof app['name'] === 'string') stateOf(core).appNames.set(connectionId, app['name']);
}

/** Forgets a closed connection's application name (each connection would otherwise keep it forever). */
export function forgetConnection(core: ServerCore, connectionId: number): void {
  states.get(core)?.appNames.delete(connectionId);
}

/** Error codes MongoDB labels `RetryableWriteError` on a retryable write. */
const RETRYABLE_CODES = new Set([
  6, 7, 89, 91, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436, 63, 150, 134,
]);

/** What the fail point does to one command, or undefined when it does not apply. */
export interface FailAction {
  blockMs: number;
  close: boolean;
  error: Doc | undefined;
  writeConcernError: Doc | undefined;
}

/**
 * Decides whether the `failCommand` fail point fires for this command (counting `times` and `skip`).
 * `retryableWrite` is true for insert/update/delete/findAndModify with a txnNumber outside a transaction.
 */
export function failCommandFor(
  core: ServerCore,
  name: string,
  connectionId: number,
  retryableWrite: boolean,
): FailAction | undefined {
  const state = states.get(core);
  const fp = state?.failCommand;
  if (!state || !fp || !fp.commands.has(name)) return undefined;
  const appName = fp.data['appName'];
  if (typeof appName === 'string' && state.appNames.get(connectionId) !== appName) return undefined;
  if (fp.skip > 0) {
    fp.skip--;
    return undefined;
  }
  if (fp.probability < 1 && Math.random() >= fp.probability) return undefined;
  fp.times--;
  if (fp.times <= 0) state.failCommand = undefined;
  const data = fp.data;
  let error: Doc | undefined;
  if (typeof data['errorCode'] === 'number') {
    const code = data['errorCode'];
    const labels = Array.isArray(data['errorLabels'])
      ? data['errorLabels']
      : retryableWrite && RETRYABLE_CODES.has(code)
        ? ['RetryableWriteError']
        : [];
    error = {
      ok: 0,
      errmsg: "Failing command via 'failCommand' failpoint",
      code,
      codeName: codeName(code),
      ...(labels.length > 0 ? { errorLabels: labels } : {}),
    };
  }
  return {
    blockMs: data['blockConnection'] === true ? Number(data['blockTimeMS'] ?? 0) : 0,
    close: data['closeConnection'] === true,
    error,
    writeConcernError: isPlainObject(data['writeConcernError']) ? data['writeConcernError'] : undefined,
  };
}

function parseMode(mode: unknown): Pick<FailCommand, 'times' | 'skip' | 'probability'> | 'off' {
  if (mode === 'off') return 'off';
  if (mode === 'alwaysOn') return { times: Infinity, skip: 0, probability: 1 };
  if (isPlainObject(mode)) {
    if (mode['times'] !== undefined) return { times: Number(mode['times']), skip: 0, probability: 1 };
    if (mode['skip'] !== undefined) return { times: Infinity, skip: Number(mode['skip']), probability: 1 };
    if (mode['activationProbability'] !== undefined)
      return { times: Infinity, skip: 0, probability: Number(mode['activationProbability']) };
  }
  throw new CommandError(ErrorCodes.BadValue, `invalid mode: ${JSON.stringify(mode)}`);
}

/**
 * `configureFailPoint` (admin database only): turns the `failCommand` fail point on or off.
 * @throws CommandError Unauthorized (13) elsewhere than admin; BadValue for other fail points or bad specs.
 */
const configureFailPoint: Handler = (cmd, ctx) => {
  if (ctx.db !== 'admin')
    throw new CommandError(
      ErrorCodes.Unauthorized,
      'configureFailPoint may only be run against the admin database.',
    );
  const name = cmd['configureFailPoint'];
  if (name !== 'failCommand')
    throw new CommandError(
      ErrorCodes.BadValue,
      `Cannot find failpoint: ${String(name)} (the embedded database has only failCommand)`,
    );
  const state = stateOf(ctx.core);
  const mode = parseMode(cmd['mode']);
  if (mode === 'off') {
    state.failCommand = undefined;
    return { ok: 1 };
  }
  const data = cmd['data'];
  if (!isPlainObject(data) || !Array.isArray(data['failCommands']))
    throw new CommandError(ErrorCodes.BadValue, "'data.failCommands' must be an array of command names");
  state.failCommand = { commands: new Set(data['failCommands'].map(String)), ...mode, data };
  return { ok: 1 };
};

/** Handlers by command name. */
export const failPointCommands: Record<string, Handler> = { configureFailPoint };
