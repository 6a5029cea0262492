/**
 * `$setWindowFields` hands on its output documents one at a time, as MongoDB 7.0's stage does
 * (DocumentSourceInternalSetWindowFields::doGetNext, document_source_set_window_fields.cpp, computes the
 * next document's outputs when the next stage asks for it), and an output over the whole partition is
 * accumulated once and shared (WindowFunctionExecNonRemovable in window_function_exec_non_removable.h
 * accumulates a right-unbounded window on its first call and answers `getValue` for every document).
 * Only the partition and the functions' state count against
 * `internalDocumentSourceSetWindowFieldsMaxMemoryBytes` (5414201). The embedded database used to build
 * every output of a partition first: a whole-partition `$push` over n documents held n arrays of n
 * values, and a partition of some tens of thousands of documents exhausted the heap.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { aggregateOn, connect, drivers, failure } from '../helpers.js';

const KNOB = 'internalDocumentSourceSetWindowFieldsMaxMemoryBytes';
/** Documents in the large partition: n² pushed values (4·10⁸) would take gigabytes. */
const N = 20_000;

describe.each(drivers)('setWindowFields outputs one document at a time ($name)', (driver) => {
  const t = connect(driver, 'window_streaming');
  const setKnob = (bytes: number) => t.client.db('admin').command({ setParameter: 1, [KNOB]: bytes });

  afterEach(async () => {
    await setKnob(100 * 1024 * 1024);
  });

  /** The collection of N documents `{ _id: i, x: i }`, created once. */
  async function large() {
    const coll = t.db.collection<{ _id: number; x: number }>('large');
    if ((await coll.estimatedDocumentCount()) === 0) {
      await coll.insertMany(Array.from({ length: N }, (_, i) => ({ _id: i, x: i })));
    }
    return coll;
  }

  const everything = { $push: '$x', window: { documents: ['unbounded', 'unbounded'] } };

  it('answers a whole-partition $push over a large partition followed by $limit or $count', async () => {
    const coll = await large();
    // The partition's state is one array of N numbers (about 200 kB); N of them would be gigabytes.
    await setKnob(2 * 1024 * 1024);
    const stage = { $setWindowFields: { sortBy: { _id: 1 }, output: { all: everything } } };
    const limited = await coll.aggregate([stage, { $limit: 2 }]).toArray();
    expect(limited.map((doc) => doc['_id'])).toEqual([0, 1]);
    expect(limited[1]?.['all']).toHaveLength(N);
    expect(limited[1]?.['all'][N - 1]).toBe(N - 1);
    expect(await coll.aggregate([stage, { $count: 'n' }]).toArray()).toEqual([{ n: N }]);
    const [last] = await coll
      .aggregate([stage, { $skip: N - 1 }, { $project: { size: { $size: '$all' } } }])
      .toArray();
    expect(last).toEqual({ _id: N - 1, size: N });
  });

  it('still fails 5414201 when the state of one window passes the limit', async () => {
    const coll = await large();
    await setKnob(100 * 1024);
    const stage = { $setWindowFields: { sortBy: { _id: 1 }, output: { all: everything } } };
    // With allowDiskUse MongoDB spills the partition, not the functions' state.
    const error = await failure(() =>
      coll.aggregate([stage, { $limit: 1 }], { allowDiskUse: true }).toArray(),
    );
    expect(error['code']).toBe(5414201);
    expect(error['message']).toMatch(
      /^Exceeded memory limit in DocumentSourceSetWindowFields, used \d+ bytes but max allowed is 102400$/,
    );
  });

  it('stops computing at a $limit: a later document that would fail is never computed', async () => {
    // The third document's sortBy value is not a number: its range window fails 5429414
    // (PartitionIterator::getEndpointsRangeBased) only when that document is computed.
    const docs = [
      { _id: 1, t: 1 },
      { _id: 2, t: 2 },
      { _id: 3, t: 'three' },
    ];
    const stage = {
      $setWindowFields: { sortBy: { t: 1 }, output: { n: { $sum: 1, window: { range: [-1, 0] } } } },
    };
    expect(await aggregateOn(t.db, docs, [stage, { $limit: 2 }])).toEqual([
      { _id: 1, t: 1, n: 1 },
      { _id: 2, t: 2, n: 2 },
    ]);
    expect((await failure(() => aggregateOn(t.db, docs, [stage])))['code']).toBe(5429414);
  });

  it('sets a dotted output field as MongoDB does, through values that are not documents', async () => {
    // MutableDocument::setNestedField (document.h, MutableValue::getDocPtr): a value along the path that
    // is not a document, an array included, is replaced by one.
    const docs = [{ _id: 1, a: [{ x: 1 }] }, { _id: 2, a: 5 }, { _id: 3, a: { y: 1 } }, { _id: 4 }];
    const result = await aggregateOn(t.db, docs, [
      { $setWindowFields: { sortBy: { _id: 1 }, output: { 'a.b': { $documentNumber: {} } } } },
    ]);
    expect(result).toEqual([
      { _id: 1, a: { b: 1 } },
      { _id: 2, a: { b: 2 } },
      { _id: 3, a: { y: 1, b: 3 } },
      { _id: 4, a: { b: 4 } },
    ]);
  });

  it('reads a bound written as a constant expression', async () => {
    // window_bounds.cpp parseBound: a bound that is not a string is an expression that must optimize to
    // a constant, then is read as a number.
    const docs = [1, 2, 3, 4].map((i) => ({ _id: i }));
    const result = await aggregateOn(t.db, docs, [
      {
        $setWindowFields: {
          sortBy: { _id: 1 },
          output: { n: { $sum: 1, window: { documents: [{ $literal: -1 }, { $add: [0, 0] }] } } },
        },
      },
    ]);
    expect(result.map((doc) => doc['n'])).toEqual([1, 2, 2, 2]);
  });

  it('refuses a bound that reads the document, before reading any', async () => {
    // window_bounds.cpp parseBound: "Window bounds expression must be a constant." (FailedToParse), raised
    // while the pipeline is parsed, so an empty collection fails too.
    for (const docs of [[], [{ _id: 1, x: 1 }]]) {
      const stage = {
        $setWindowFields: {
          sortBy: { _id: 1 },
          output: { n: { $sum: 1, window: { documents: [{ $add: ['$x', -2] }, 0] } } },
        },
      };
      const error = await failure(() => aggregateOn(t.db, docs, [stage]));
      expect(error).toMatchObject({ code: 9, errmsg: 'Window bounds expression must be a constant.' });
    }
  });
});
