/** Runs the embedded server in a worker thread (see `EmbeddedServerOptions.worker`). */
import { Worker } from 'node:worker_threads';
import type { EmbeddedServer, EmbeddedServerOptions } from './declarations.js';

/**
 * Starts the server inside a worker thread and resolves once it listens.
 * @throws Error when the worker fails to start the server.
 */
export async function startInWorker(options: EmbeddedServerOptions): Promise<EmbeddedServer> {
  const fromSource = import.meta.url.endsWith('.ts');
  const url = new URL(fromSource ? './worker.ts' : './worker.js', import.meta.url);
  // From source (tsx, vitest), the worker registers tsx's loader before importing the TypeScript entry.
  const worker = fromSource
    ? new Worker(
        `import('tsx/esm/api').then((api) => { api.register(); return import(${JSON.stringify(url.href)}); });`,
        {
          eval: true,
          workerData: options,
        },
      )
    : new Worker(url, { workerData: options });
  const started = await new Promise<{ uri: string; port: number; host: string }>((resolve, reject) => {
    worker.once('message', (msg: { error?: string; uri?: string; port?: number; host?: string }) => {
      if (msg.error !== undefined) reject(new Error(msg.error));
      else resolve({ uri: msg.uri!, port: msg.port!, host: msg.host! });
    });
    worker.once('error', reject);
  });
  let stopped: Promise<void> | undefined;
  return {
    ...started,
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        worker.once('exit', () => resolve());
        worker.postMessage('stop');
      });
      return stopped;
    },
  };
}
