/**
 * Sort patterns that name one path twice, found in a command's bytes: the decoder keeps one value per
 * field name (the last), so `{ a: 1, a: -1 }` (which a driver with ordered documents can send) would
 * sort by `a` descending, where MongoDB 7.0's SortPattern refuses it with 7472500 "$sort key must not
 * contain duplicate keys (duplicate: 'a')" (src/mongo/db/query/sort_pattern.cpp). Read: a `find`'s and
 * a `findAndModify`'s `sort`, and the `$sort` and `$setWindowFields`' `sortBy` of an `aggregate`'s
 * top-level stages. A key SortPattern would refuse first (a direction that is not 1 or -1, a path that
 * is not a field path) ends the search, so that the engine answers it as MongoDB does; a `$meta` key is
 * no path.
 */
import { Decimal128, Long } from 'bson';
import { FIXED, LENGTH_EXTRA } from './bson-scan.js';
import { checkFieldPath } from './field-path.js';
import { patternDirection } from './sort-pattern.js';

interface Element {
  type: number;
  name: string;
  /** Where the value starts. */
  at: number;
}

/** The size of the value of type `type` at `p` (the bytes were decoded already, so they are well formed). */
function valueSize(buf: Buffer, type: number, p: number): number {
  if (type === 0x03 || type === 0x04 || type === 0x0f) return buf.readInt32LE(p);
  const fixed = FIXED[type];
  if (fixed !== undefined) return fixed;
  if (type === 0x0b) return buf.indexOf(0, buf.indexOf(0, p) + 1) + 1 - p;
  return (LENGTH_EXTRA[type] ?? 0) + buf.readInt32LE(p);
}

/** The elements of the document at `start`. */
function* elements(buf: Buffer, start: number): Generator<Element> {
  const end = start + buf.readInt32LE(start) - 1;
  let p = start + 4;
  while (p < end) {
    const type = buf[p]!;
    const nameEnd = buf.indexOf(0, p + 1);
    const name = buf.toString('utf8', p + 1, nameEnd);
    const at = nameEnd + 1;
    yield { type, name, at };
    p = at + valueSize(buf, type, at);
  }
}

/** The document value of the field `name` of the document at `start`, as its offset. */
function documentField(buf: Buffer, start: number, name: string, type = 0x03): number | undefined {
  for (const element of elements(buf, start)) {
    if (element.name === name) return element.type === type ? element.at : undefined;
  }
  return undefined;
}

/** A number element's value as the engine holds it, or undefined for another type. */
function numberAt(buf: Buffer, type: number, at: number): unknown {
  if (type === 0x10) return buf.readInt32LE(at);
  if (type === 0x01) return buf.readDoubleLE(at);
  if (type === 0x12) return Long.fromBigInt(buf.readBigInt64LE(at));
  if (type === 0x13) return new Decimal128(buf.subarray(at, at + 16));
  return undefined;
}

/** The first path the sort pattern at `start` names twice, before any key SortPattern refuses. */
function duplicateIn(buf: Buffer, start: number): string | undefined {
  const seen = new Set<string>();
  for (const { type, name, at } of elements(buf, start)) {
    if (type === 0x03) continue;
    if (patternDirection(numberAt(buf, type, at)) === undefined) return undefined;
    try {
      checkFieldPath(name);
    } catch {
      return undefined;
    }
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return undefined;
}

/** The sort patterns of the command whose body is `bytes` and whose name is `command`. */
function sortPatterns(buf: Buffer, command: string): number[] {
  if (command === 'find' || command === 'findAndModify' || command === 'findandmodify') {
    const sort = documentField(buf, 0, 'sort');
    return sort === undefined ? [] : [sort];
  }
  if (command !== 'aggregate') return [];
  const pipeline = documentField(buf, 0, 'pipeline', 0x04);
  if (pipeline === undefined) return [];
  const found: number[] = [];
  for (const stage of elements(buf, pipeline)) {
    if (stage.type !== 0x03) continue;
    const sort = documentField(buf, stage.at, '$sort');
    if (sort !== undefined) found.push(sort);
    const window = documentField(buf, stage.at, '$setWindowFields');
    const sortBy = window === undefined ? undefined : documentField(buf, window, 'sortBy');
    if (sortBy !== undefined) found.push(sortBy);
  }
  return found;
}

/**
 * The first path a sort pattern of the command `command` (its name) names twice in the command's body
 * `bytes` (see the file comment), or undefined.
 */
export function duplicateSortKey(bytes: Uint8Array, command: string): string | undefined {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const start of sortPatterns(buf, command)) {
    const duplicate = duplicateIn(buf, start);
    if (duplicate !== undefined) return duplicate;
  }
  return undefined;
}
