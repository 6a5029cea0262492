/**
 * bcrypt off the event loop. bcryptjs is plain JavaScript: even its async functions run on the main
 * thread (in 100 ms slices), so 40 parallel logins stalled every other request for seconds. Here the
 * hashing runs in worker threads, which keep the same `$2b$` hashes and verify existing ones.
 * The workers are started on first use and do not keep the process alive while idle.
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/** The worker's code (CommonJS, run with `eval`: no file to find from source or from `dist`). */
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const bcrypt = require(workerData.bcryptjs);
parentPort.on('message', ({ id, op, password, salt }) => {
  try {
    const value = op === 'hash' ? bcrypt.hashSync(password, salt) : bcrypt.compareSync(password, salt);
    parentPort.postMessage({ id, value });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
`;

interface Job {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface PoolWorker {
  worker: Worker;
  jobs: Map<number, Job>;
}

/** Workers: one per spare core (at least one, at most four). */
const POOL_SIZE = Math.max(1, Math.min(4, availableParallelism() - 1));
const workers: PoolWorker[] = [];
let nextId = 0;
let bcryptjsPath: string | undefined;

function startWorker(): PoolWorker {
  bcryptjsPath ??= createRequire(import.meta.url).resolve('bcryptjs');
  const worker = new Worker(workerSource, { eval: true, workerData: { bcryptjs: bcryptjsPath } });
  const entry: PoolWorker = { worker, jobs: new Map() };
  worker.unref();
  worker.on('message', (message: { id: number; value?: unknown; error?: string }) => {
    const job = entry.jobs.get(message.id);
    if (job === undefined) return;
    entry.jobs.delete(message.id);
    if (entry.jobs.size === 0) worker.unref();
    if (message.error === undefined) job.resolve(message.value);
    else job.reject(new Error(message.error));
  });
  const fail = (error: Error): void => {
    const index = workers.indexOf(entry);
    if (index >= 0) workers.splice(index, 1);
    for (const job of entry.jobs.values()) job.reject(error);
    entry.jobs.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`The bcrypt worker stopped (exit code ${code})`)));
  workers.push(entry);
  return entry;
}

/** The least busy worker, starting another while the pool is not full. */
function pickWorker(): PoolWorker {
  let best: PoolWorker | undefined;
  for (const entry of workers) if (best === undefined || entry.jobs.size < best.jobs.size) best = entry;
  if (best === undefined || (best.jobs.size > 0 && workers.length < POOL_SIZE)) return startWorker();
  return best;
}

function run(op: 'hash' | 'compare', password: string, salt: string | number): Promise<unknown> {
  const entry = pickWorker();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    entry.jobs.set(id, { resolve, reject });
    // A pending job keeps the process alive until its answer arrives.
    entry.worker.ref();
    entry.worker.postMessage({ id, op, password, salt });
  });
}

/** bcrypt hash (`$2b$…`, 60 characters) of `password` at `cost` (4 to 31), computed in a worker thread. */
export async function bcryptHash(password: string, cost: number): Promise<string> {
  return String(await run('hash', password, cost));
}

/**
 * True when `password` matches the bcrypt `hash`, compared in a worker thread. Rejects for a value
 * that is not a bcrypt hash (bcryptjs' own error).
 */
export async function bcryptCompare(password: string, hash: string): Promise<boolean> {
  return (await run('compare', password, hash)) === true;
}
