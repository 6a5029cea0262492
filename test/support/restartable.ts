/** Test helper: an embedded database with a data directory, stopped and started again on its port. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedServer, type EmbeddedServer } from 'plume/embedded';

/** A running embedded database that {@link RestartableDatabase.restart} replaces by a new one. */
export interface RestartableDatabase {
  /** The server currently running. */
  readonly server: EmbeddedServer;
  /** Stops the server, runs `between`, and starts it again on the same port and data directory. */
  restart(between?: () => Promise<void>): Promise<void>;
  /** Stops the server and removes its data directory. */
  close(): Promise<void>;
}

/** Starts an embedded database in a new temporary data directory named after `prefix`. */
export async function startRestartable(prefix: string): Promise<RestartableDatabase> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  let server = await startEmbeddedServer({ dbPath: dir });
  return {
    get server() {
      return server;
    },
    async restart(between = async () => undefined) {
      const port = server.port;
      await server.stop();
      await between();
      server = await startEmbeddedServer({ dbPath: dir, port });
    },
    async close() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
