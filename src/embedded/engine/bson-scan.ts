/**
 * A scan of an incoming BSON document's bytes before it is decoded, for what the server refuses in a
 * document it can otherwise read: nesting deeper than MongoDB parses, and text that is not UTF-8.
 * MongoDB 7.0 does not validate UTF-8 and stores such bytes as they are; the engine holds field names
 * and strings as JS strings, so it could only keep a lossy copy (the decoder replaces bad bytes with
 * U+FFFD in names and regexes, and throws for string values), and refuses the command instead.
 */
import { isUtf8 } from 'node:buffer';

/** Fixed value sizes of BSON element types (the others are read from the bytes). */
const FIXED: Record<number, number> = {
  0x01: 8,
  0x06: 0,
  0x07: 12,
  0x08: 1,
  0x09: 8,
  0x0a: 0,
  0x10: 4,
  0x11: 8,
  0x12: 8,
  0x13: 16,
  0x7f: 0,
  0xff: 0,
};

/** Bytes before the text of a length-prefixed value: string, JavaScript code, symbol, DBPointer. */
const TEXT_STARTS: Record<number, number> = { 0x02: 4, 0x0d: 4, 0x0e: 4, 0x0c: 4 };
/** Bytes after the length prefix that the length does not count: binary's subtype, DBPointer's ObjectId. */
const LENGTH_EXTRA: Record<number, number> = { 0x02: 4, 0x0d: 4, 0x0e: 4, 0x05: 5, 0x0c: 16, 0x0f: 0 };

/** What a scan found: nesting past the limit, or text that is not UTF-8 (at that byte of the document). */
export type BsonFault = { kind: 'depth' } | { kind: 'utf8'; offset: number };

/**
 * Scans a BSON document's bytes (the object itself is level 1) for nesting deeper than `maxDepth` and
 * for field names, strings, code, symbols and regexes that are not UTF-8; nesting wins when both occur.
 * Reads the bytes without recursion, so it is safe on hostile input; malformed bytes end the scan with
 * what it found so far (the decoder reports them).
 */
export function scanBson(bytes: Uint8Array, maxDepth: number): BsonFault | undefined {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let utf8: BsonFault | undefined;
  const text = (start: number, end: number): void => {
    if (!utf8 && !isUtf8(buf.subarray(start, end))) utf8 = { kind: 'utf8', offset: start };
  };
  const ends: number[] = [buf.length - 1];
  let p = 4;
  while (ends.length > 0 && p < buf.length) {
    const type = buf[p]!;
    if (p === ends[ends.length - 1]) {
      ends.pop();
      p += 1;
      continue;
    }
    const nameEnd = buf.indexOf(0, p + 1);
    if (nameEnd < 0) return utf8;
    text(p + 1, nameEnd);
    p = nameEnd + 1;
    if (p + 4 > buf.length) return utf8;
    if (type === 0x03 || type === 0x04) {
      const size = buf.readInt32LE(p);
      if (size < 5) return utf8;
      if (ends.length + 1 > maxDepth) return { kind: 'depth' };
      ends.push(p + size - 1);
      p += 4;
    } else if (FIXED[type] !== undefined) p += FIXED[type];
    else if (type === 0x0b) {
      const patternEnd = buf.indexOf(0, p);
      const optionsEnd = patternEnd < 0 ? -1 : buf.indexOf(0, patternEnd + 1);
      if (optionsEnd < 0) return utf8;
      text(p, optionsEnd);
      p = optionsEnd + 1;
    } else {
      const length = buf.readInt32LE(p);
      const extra = LENGTH_EXTRA[type];
      if (extra === undefined || length < 0) return utf8;
      const start = TEXT_STARTS[type];
      // The length counts the text's terminating NUL.
      if (start !== undefined && length > 0 && p + start + length <= buf.length)
        text(p + start, p + start + length - 1);
      p += extra + length;
    }
  }
  return utf8;
}
