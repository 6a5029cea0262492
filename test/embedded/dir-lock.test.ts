/**
 * The data-directory lock (`mongod.lock`) when several servers start at the same moment over a stale
 * lock (left by a process that is gone): exactly one may win, or two servers would write one journal.
 * Each server runs in its own child process, as separate `plume-db` processes would.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedServer } from 'plume/embedded';
import { tempDir } from '../support/temp-dir.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const CHILDREN = 6;
const ROUNDS = 20;

/** A child running fixtures/lock-child.ts: send it a line, read its next line. */
function lockChild(): {
  child: ChildProcessWithoutNullStreams;
  send(line: string): void;
  next(): Promise<string>;
} {
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', path.join(here, 'fixtures/lock-child.ts')],
    { cwd: root },
  );
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
      const line = out.slice(0, nl);
      out = out.slice(nl + 1);
      const resolve = waiting.shift();
      if (resolve) resolve(line);
      else lines.push(line);
    }
  });
  return {
    child,
    send: (line) => child.stdin.write(`${line}\n`),
    next: () => {
      const line = lines.shift();
      return line !== undefined ? Promise.resolve(line) : new Promise((resolve) => waiting.push(resolve));
    },
  };
}

/** The pid of a process that has exited: what a crashed server leaves in its lock file. */
function deadPid(): number {
  const done = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(done.stdout.toString());
}

describe('the data-directory lock', () => {
  const children: ReturnType<typeof lockChild>[] = [];
  afterAll(async () => {
    await Promise.all(
      children.map((c) => {
        c.child.kill();
        return new Promise((resolve) => c.child.once('exit', resolve));
      }),
    );
  });

  it('lets exactly one of several servers started at once over a stale lock win, round after round', async () => {
    for (let i = 0; i < CHILDREN; i++) children.push(lockChild());
    expect(await Promise.all(children.map((c) => c.next()))).toEqual(Array(CHILDREN).fill('ready'));
    const stale = String(deadPid());
    for (let round = 0; round < ROUNDS; round++) {
      const dir = tempDir('plume-lock-');
      fs.writeFileSync(path.join(dir, 'mongod.lock'), stale);
      for (const c of children) c.send(`start ${dir}`);
      const answers = await Promise.all(children.map((c) => c.next()));
      const winners = children.filter((_c, i) => answers[i] === 'won');
      expect(winners.length, `round ${round}: ${answers.join(' | ')}`).toBe(1);
      const winner = winners[0]!;
      for (const answer of answers.filter((a) => a !== 'won'))
        expect(answer).toContain(`is locked by process ${winner.child.pid}`);
      expect(fs.readFileSync(path.join(dir, 'mongod.lock'), 'utf8')).toBe(String(winner.child.pid));
      winner.send('release');
      expect(await winner.next()).toBe('released');
      // Nothing of the race is left behind: no lock, no draft, no take-over mutex.
      expect(fs.readdirSync(dir).filter((f) => f.startsWith('mongod.lock'))).toEqual([]);
    }
  }, 180_000);

  it('takes over a lock file that holds no pid (a crash while it was written)', async () => {
    for (const text of ['', 'garbage', '0']) {
      const dir = tempDir('plume-lock-');
      fs.writeFileSync(path.join(dir, 'mongod.lock'), text);
      const server = await startEmbeddedServer({ dbPath: dir });
      expect(fs.readFileSync(path.join(dir, 'mongod.lock'), 'utf8')).toBe(String(process.pid));
      await server.stop();
      expect(fs.existsSync(path.join(dir, 'mongod.lock'))).toBe(false);
    }
  });
});
