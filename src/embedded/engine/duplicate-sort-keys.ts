/**
 * Sort patterns that name one path twice, found in a command's bytes: the decoder keeps one value per
 * field name (the last), so `{ a: 1, a: -1 }` (which a driver with ordered documents can send) would
 * sort by `a` descending, where MongoDB 7.0's SortPattern refuses it with 7472500 "$sort key must not
 * contain duplicate keys (duplicate: 'a')" (src/mongo/db/query/sort_pattern.cpp). Read: a `find`'s and
 * a `findAndModify`'s `sort`, and in an `aggregate`'s pipeline every pattern MongoDB builds a SortPattern
 * from: `$sort`, `$setWindowFields`' `sortBy`, and the `sortBy` of `$top`/`$bottom`/`$topN`/`$bottomN`
 * in `$group`, `$bucket`/`$bucketAuto` `output` and `$setWindowFields` `output`
 * (parseAccumulatorTopBottomNSortBy, accumulator_multi.cpp), at any depth of `$lookup`, `$unionWith`
 * and `$facet` sub-pipelines, which MongoDB parses with the same parsers. A key SortPattern would refuse
 * first (a direction that is not 1 or -1, a path that is not a field path) ends the search, so that the
 * engine answers it as MongoDB does; a `$meta` key is no path. A pipeline whose bytes hold no `sort`
 * is not walked.
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

/** The accumulators whose `sortBy` is a SortPattern. */
const TOP_BOTTOM = new Set(['$top', '$bottom', '$topN', '$bottomN']);

/** The `sortBy` of each top/bottom accumulator among the fields of the document at `start`. */
function accumulatorSorts(buf: Buffer, start: number | undefined, found: number[]): void {
  if (start === undefined) return;
  for (const field of elements(buf, start)) {
    if (field.type !== 0x03) continue;
    for (const operator of elements(buf, field.at)) {
      if (operator.type !== 0x03 || !TOP_BOTTOM.has(operator.name)) continue;
      const sortBy = documentField(buf, operator.at, 'sortBy');
      if (sortBy !== undefined) found.push(sortBy);
    }
  }
}

/** The sort patterns of the pipeline (array) at `start` and of its sub-pipelines, in order. */
function pipelineSorts(buf: Buffer, start: number, found: number[]): void {
  for (const stage of elements(buf, start)) {
    if (stage.type !== 0x03) continue;
    for (const { type, name, at } of elements(buf, stage.at)) {
      if (type !== 0x03) continue;
      if (name === '$sort') found.push(at);
      else if (name === '$setWindowFields') {
        const sortBy = documentField(buf, at, 'sortBy');
        if (sortBy !== undefined) found.push(sortBy);
        accumulatorSorts(buf, documentField(buf, at, 'output'), found);
      } else if (name === '$group') accumulatorSorts(buf, at, found);
      else if (name === '$bucket' || name === '$bucketAuto')
        accumulatorSorts(buf, documentField(buf, at, 'output'), found);
      else if (name === '$lookup' || name === '$unionWith') {
        const pipeline = documentField(buf, at, 'pipeline', 0x04);
        if (pipeline !== undefined) pipelineSorts(buf, pipeline, found);
      } else if (name === '$facet') {
        for (const branch of elements(buf, at))
          if (branch.type === 0x04) pipelineSorts(buf, branch.at, found);
      }
    }
  }
}

/** The sort patterns of the command whose body is `bytes` and whose name is `command`. */
function sortPatterns(buf: Buffer, command: string): number[] {
  if (command === 'find' || command === 'findAndModify' || command === 'findandmodify') {
    const sort = documentField(buf, 0, 'sort');
    return sort === undefined ? [] : [sort];
  }
  // Every name this file reads a pattern under holds "sort" ($sort, sortBy).
  if (command !== 'aggregate' || !buf.includes('sort')) return [];
  const pipeline = documentField(buf, 0, 'pipeline', 0x04);
  if (pipeline === undefined) return [];
  const found: number[] = [];
  pipelineSorts(buf, pipeline, found);
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
