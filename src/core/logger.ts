import { createRequire } from 'node:module';
import { pino, type DestinationStream, type LevelWithSilent } from 'pino';
import { isExposedClientError, toPlumeError } from '../errors/index.js';

/**
 * What plume logs through: the level methods of a pino logger (`pino()` satisfies it), each taking
 * an object of fields or an `Error` (logged with its stack) and an optional message.
 */
export interface Logger {
  error(fields: unknown, message?: string): void;
  warn(fields: unknown, message?: string): void;
  info(fields: unknown, message?: string): void;
  debug(fields: unknown, message?: string): void;
}

/** Options of `createLogger()`. */
export interface LoggerOptions {
  /** Lowest level written. Default: the `LOG_LEVEL` environment variable, else `'info'`. */
  level?: LevelWithSilent;
  /** Human-readable lines instead of JSON. Default: true when standard output is a terminal. */
  pretty?: boolean;
  /** Where lines go. Default: standard output. */
  destination?: DestinationStream;
}

/** Access-log fields that the human-readable form shows in the message instead of repeating them. */
const SHOWN_IN_MESSAGE = 'pid,hostname,method,path,status,durationMs';

/**
 * Paths pino replaces with `[redacted]` wherever a log call passes request headers or credentials,
 * so that a careless `logger.info({ headers })` cannot write a token (plume itself never logs them).
 */
const REDACTED_PATHS = [
  'authorization',
  'cookie',
  'accessToken',
  'access_token',
  'password',
  '*.authorization',
  '*.cookie',
  '*.accessToken',
  '*.access_token',
  '*.password',
  '*.headers.authorization',
  '*.headers.cookie',
  '*.headers["set-cookie"]',
  '*.headers["x-api-key"]',
];

const LEVELS: readonly string[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function levelFromEnvironment(): LevelWithSilent {
  const level = process.env.LOG_LEVEL?.toLowerCase();
  return level !== undefined && LEVELS.includes(level) ? (level as LevelWithSilent) : 'info';
}

/** pino-pretty writing to `destination` (standard output by default); loaded only when asked for. */
function prettyStream(destination: DestinationStream | undefined): DestinationStream {
  const require = createRequire(import.meta.url);
  const pretty = require('pino-pretty') as (options: object) => DestinationStream;
  return pretty({
    ignore: SHOWN_IN_MESSAGE,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    sync: true,
    ...(destination === undefined ? {} : { destination }),
  });
}

/**
 * A pino logger (DESIGN.md "Libraries we stand on"): JSON lines, or human-readable single lines
 * (pino-pretty) when `pretty` (default: standard output is a terminal); level from `options.level`,
 * else `LOG_LEVEL` (`fatal`, `error`, `warn`, `info`, `debug`, `trace`, `silent`), else `info`.
 * Authorization headers, cookies, passwords and access tokens in logged objects are written as
 * `[redacted]`. Give it to an app with `app.set('logger', createLogger())`.
 */
export function createLogger(options: LoggerOptions = {}): pino.Logger {
  const pretty = options.pretty ?? process.stdout.isTTY === true;
  const settings = {
    level: options.level ?? levelFromEnvironment(),
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  };
  const destination = pretty ? prettyStream(options.destination) : options.destination;
  return destination === undefined ? pino(settings) : pino(settings, destination);
}

let fallback: Logger | undefined;

/**
 * The app's logger (`app` is a plume or Express app): `app.get('logger')` when it is set to an object with `error`, `warn`, `info`
 * and `debug` methods, otherwise one `createLogger()` shared by the process.
 */
export function getLogger(app: { get(name: string): unknown }): Logger {
  const logger = app.get('logger');
  if (isLogger(logger)) return logger;
  return (fallback ??= createLogger());
}

/** True for an object with the four level methods of `Logger`. */
export function isLogger(value: unknown): value is Logger {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return ['error', 'warn', 'info', 'debug'].every((level) => typeof candidate[level] === 'function');
}

/**
 * An error logger for `errorHandler({ logger })` (both transports) backed by `logger`: errors with
 * a status below 500 (a 404, a failed validation, and Express' own client errors such as invalid
 * JSON or a request aborted mid-body) become one `debug` line naming the status, class and message;
 * everything else is logged at `error` with its stack. A client cannot fill the error log.
 */
export function errorLogger(logger: Logger): { error(error: unknown): void } {
  return {
    error(error: unknown): void {
      const { code, name, message } = isExposedClientError(error)
        ? { code: error.status, name: error.name, message: error.message }
        : toPlumeError(error);
      if (code >= 400 && code < 500) logger.debug({ status: code }, `${code} ${name}: ${message}`);
      else logger.error(error instanceof Error ? error : { error }, 'request failed');
    },
  };
}
