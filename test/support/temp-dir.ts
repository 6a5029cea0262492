/**
 * A new empty directory under the system's temporary directory, removed when the current test has
 * finished (after its `afterEach` hooks, which stop the servers that use it). Call it inside a test.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onTestFinished } from 'vitest';

export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}
