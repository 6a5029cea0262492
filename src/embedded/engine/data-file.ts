/**
 * The record format of the data files (`snapshot.bson`, `journal.<gen>.bson`), format 2:
 *
 *     file   = magic record*
 *     magic  = "PLUMEDB2"                                   (8 bytes)
 *     record = length crcOfLength crcOfPayload payload     (three little-endian uint32, then `length` bytes)
 *
 * `payload` is one BSON document; both checksums are CRC-32C. A record whose bytes stop before its end is
 * torn (the process died while appending it); any other mismatch is damage. Files without the magic are
 * format 1 (plain concatenated BSON documents, no checksums) and are still read; the first compaction
 * rewrites them in format 2.
 */
import fs from 'node:fs';
import { crc32c } from '../crc32c.js';
import { decodeDocument } from '../wire.js';
import type { Doc } from './values.js';

/** The first bytes of a format-2 data file. */
export const MAGIC = Buffer.from('PLUMEDB2', 'latin1');
const HEADER = 12;

/** Which data file a record comes from: their records have different shapes. */
export type DataFileKind = 'snapshot' | 'journal';

/**
 * A data file is damaged: start-up stops, the files are left as they are, and `plume-db --repair`
 * (or `repairDataDirectory`) salvages what it can.
 */
export class DataFileError extends Error {
  /**
   * @param file path of the damaged file
   * @param offset byte offset in it of the first record that cannot be read
   * @param reason what is wrong there
   */
  constructor(
    readonly file: string,
    readonly offset: number,
    reason: string,
  ) {
    super(
      `plume-db: ${file} is damaged at byte ${offset}: ${reason}. The data files were left untouched; ` +
        'run `plume-db --dbpath <dir> --repair` to salvage what can be read into a new snapshot ' +
        '(the damaged files are kept aside).',
    );
    this.name = 'DataFileError';
  }
}

/** Frames one BSON payload as a format-2 record. */
export function frameRecord(payload: Uint8Array): Buffer {
  const header = Buffer.alloc(HEADER);
  header.writeUInt32LE(payload.length, 0);
  header.writeUInt32LE(crc32c(header.subarray(0, 4)), 4);
  header.writeUInt32LE(crc32c(payload), 8);
  return Buffer.concat([header, payload]);
}

/**
 * True when a decoded record has the shape its file's records have. A snapshot starts with its header:
 * `first` says whether the record must be (true), must not be (false) or may be (undefined) the header.
 */
function wellShaped(record: Doc, kind: DataFileKind, first: boolean | undefined): boolean {
  if (kind === 'journal') {
    const changes = record['changes'];
    return Array.isArray(changes) && changes.every((c) => typeof (c as Doc | null)?.['op'] === 'string');
  }
  if (record['format'] === 'plume-snapshot') return first !== false;
  if (first === true || typeof record['ns'] !== 'string') return false;
  return record['type'] === 'collection' || (record['type'] === 'doc' && typeof record['doc'] === 'object');
}

/** One record read at `offset`, or why it could not be. */
type Step = { record: Doc; next: number } | { torn: true } | { damage: string };

function decodeAt(
  buf: Buffer,
  start: number,
  end: number,
  kind: DataFileKind,
  first: boolean | undefined,
): Step {
  let record: Doc;
  try {
    record = decodeDocument(buf.subarray(start, end));
  } catch (error) {
    return { damage: `the record is not valid BSON (${(error as Error).message})` };
  }
  if (!wellShaped(record, kind, first)) return { damage: `the record is not a ${kind} record` };
  return { record, next: end };
}

function stepV2(buf: Buffer, offset: number, kind: DataFileKind, first: boolean | undefined): Step {
  if (buf.length - offset < HEADER) return { torn: true };
  const length = buf.readUInt32LE(offset);
  if (crc32c(buf.subarray(offset, offset + 4)) !== buf.readUInt32LE(offset + 4)) {
    return { damage: 'record header checksum mismatch' };
  }
  const start = offset + HEADER;
  if (start + length > buf.length) return { torn: true };
  if (crc32c(buf.subarray(start, start + length)) !== buf.readUInt32LE(offset + 8)) {
    return { damage: 'record checksum mismatch' };
  }
  return decodeAt(buf, start, start + length, kind, first);
}

function stepV1(buf: Buffer, offset: number, kind: DataFileKind, first: boolean | undefined): Step {
  if (buf.length - offset < 4) return { torn: true };
  const size = buf.readInt32LE(offset);
  if (size < 5) return { damage: `invalid record size ${size}` };
  if (offset + size > buf.length) return { torn: true };
  return decodeAt(buf, offset, offset + size, kind, first);
}

/** How a file's records are laid out. */
function layout(buf: Buffer): { step: typeof stepV2; start: number } {
  const v2 = buf.length >= MAGIC.length && buf.subarray(0, MAGIC.length).equals(MAGIC);
  return v2 ? { step: stepV2, start: MAGIC.length } : { step: stepV1, start: 0 };
}

/**
 * Reads every record of a data file. A journal's torn final record is dropped (it was never
 * acknowledged: the reply waits for the append); anything else that cannot be read is damage.
 * @throws DataFileError naming the file and the byte offset of the first damaged record.
 */
export function readDataFile(file: string, kind: DataFileKind): Doc[] {
  const buf = fs.readFileSync(file);
  // A journal created just before a crash may hold part of its magic only.
  if (kind === 'journal' && buf.length < MAGIC.length && MAGIC.subarray(0, buf.length).equals(buf)) return [];
  const { step, start } = layout(buf);
  const records: Doc[] = [];
  let offset = start;
  while (offset < buf.length) {
    const result = step(buf, offset, kind, records.length === 0);
    if ('torn' in result) {
      if (kind === 'journal') break;
      throw new DataFileError(file, offset, 'the file ends inside a record');
    }
    if ('damage' in result) throw new DataFileError(file, offset, result.damage);
    records.push(result.record);
    offset = result.next;
  }
  return records;
}

/** What {@link salvageDataFile} could not read: byte ranges skipped. */
export interface SalvageResult {
  records: Doc[];
  /** `[offset, length]` of each unreadable stretch, in file order. */
  skipped: [number, number][];
}

/**
 * Reads every record that can be read, skipping damaged stretches: after a bad record it looks for the
 * next offset where a whole, valid record starts (checksums make false starts practically impossible in
 * format 2; format 1 relies on BSON validity and the record's shape).
 */
export function salvageDataFile(file: string, kind: DataFileKind): SalvageResult {
  const buf = fs.readFileSync(file);
  const { step, start } = layout(buf);
  const records: Doc[] = [];
  const skipped: [number, number][] = [];
  let offset = start;
  let badFrom: number | undefined;
  while (offset < buf.length) {
    const result = step(buf, offset, kind, undefined);
    if ('record' in result) {
      if (badFrom !== undefined) skipped.push([badFrom, offset - badFrom]);
      badFrom = undefined;
      records.push(result.record);
      offset = result.next;
    } else {
      badFrom ??= offset;
      offset += 1;
    }
  }
  if (badFrom !== undefined) skipped.push([badFrom, buf.length - badFrom]);
  return { records, skipped };
}
