/**
 * A scan of an incoming BSON document's bytes before it is decoded, for what the server refuses in a
 * document it can otherwise read: nesting deeper than MongoDB parses, and text that is not UTF-8.
 * MongoDB 7.0 does not validate UTF-8 and stores such bytes as they are; the engine holds field names
 * and strings as JS strings, so it could only keep a lossy copy (the decoder replaces bad bytes with
 * U+FFFD in names and regexes, and throws for string values), and refuses the command instead.
 */
import { isUtf8 } from 'node:buffer';

/** Fixed value sizes of BSON element types (the others are read from the bytes). */
export const FIXED: Record<number, number> = {
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
export const LENGTH_EXTRA: Record<number, number> = { 0x02: 4, 0x0d: 4, 0x0e: 4, 0x05: 5, 0x0c: 16 };
/** Code with scope: a total length, the code (a string), then the scope, a document. */
const CODE_W_SCOPE = 0x0f;

/**
 * What a scan found: nesting past the limit, text that is not UTF-8 (at that byte of the document), or
 * a regex option the decoder cannot hold (`bson`'s BSONRegExp takes only `i m s x l u`).
 */
export type BsonFault =
  { kind: 'depth' } | { kind: 'utf8'; offset: number } | { kind: 'regexOption'; option: string };

/** The regex options `bson` decodes (BSONRegExp refuses any other). */
const REGEX_OPTIONS = new Set('imsxlu');

/** True when `buf[start, end)` is not UTF-8; ASCII (nearly every name) is told by a loop, without a view for isUtf8. */
function notUtf8(buf: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (buf[i]! >= 0x80) return !isUtf8(buf.subarray(start, end));
  return false;
}

/**
 * Scans a BSON document's bytes (the object itself is level 1; a code-with-scope's scope is a level
 * too) for nesting deeper than `maxDepth`, for regex options the decoder refuses, and for field names
 * and regexes that are not UTF-8, and, with `strings`, string values, code and symbols too; nesting
 * wins over the others, which are reported in the order they occur. Without `strings` the scan costs little more than the depth walk:
 * the decoder itself throws for a string value that is not UTF-8 (but not for names and regexes, which
 * it decodes lossily), so only a document it refuses needs the full scan, to tell why. Reads the bytes
 * without recursion, so it is safe on hostile input; malformed bytes end the scan with what it found so
 * far (the decoder reports them).
 */
export function scanBson(bytes: Uint8Array, maxDepth: number, strings = true): BsonFault | undefined {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let fault: BsonFault | undefined;
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
    if (nameEnd < 0) return fault;
    if (fault === undefined && notUtf8(buf, p + 1, nameEnd)) fault = { kind: 'utf8', offset: p + 1 };
    p = nameEnd + 1;
    if (p + 4 > buf.length) return fault;
    if (type === 0x03 || type === 0x04) {
      const size = buf.readInt32LE(p);
      if (size < 5) return fault;
      if (ends.length + 1 > maxDepth) return { kind: 'depth' };
      ends.push(p + size - 1);
      p += 4;
    } else if (type === CODE_W_SCOPE) {
      // The scope is scanned as a nested document: its names and strings are text like any other.
      const codeLength = p + 8 <= buf.length ? buf.readInt32LE(p + 4) : -1;
      const scope = p + 8 + codeLength;
      if (codeLength < 1 || scope + 4 > buf.length) return fault;
      if (strings && fault === undefined && notUtf8(buf, p + 8, scope - 1))
        fault = { kind: 'utf8', offset: p + 8 };
      const size = buf.readInt32LE(scope);
      if (size < 5) return fault;
      if (ends.length + 1 > maxDepth) return { kind: 'depth' };
      ends.push(scope + size - 1);
      p = scope + 4;
    } else if (FIXED[type] !== undefined) p += FIXED[type];
    else if (type === 0x0b) {
      const patternEnd = buf.indexOf(0, p);
      const optionsEnd = patternEnd < 0 ? -1 : buf.indexOf(0, patternEnd + 1);
      if (optionsEnd < 0) return fault;
      if (fault === undefined && notUtf8(buf, p, optionsEnd)) fault = { kind: 'utf8', offset: p };
      if (fault === undefined) {
        const options = buf.toString('utf8', patternEnd + 1, optionsEnd);
        const option = [...options].find((c) => !REGEX_OPTIONS.has(c));
        if (option !== undefined) fault = { kind: 'regexOption', option };
      }
      p = optionsEnd + 1;
    } else {
      const length = buf.readInt32LE(p);
      const extra = LENGTH_EXTRA[type];
      if (extra === undefined || length < 0) return fault;
      const start = strings ? TEXT_STARTS[type] : undefined;
      // The length counts the text's terminating NUL.
      const textEnd = p + (start ?? 0) + length - 1;
      if (start !== undefined && length > 0 && textEnd < buf.length && fault === undefined)
        if (notUtf8(buf, p + start, textEnd)) fault = { kind: 'utf8', offset: p + start };
      p += extra + length;
    }
  }
  return fault;
}
