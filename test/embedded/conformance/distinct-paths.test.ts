/**
 * Which values `distinct` reads along a dotted path, and in which order it answers them. MongoDB 7.0's
 * distinct command (src/mongo/db/commands/distinct.cpp) calls dotted_path_support's
 * extractAllElementsAlongPath (src/mongo/db/bson/dotted_path_support.cpp) on each document and keeps
 * the values in a BSONElementSet, so it answers one of each, in BSON order. That walk looks the rest of
 * the path up whole first; it expands an array at the end of the path (an array nested in it whole, an
 * empty one nothing); an array before the end is entered by position when the next part is all digits,
 * else through its elements that are documents or arrays, and a nested array has no non-numeric field.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers } from '../helpers.js';

type Row = { _id: number; [field: string]: unknown };

describe.each(drivers)('distinct along dotted paths ($name)', (driver) => {
  const t = connect(driver, 'distinct_paths');

  /** The distinct values of `key` over a fresh collection holding `docs`. */
  async function distinctOver(docs: Row[], key: string): Promise<unknown[]> {
    const coll = t.db.collection<Row>('paths');
    await coll.deleteMany({});
    await coll.insertMany(docs);
    return coll.distinct(key);
  }

  it('expands an array at the end of the path one level, and an array of documents along it', async () => {
    // [1, 2] is an element of a, kept whole; an empty array gives nothing, null is a value.
    expect(
      await distinctOver(
        [
          { _id: 1, a: [[1, 2], 3] },
          { _id: 2, a: [] },
          { _id: 3, a: null },
        ],
        'a',
      ),
    ).toEqual([null, 3, [1, 2]]);
    expect(
      await distinctOver(
        [
          { _id: 1, a: [{ b: 1 }, { c: 2 }, { b: [3, [4]] }] },
          { _id: 2, a: { b: 5 } },
        ],
        'a.b',
      ),
    ).toEqual([1, 3, 5, [4]]);
  });

  it('does not look for a named field inside an array nested in an array', async () => {
    expect(
      await distinctOver(
        [
          { _id: 1, a: [1, { b: 2 }, [{ b: 3 }]] },
          { _id: 2, a: [[{ b: 4 }]] },
        ],
        'a.b',
      ),
    ).toEqual([2]);
  });

  it('reads a numeric part after an array as a position only', async () => {
    const docs: Row[] = [
      { _id: 1, a: [[1, 2], 3] },
      { _id: 2, a: [{ b: 4 }, { b: 5 }] },
      // No element 1: the documents' own field "1" is not read.
      { _id: 3, a: [{ 1: 'field' }] },
      // A document's field "0" is read as any field.
      { _id: 4, a: { 0: 'zero' } },
    ];
    // The element at position 0 of _id 1 is an array at the end of the path: expanded. Documents
    // compare by their first elements, a number before a string.
    expect(await distinctOver(docs, 'a.0')).toEqual([1, 2, 'zero', { b: 4 }, { 1: 'field' }]);
    expect(await distinctOver(docs, 'a.1')).toEqual([3, { b: 5 }]);
    expect(await distinctOver(docs, 'a.0.b')).toEqual([4]);
    // Position 0 of a nested array, then its documents' field.
    expect(await distinctOver([{ _id: 1, a: [[{ b: 6 }, { b: 7 }]] }], 'a.0.b')).toEqual([6, 7]);
  });

  it('reads a field whose name holds the dots of the path', async () => {
    expect(
      await distinctOver(
        [
          { _id: 1, 'a.b': 1 },
          { _id: 2, a: { b: 2 } },
        ],
        'a.b',
      ),
    ).toEqual([1, 2]);
  });

  it('answers one of each value in BSON order, numbers of any type equal', async () => {
    expect(
      await distinctOver(
        [
          { _id: 1, v: 'b' },
          { _id: 2, v: true },
          { _id: 3, v: { k: 1 } },
          { _id: 4, v: 2 },
          { _id: 5, v: 'a' },
          { _id: 6, v: 1.5 },
          { _id: 7, v: null },
          { _id: 8, v: 2.0 },
        ],
        'v',
      ),
    ).toEqual([null, 1.5, 2, 'a', 'b', { k: 1 }, true]);
  });
});
