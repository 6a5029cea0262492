/**
 * The data directory's lock: `mongod.lock`, holding the owner's pid, lets one live server at a time use
 * a directory. It is safe for servers started in the same moment without OS file locks:
 *
 * - the lock appears whole: a draft holding the pid is written first and hard-linked to `mongod.lock`,
 *   which fails (EEXIST) when the lock exists, so only one of several takes it and nobody reads a
 *   half-written pid;
 * - a stale lock (its process is gone, or its text is not a pid) is removed only while holding the
 *   take-over mutex, after reading it again: without the mutex, two servers that both read the dead pid
 *   could each remove the lock — the second removing the one the first had just taken — and both run.
 *
 * The take-over mutex is the directory `mongod.lock.takeover`, holding one file named after its
 * holder (pid and a random token). It is taken by renaming a private directory holding that file into
 * place (a rename onto a non-empty directory fails), and broken when its holder's process is gone by
 * unlinking that file by its unique name, which only one breaker can do and which never removes a newer
 * holder's file. The mutex is held for a read and an unlink.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const LOCK = 'mongod.lock';
const TAKEOVER = 'mongod.lock.takeover';
/** Tries at taking the lock (each one after removing a stale lock another server may race us to). */
const LOCK_ATTEMPTS = 100;
/** Tries at taking the take-over mutex, 1 ms apart while a live process holds it. */
const TAKEOVER_ATTEMPTS = 5000;
const sleeper = new Int32Array(new SharedArrayBuffer(4));

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function errno(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

/** The live process a lock file names; undefined for a dead one or text that is not a pid. */
function liveOwner(text: string): number | undefined {
  const pid = Number(text);
  return /^\d+$/.test(text) && pid > 0 && processAlive(pid) ? pid : undefined;
}

/** The lock file's text, or undefined when there is none. */
function readLock(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (error) {
    if (errno(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/** Creates `file` from the complete `draft`; false when the lock already exists. */
function linkLock(draft: string, file: string, pid: string): boolean {
  try {
    fs.linkSync(draft, file);
    return true;
  } catch (error) {
    const code = errno(error);
    if (code === 'EEXIST') return false;
    // A file system without hard links: an exclusive create (a reader may see it before the pid).
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error;
  }
  try {
    writeSynced(file, pid, 'wx');
    return true;
  } catch (error) {
    if (errno(error) === 'EEXIST') return false;
    throw error;
  }
}

function writeSynced(file: string, text: string, flag: string): void {
  const fd = fs.openSync(file, flag);
  try {
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function ignoring(codes: string[], fn: () => void): void {
  try {
    fn();
  } catch (error) {
    if (!codes.includes(errno(error) ?? '')) throw error;
  }
}

/** Runs `fn` holding the take-over mutex of `dir`. @throws Error when a live holder keeps it. */
function withTakeover(dir: string, token: string, fn: () => void): void {
  const mutex = path.join(dir, TAKEOVER);
  const mine = path.join(dir, `${TAKEOVER}.${token}`);
  fs.mkdirSync(mine);
  fs.writeFileSync(path.join(mine, token), '');
  let held = false;
  try {
    for (let attempt = 0; attempt < TAKEOVER_ATTEMPTS && !held; attempt++) {
      try {
        fs.renameSync(mine, mutex);
        held = true;
      } catch (error) {
        if (!['EEXIST', 'ENOTEMPTY', 'EPERM', 'EACCES'].includes(errno(error) ?? '')) throw error;
        let holders: string[];
        try {
          holders = fs.readdirSync(mutex);
        } catch (e) {
          if (errno(e) === 'ENOENT') continue;
          throw e;
        }
        const holder = holders[0];
        // A holder's name is `<pid>.<token>`.
        if (holder !== undefined && liveOwner(holder.split('.')[0]!) !== undefined)
          Atomics.wait(sleeper, 0, 0, 1);
        else {
          // A dead holder's file goes by its unique name; the then empty mutex goes unless retaken.
          if (holder !== undefined) ignoring(['ENOENT'], () => fs.unlinkSync(path.join(mutex, holder)));
          ignoring(['ENOENT', 'ENOTEMPTY', 'EEXIST', 'EPERM'], () => fs.rmdirSync(mutex));
        }
      }
    }
    if (!held) throw new Error(`plume-db: could not lock ${dir} (${mutex} stays held)`);
    fn();
  } finally {
    if (held) {
      ignoring(['ENOENT'], () => fs.unlinkSync(path.join(mutex, token)));
      ignoring(['ENOENT', 'ENOTEMPTY', 'EEXIST', 'EPERM'], () => fs.rmdirSync(mutex));
    } else fs.rmSync(mine, { recursive: true, force: true });
  }
}

/**
 * Takes the lock of data directory `dir` for this process, taking over a stale one.
 * @throws Error `the data directory <dir> is locked by process <pid> (<file>)` when a live process
 *   holds it (this one included, for a second server on the same directory), or
 *   `plume-db: could not lock <dir>` when other servers keep racing for it.
 */
export function lockDataDirectory(dir: string): void {
  const file = path.join(dir, LOCK);
  const token = `${process.pid}.${randomBytes(8).toString('hex')}`;
  const draft = path.join(dir, `${LOCK}.${token}`);
  const pid = String(process.pid);
  writeSynced(draft, pid, 'wx');
  try {
    for (let attempt = 0; attempt < LOCK_ATTEMPTS; attempt++) {
      if (linkLock(draft, file, pid)) return;
      const text = readLock(file);
      if (text === undefined) continue;
      const owner = liveOwner(text);
      if (owner !== undefined)
        throw new Error(`the data directory ${dir} is locked by process ${owner} (${file})`);
      withTakeover(dir, token, () => {
        // Read again under the mutex: only a lock that is still stale is removed.
        const now = readLock(file);
        if (now !== undefined && liveOwner(now) === undefined) fs.unlinkSync(file);
      });
    }
    throw new Error(`plume-db: could not lock ${dir}`);
  } finally {
    fs.rmSync(draft, { force: true });
  }
}

/** Releases the lock of `dir` if this process holds it (a lock taken over by another is left alone). */
export function unlockDataDirectory(dir: string): void {
  const file = path.join(dir, LOCK);
  if (readLock(file) === String(process.pid)) fs.rmSync(file, { force: true });
}
