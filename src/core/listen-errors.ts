import type { EventEmitter } from 'node:events';
import type { Logger } from './logger.js';

/** What a Node.js server emits when `listen()` fails. */
interface ListenError extends Error {
  code?: string;
  address?: string;
  port?: number;
}

const WHY: Record<string, string> = {
  EADDRINUSE: 'is in use',
  EACCES: 'needs more privileges',
  EADDRNOTAVAIL: 'is not an address of this machine',
};

/** The one-line explanation of a failed `listen()`: `port 3030 is in use (set PORT)`; `undefined` for other errors. */
export function describeListenError(error: unknown): string | undefined {
  const { code, address, port } = (error ?? {}) as ListenError;
  const why = code === undefined ? undefined : WHY[code];
  if (why === undefined) return undefined;
  const where = code === 'EADDRNOTAVAIL' ? `address ${address ?? '?'}` : `port ${port ?? '?'}`;
  return `${where} ${why} (set PORT${code === 'EADDRNOTAVAIL' ? ' or HOST' : ''})`;
}

/**
 * Gives a server that nobody listens to for `'error'` a listener, so that a failed `listen()` (port
 * in use, no permission) is one `error` line through `logger` and exit code 1 instead of a crash
 * with an "Unhandled 'error' event" stack; later server errors are logged. Servers that already
 * have an `'error'` listener (then or when the error comes) are left alone. Called by `app.setup(server)`.
 */
export function watchListenErrors(server: unknown, logger: () => Logger): void {
  if (!isServer(server) || server.listenerCount('error') > 0) return;
  server.on('error', (error: unknown) => {
    // Someone added their own listener after setup(): the error is theirs to handle.
    if (server.listenerCount('error') > 1) return;
    const message = server.listening ? undefined : describeListenError(error);
    if (message === undefined) {
      logger().error(error, 'server error');
      return;
    }
    logger().error(message);
    process.exit(1);
  });
}

function isServer(value: unknown): value is EventEmitter & { listening: boolean } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as EventEmitter).on === 'function' &&
    typeof (value as EventEmitter).listenerCount === 'function' &&
    typeof (value as { listening?: unknown }).listening === 'boolean'
  );
}
