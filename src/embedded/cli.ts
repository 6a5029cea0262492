/**
 * `plume-db` command line: starts the embedded server standalone, prints its URI, and stops cleanly on
 * SIGINT/SIGTERM; exits with status 1 when its journal cannot be written (a full disk).
 *
 *     plume-db [--port 27017] [--host 127.0.0.1] [--dbpath DIR] [--replSet NAME | --standalone]
 *     plume-db --dbpath DIR --repair     (salvages a damaged data directory, then exits)
 */
import { repairDataDirectory, startEmbeddedServer } from './index.js';
import type { EmbeddedServerOptions } from './index.js';

const USAGE =
  'usage: plume-db [--port 27017] [--host 127.0.0.1] [--dbpath DIR] [--replSet NAME | --standalone]\n' +
  '       plume-db --dbpath DIR --repair';

/**
 * Parses `plume-db` arguments.
 * @throws Error on an unknown flag or a bad value.
 */
export function parseArgs(argv: readonly string[]): EmbeddedServerOptions {
  const options: EmbeddedServerOptions = { port: 27017 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value\n${USAGE}`);
      return v;
    };
    switch (flag) {
      case '--port': {
        const port = Number(value());
        if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid --port\n${USAGE}`);
        options.port = port;
        break;
      }
      case '--host':
      case '--bind_ip':
        options.host = value();
        break;
      case '--dbpath':
      case '--dbPath':
        options.dbPath = value();
        break;
      case '--replSet':
        options.replicaSet = value();
        break;
      case '--standalone':
        options.replicaSet = false;
        break;
      case '--repair':
        options.repair = true;
        break;
      default:
        throw new Error(`unknown option ${arg}\n${USAGE}`);
    }
  }
  return options;
}

/** Runs the CLI; resolves once the server has stopped after a signal, or once `--repair` is done. */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  let options: EmbeddedServerOptions;
  try {
    options = parseArgs(argv);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  if (options.repair) {
    if (!options.dbPath) {
      process.stderr.write(`--repair needs --dbpath\n${USAGE}\n`);
      process.exitCode = 2;
      return;
    }
    const report = repairDataDirectory(options.dbPath);
    for (const { file, records, skipped } of report.files) {
      const lost = skipped.map(([at, length]) => `${length} bytes at ${at}`).join(', ');
      process.stdout.write(`${file}: ${records} records salvaged${lost ? `, skipped ${lost}` : ''}\n`);
    }
    process.stdout.write(
      `repaired: ${report.documents} documents in a new snapshot; originals kept in ${report.movedTo}\n`,
    );
    return;
  }
  let stopNow = (): void => {};
  const server = await startEmbeddedServer({
    ...options,
    // As mongod, which exits when its journal cannot be written: a supervisor sees it stopped.
    onFatalError(error) {
      process.stderr.write(`${error.message}\n`);
      process.exitCode = 1;
      stopNow();
    },
  });
  process.stdout.write(`${server.uri}\n`);
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void server.stop().then(resolve);
    };
    stopNow = stop;
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
