/**
 * The child processes of the benchmarks (servers, the database, a server under valgrind): start one
 * and wait until it says it is ready, stop one and wait until it has exited.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/** How `startProcess` runs a command. */
export interface StartOptions {
  /** What the process prints on stdout once ready; its first capture group is what `startProcess` gives. */
  ready: RegExp;
  /** Names the process in errors. */
  name: string;
  cwd?: string;
  /** Added to this process' environment. */
  env?: Record<string, string>;
  /** Where the child's stderr goes: here (default), or nowhere (valgrind's chatter). */
  stderr?: 'inherit' | 'ignore';
  /** Milliseconds to wait for `ready` (default 60 s; valgrind needs more). */
  timeoutMs?: number;
}

/**
 * Starts `command args…` and resolves, once its stdout matches `options.ready`, to the child and the
 * first capture group of the match (a port, a URI). Rejects if the process exits first or does not
 * get ready in time.
 */
export async function startProcess(
  command: string,
  args: string[],
  options: StartOptions,
): Promise<{ child: ChildProcess; ready: string }> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', options.stderr ?? 'inherit'],
  });
  let output = '';
  child.stdout.setEncoding('utf8');
  const ready = await new Promise<string>((resolve, reject) => {
    const timeoutMs = options.timeoutMs ?? 60_000;
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`${options.name} was not ready within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      const match = options.ready.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] ?? match[0]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${options.name} exited with code ${String(code)} before it was ready`));
    });
  });
  return { child, ready };
}

/** Stops a child with SIGTERM and waits until it has exited (at once if it has already). */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}
