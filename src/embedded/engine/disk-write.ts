/**
 * Writing the data files when the disk may fail: whole writes only, and the error a journal append that
 * failed becomes. MongoDB's answer to a journal it cannot write is to stop (WiredTiger panics and mongod
 * aborts, SERVER-16573); the embedded server stops serving likewise, without ending the host process.
 */
import fs from 'node:fs';
import { CommandError, ErrorCodes } from '../errors.js';

/**
 * Writes every byte of `bytes` at `fd`'s position. `fs.writeSync` writes once: on a disk that fills up
 * mid-write it returns a short count without an error, which would leave a torn record behind a write
 * that is then acknowledged. Looping makes the next write report the failure (ENOSPC).
 * @throws the file system's error (ENOSPC, EDQUOT, EIO …).
 */
export function writeAll(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length;) done += fs.writeSync(fd, bytes, done);
}

/**
 * The journal could not be written: the change was not made durable, and the server stops serving.
 * Code OutOfDiskSpace (14031) for a full disk, a quota or a file size limit (ENOSPC, EDQUOT, EFBIG),
 * InternalError (1) for any other failure.
 */
export class JournalWriteError extends CommandError {
  /**
   * @param file the journal's path
   * @param cause the file system's error
   */
  constructor(
    readonly file: string,
    override readonly cause: Error,
  ) {
    const code = (cause as NodeJS.ErrnoException).code;
    super(
      code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG'
        ? ErrorCodes.OutOfDiskSpace
        : ErrorCodes.InternalError,
      `plume-db: cannot write the journal ${file} (${cause.message}). The write was not made durable ` +
        'and the server stopped serving; every write acknowledged before it is on disk. Free some space ' +
        '(or fix the disk) and start the server again.',
    );
    this.name = 'JournalWriteError';
  }
}
