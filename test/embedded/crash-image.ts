/**
 * What a crash leaves on disk, without killing a process: the data files of a running server copied as
 * they are (every acknowledged write is already fsynced into them), optionally with the last journal
 * append cut short, as a crash in the middle of it leaves it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '../support/temp-dir.js';

/** A copy of a running server's data directory (without its lock file), as a crash would leave it. */
export function crashImage(dbPath: string): string {
  const copy = tempDir('plume-crash-');
  for (const file of fs.readdirSync(dbPath)) {
    if (file !== 'mongod.lock') fs.copyFileSync(path.join(dbPath, file), path.join(copy, file));
  }
  return copy;
}

/** The path of the (only) journal file in a data directory. */
export function journalOf(dir: string): string {
  return path.join(
    dir,
    fs.readdirSync(dir).find((f) => /^journal\.\d+\.bson$/.test(f))!,
  );
}

/** Cuts the last `bytes` bytes of a directory's journal: its last append was torn by a crash. */
export function tearLastAppend(dir: string, bytes = 7): void {
  const journal = journalOf(dir);
  fs.truncateSync(journal, fs.statSync(journal).size - bytes);
}
