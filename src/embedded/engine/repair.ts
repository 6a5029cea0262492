/**
 * Explicit repair of a damaged data directory (`plume-db --repair`, `repairDataDirectory`): salvages every
 * record that can still be read into a fresh snapshot, and moves the original files into a
 * `repair-<time>` folder beside them, untouched.
 */
import fs from 'node:fs';
import path from 'node:path';
import { salvageDataFile } from './data-file.js';
import { Engine } from './database.js';
import { Persistence, applyChange } from './persistence.js';

/** What {@link repairDataDirectory} did, file by file. */
export interface RepairReport {
  /** Where the original files were moved (inside the data directory). */
  movedTo: string;
  /** Each data file read: records salvaged, and the `[offset, length]` byte ranges that were skipped. */
  files: { file: string; records: number; skipped: [number, number][] }[];
  /** Logged changes that could not be applied (e.g. they broke a unique index), skipped. */
  skippedChanges: number;
  /** Documents in the new snapshot. */
  documents: number;
}

/**
 * Salvages a damaged data directory: reads every record that can be read (skipping damaged stretches),
 * moves `snapshot.bson` and `journal.*.bson` aside into `<dbPath>/repair-<time>/`, and writes a new
 * snapshot of what was salvaged. The server must not be running on the directory.
 * @throws Error when the directory is locked by a live process or cannot be read or written.
 */
export function repairDataDirectory(dbPath: string): RepairReport {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const report: RepairReport = {
    movedTo: path.join(dbPath, `repair-${stamp}`),
    files: [],
    skippedChanges: 0,
    documents: 0,
  };
  const engine = new Engine();
  const persistence = Persistence.open(
    dbPath,
    engine,
    {},
    {
      read(file, kind) {
        const { records, skipped } = salvageDataFile(file, kind);
        report.files.push({ file, records: records.length, skipped });
        return records;
      },
      apply(target, change) {
        try {
          applyChange(target, change);
        } catch {
          report.skippedChanges++;
        }
      },
      beforeCompact() {
        fs.mkdirSync(report.movedTo);
        for (const file of fs.readdirSync(dbPath)) {
          if (file === 'snapshot.bson' || /^journal\.\d+\.bson$/.test(file)) {
            fs.renameSync(path.join(dbPath, file), path.join(report.movedTo, file));
          }
        }
      },
    },
  );
  for (const colls of engine.databases.values())
    for (const coll of colls.values()) report.documents += coll.state.docs.size;
  persistence.close();
  return report;
}
