/**
 * The embedded server as a child process (`bin/plume-db.js`) for the fuzzer, so that a request that
 * blocks the event loop or ends the process is seen as such instead of stopping the fuzzer with it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/plume-db.js', import.meta.url));

export class ServerProcess {
  /** stderr lines that are not the expected protocol-error log lines. */
  readonly unexpected: string[] = [];
  protocolErrors = 0;
  /** The last protocol error the server logged. */
  lastProtocolError = '';
  exited: string | undefined;

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {}

  /**
   * Starts `plume-db` on a free port with `dbPath`, `nodeArgs` given to node (`--max-old-space-size=64`);
   * resolves once it prints its URI.
   */
  static start(dbPath: string, nodeArgs: string[] = []): Promise<ServerProcess> {
    const child = spawn(process.execPath, [...nodeArgs, BIN, '--port', '0', '--dbpath', dbPath], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new Promise((resolve, reject) => {
      let out = '';
      let server: ServerProcess | undefined;
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /:(\d+)\/\s*$/m.exec(out);
        if (match && !server) {
          server = new ServerProcess(child, Number(match[1]));
          resolve(server);
        }
      });
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => {
        err += chunk.toString();
        const lines = err.split('\n');
        err = lines.pop()!;
        for (const line of lines) {
          if (!server) continue;
          if (line.startsWith('plume-db: protocol error')) {
            server.protocolErrors++;
            server.lastProtocolError = line.replace(/^.*connection closed: /, '');
          } else server.unexpected.push(line);
        }
      });
      child.on('exit', (code, signal) => {
        if (!server) reject(new Error(`plume-db exited before listening: ${code ?? signal} ${err}`));
        else server.exited = `exit code ${code}, signal ${signal}`;
      });
    });
  }

  /** Stops the server: SIGTERM (a clean shutdown), or SIGKILL for one that does not answer. */
  stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.kill(signal);
    });
  }
}
