/**
 * Aggregation memory limits, as MongoDB 7.0 enforces them, with the knobs lowered through `setParameter`
 * so that small collections reach them. The embedded database shares its process with the application:
 * without these limits an unbounded `$push` or `$graphLookup` ended in an out-of-memory crash of both.
 *
 * Sources (mongodb/mongo): src/mongo/db/query/query_knobs.idl (knob names, 100 MiB defaults, validators
 * `gt: 0`); src/mongo/db/commands/parameters.cpp (`setParameter` replies and refusals);
 * src/mongo/db/pipeline/accumulator_push.cpp and accumulator_add_to_set.cpp (146 and their messages);
 * document_source_group.cpp (292 "Exceeded memory limit for $group …"); src/mongo/db/sorter/sorter.cpp
 * (292 "Sort exceeded memory limit of N bytes, but did not opt in to external sorting.");
 * document_source_set_window_fields.cpp (5414201); document_source_graph_lookup.cpp `checkMemoryUsage`
 * (40099, no spilling in 7.0); document_source_facet.cpp `doGetNext` (4031700, no spilling);
 * document_source_lookup.cpp `doGetNext` (4568, checked as each gathered document arrives);
 * document_source_densify.h `setPartitionValue` (6007200, no spilling); src/mongo/util/intrusive_counter.cpp
 * `RCString::create` (16493 for a string of 16 MiB or more); expression.cpp `ExpressionRange`
 * (`internalQueryMaxRangeBytes`, 146).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

const DEFAULT = 100 * 1024 * 1024;
const KNOBS = [
  'internalQueryMaxPushBytes',
  'internalQueryMaxAddToSetBytes',
  'internalQueryMaxRangeBytes',
  'internalDocumentSourceGroupMaxMemoryBytes',
  'internalQueryMaxBlockingSortMemoryUsageBytes',
  'internalDocumentSourceBucketAutoMaxMemoryBytes',
  'internalDocumentSourceSetWindowFieldsMaxMemoryBytes',
  'internalDocumentSourceGraphLookupMaxMemoryBytes',
  'internalQueryFacetBufferSizeBytes',
  'internalQueryFacetMaxOutputDocSizeBytes',
  'internalLookupStageIntermediateDocumentMaxSizeBytes',
  'internalDocumentSourceDensifyMaxMemoryBytes',
];

describe.each(drivers)('aggregation memory limits ($name)', (driver) => {
  const state = connect(driver, 'memlimits');
  const admin = () => state.client.db('admin');
  const setKnobs = (knobs: Record<string, number>) => admin().command({ setParameter: 1, ...knobs });

  afterEach(async () => {
    await setKnobs({
      ...Object.fromEntries(KNOBS.map((name) => [name, DEFAULT])),
      internalQueryMaxAllowedDensifyDocs: 500000,
    });
  });

  /** 40 documents `{ _id: i, g: i % 2, s: <20 characters> }`. */
  async function rows() {
    const coll = state.db.collection<{ _id: number; g: number; s: string; next?: number }>('rows');
    if ((await coll.countDocuments()) === 0) {
      await coll.insertMany(
        Array.from({ length: 40 }, (_, i) => ({
          _id: i,
          g: i % 2,
          s: `value-${String(i).padStart(14, '0')}`,
          next: i + 1,
        })),
      );
    }
    return coll;
  }

  describe('setParameter and getParameter', () => {
    it('sets a knob, answering the value it had, and getParameter reports it', async () => {
      const reply = await setKnobs({ internalQueryMaxPushBytes: 1000 });
      expect(reply['was']).toBe(DEFAULT);
      const got = await admin().command({ getParameter: 1, internalQueryMaxPushBytes: 1 });
      expect(got['internalQueryMaxPushBytes']).toBe(1000);
    });

    it('refuses what mongod refuses, changing nothing', async () => {
      const zero = await failure(() =>
        setKnobs({ internalQueryMaxAddToSetBytes: 10, internalQueryMaxPushBytes: 0 }),
      );
      expect(zero['code']).toBe(2);
      const got = await admin().command({ getParameter: 1, internalQueryMaxAddToSetBytes: 1 });
      expect(got['internalQueryMaxAddToSetBytes']).toBe(DEFAULT);
      expect((await failure(() => setKnobs({ noSuchKnob: 1 })))['code']).toBe(72);
      expect((await failure(() => admin().command({ setParameter: 1 })))['code']).toBe(72);
      const elsewhere = await failure(() =>
        state.db.command({ setParameter: 1, internalQueryMaxPushBytes: 1000 }),
      );
      expect(elsewhere['code']).toBe(13);
    });
  });

  describe('$push and $addToSet (146, whatever allowDiskUse says)', () => {
    it('refuses a $group $push past internalQueryMaxPushBytes and keeps smaller ones', async () => {
      const coll = await rows();
      await setKnobs({ internalQueryMaxPushBytes: 500 });
      const error = await failure(() =>
        coll.aggregate([{ $group: { _id: null, all: { $push: '$s' } } }], { allowDiskUse: true }).toArray(),
      );
      expect(error['code']).toBe(146);
      expect(error['message']).toBe(
        '$push used too much memory and cannot spill to disk. Memory limit: 500 bytes',
      );
      // Ten 20-character strings are about 360 bytes.
      const [small] = await coll
        .aggregate([{ $match: { _id: { $lt: 10 } } }, { $group: { _id: null, all: { $push: '$s' } } }])
        .toArray();
      expect(small?.['all']).toHaveLength(10);
    });

    it('counts only the values $addToSet keeps', async () => {
      const coll = await rows();
      await setKnobs({ internalQueryMaxAddToSetBytes: 500 });
      const [same] = await coll.aggregate([{ $group: { _id: null, g: { $addToSet: '$g' } } }]).toArray();
      expect(same?.['g']).toHaveLength(2);
      const error = await failure(() =>
        coll.aggregate([{ $group: { _id: null, all: { $addToSet: '$s' } } }]).toArray(),
      );
      expect(error['code']).toBe(146);
      expect(error['message']).toMatch(
        /^\$addToSet used too much memory and cannot spill to disk\. Used: \d+ bytes\. Memory limit: 500 bytes$/,
      );
    });

    it('applies in $bucket, $bucketAuto and $setWindowFields', async () => {
      const coll = await rows();
      await setKnobs({ internalQueryMaxPushBytes: 500 });
      const pipelines = [
        [{ $bucket: { groupBy: '$_id', boundaries: [0, 100], output: { all: { $push: '$s' } } } }],
        [{ $bucketAuto: { groupBy: '$_id', buckets: 1, output: { all: { $push: '$s' } } } }],
        [{ $setWindowFields: { sortBy: { _id: 1 }, output: { all: { $push: '$s' } } } }],
      ];
      for (const pipeline of pipelines) {
        expect((await failure(() => coll.aggregate(pipeline).toArray()))['code']).toBe(146);
      }
    });

    it('does not count the partitions $setWindowFields gathers against $push', async () => {
      const coll = await rows();
      await setKnobs({ internalQueryMaxPushBytes: 100 });
      const out = await coll
        .aggregate([{ $setWindowFields: { partitionBy: '$g', output: { n: { $sum: 1 } } } }])
        .toArray();
      expect(out.map((d) => d['n'])).toEqual(Array(40).fill(20));
    });
  });

  describe('blocking stages with allowDiskUse: false (292, 5414201)', () => {
    it('refuses a $group past internalDocumentSourceGroupMaxMemoryBytes, and spills (here: works) with disk use', async () => {
      const coll = await rows();
      await setKnobs({ internalDocumentSourceGroupMaxMemoryBytes: 500 });
      const pipeline = [{ $group: { _id: '$_id', s: { $first: '$s' } } }];
      const error = await failure(() => coll.aggregate(pipeline, { allowDiskUse: false }).toArray());
      expect(error['code']).toBe(292);
      expect(error['codeName']).toBe('QueryExceededMemoryLimitNoDiskUseAllowed');
      expect(error['message']).toBe(
        "Exceeded memory limit for $group, but didn't allow external sort. Pass allowDiskUse:true to opt in.",
      );
      expect(await coll.aggregate(pipeline).toArray()).toHaveLength(40);
    });

    it('refuses a $sort past internalQueryMaxBlockingSortMemoryUsageBytes, unless a $limit keeps it small', async () => {
      const coll = await rows();
      await setKnobs({ internalQueryMaxBlockingSortMemoryUsageBytes: 500 });
      const error = await failure(() =>
        coll.aggregate([{ $sort: { s: -1 } }], { allowDiskUse: false }).toArray(),
      );
      expect(error['code']).toBe(292);
      expect(error['message']).toBe(
        'Sort exceeded memory limit of 500 bytes, but did not opt in to external sorting.',
      );
      const top = await coll
        .aggregate([{ $sort: { s: -1 } }, { $limit: 2 }], { allowDiskUse: false })
        .toArray();
      expect(top.map((d) => d['_id'])).toEqual([39, 38]);
      expect(await coll.aggregate([{ $sort: { s: -1 } }]).toArray()).toHaveLength(40);
    });

    it("refuses a find's in-memory sort the same way", async () => {
      const coll = await rows();
      await setKnobs({ internalQueryMaxBlockingSortMemoryUsageBytes: 500 });
      const error = await failure(() => coll.find({}, { sort: { s: -1 }, allowDiskUse: false }).toArray());
      expect(error['code']).toBe(292);
      expect(error['message']).toBe(
        'Executor error during find command :: caused by :: Sort exceeded memory limit of 500 bytes, but did not opt in to external sorting.',
      );
      const top = await coll.find({}, { sort: { s: -1 }, limit: 2, allowDiskUse: false }).toArray();
      expect(top.map((d) => d['_id'])).toEqual([39, 38]);
      expect(await coll.find({}, { sort: { s: -1 } }).toArray()).toHaveLength(40);
    });

    it('refuses $bucketAuto past internalDocumentSourceBucketAutoMaxMemoryBytes', async () => {
      const coll = await rows();
      await setKnobs({ internalDocumentSourceBucketAutoMaxMemoryBytes: 500 });
      const pipeline = [{ $bucketAuto: { groupBy: '$_id', buckets: 2 } }];
      const error = await failure(() => coll.aggregate(pipeline, { allowDiskUse: false }).toArray());
      expect(error['code']).toBe(292);
      expect(error['message']).toBe(
        'Sort exceeded memory limit of 500 bytes, but did not opt in to external sorting.',
      );
      expect(await coll.aggregate(pipeline).toArray()).toHaveLength(2);
    });

    it('counts the sorts $densify and $setWindowFields run as $sort stages against the sort knob', async () => {
      const coll = await rows();
      await setKnobs({ internalQueryMaxBlockingSortMemoryUsageBytes: 500 });
      // document_source_set_window_fields.cpp `create` puts a $sort on partitionBy and sortBy before the
      // stage; document_source_densify.cpp sorts on partitionByFields and field the same way.
      const sorting = [
        [{ $setWindowFields: { sortBy: { s: 1 }, output: { n: { $sum: 1 } } } }],
        [{ $setWindowFields: { partitionBy: '$g', output: { n: { $sum: 1 } } } }],
        [{ $densify: { field: '_id', range: { step: 1, bounds: 'full' } } }],
      ];
      for (const pipeline of sorting) {
        const error = await failure(() => coll.aggregate(pipeline, { allowDiskUse: false }).toArray());
        expect(error['code']).toBe(292);
        expect(error['message']).toBe(
          'Sort exceeded memory limit of 500 bytes, but did not opt in to external sorting.',
        );
        expect(await coll.aggregate(pipeline).toArray()).toHaveLength(40);
      }
      // A constant partitionBy without sortBy is one partition, with no sort.
      const unsorted = [{ $setWindowFields: { partitionBy: 'all', output: { n: { $sum: 1 } } } }];
      expect(await coll.aggregate(unsorted, { allowDiskUse: false }).toArray()).toHaveLength(40);
    });

    it('refuses a $setWindowFields partition past internalDocumentSourceSetWindowFieldsMaxMemoryBytes', async () => {
      const coll = await rows();
      await setKnobs({ internalDocumentSourceSetWindowFieldsMaxMemoryBytes: 500 });
      const pipeline = [{ $setWindowFields: { partitionBy: '$g', output: { n: { $sum: 1 } } } }];
      const error = await failure(() => coll.aggregate(pipeline, { allowDiskUse: false }).toArray());
      expect(error['code']).toBe(5414201);
      expect(error['message']).toMatch(
        /^Exceeded memory limit in DocumentSourceSetWindowFields, used \d+ bytes but max allowed is 500$/,
      );
      expect(await coll.aggregate(pipeline).toArray()).toHaveLength(40);
    });
  });

  describe('$setWindowFields functions (5414201, whatever allowDiskUse says)', () => {
    // document_source_set_window_fields.cpp doGetNext (7.0): after each function's value the tracker
    // holds the partition's cached documents plus every function's state; with allowDiskUse the
    // documents are spilled, the functions' state is not, and past the limit the stage fails 5414201.
    it('refuses a function whose state passes internalDocumentSourceSetWindowFieldsMaxMemoryBytes', async () => {
      const coll = await rows();
      await setKnobs({ internalDocumentSourceSetWindowFieldsMaxMemoryBytes: 500 });
      const outputs = [
        { $topN: { n: 1000, sortBy: { _id: 1 }, output: '$s' } },
        { $bottomN: { n: 1000, sortBy: { _id: 1 }, output: '$s' } },
        { $firstN: { n: 1000, input: '$s' } },
        { $lastN: { n: 1000, input: '$s' } },
        { $maxN: { n: 1000, input: '$s' } },
        { $minN: { n: 1000, input: '$s' }, window: { documents: [-30, 0] } },
      ];
      for (const output of outputs) {
        const pipeline = [{ $setWindowFields: { sortBy: { _id: 1 }, output: { all: output } } }];
        const error = await failure(() => coll.aggregate(pipeline, { allowDiskUse: true }).toArray());
        expect(error['code']).toBe(5414201);
        expect(error['message']).toMatch(
          /^Exceeded memory limit in DocumentSourceSetWindowFields, used \d+ bytes but max allowed is 500$/,
        );
      }
    });

    it('counts each output once per document, and a moving window only for what it holds', async () => {
      const coll = await rows();
      await setKnobs({ internalDocumentSourceSetWindowFieldsMaxMemoryBytes: 500 });
      const last3 = { $lastN: { n: 1000, input: '$s' }, window: { documents: [-2, 0] } };
      const moving = [{ $setWindowFields: { sortBy: { _id: 1 }, output: { a: last3, n: { $sum: 1 } } } }];
      const out = await coll.aggregate(moving).toArray();
      expect(out[39]?.['a']).toHaveLength(3);
      // One output of three 20-character strings holds about 110 bytes, five of them about 550.
      const five = Object.fromEntries(['a', 'b', 'c', 'd', 'e'].map((f) => [f, last3]));
      const error = await failure(() =>
        coll.aggregate([{ $setWindowFields: { sortBy: { _id: 1 }, output: five } }]).toArray(),
      );
      expect(error['code']).toBe(5414201);
    });
  });

  it('refuses a $graphLookup past internalDocumentSourceGraphLookupMaxMemoryBytes even with disk use (40099)', async () => {
    const coll = await rows();
    await setKnobs({ internalDocumentSourceGraphLookupMaxMemoryBytes: 1000 });
    const lookup = (maxDepth: number) => [
      { $match: { _id: 0 } },
      {
        $graphLookup: {
          from: 'rows',
          startWith: '$next',
          connectFromField: 'next',
          connectToField: '_id',
          as: 'chain',
          maxDepth,
        },
      },
    ];
    const error = await failure(() => coll.aggregate(lookup(100), { allowDiskUse: true }).toArray());
    expect(error['code']).toBe(40099);
    expect(error['message']).toBe('$graphLookup reached maximum memory consumption');
    const [short] = await coll.aggregate(lookup(2)).toArray();
    expect(short?.['chain']).toHaveLength(3);
  });

  it('refuses a $facet whose output passes internalQueryFacetMaxOutputDocSizeBytes (4031700)', async () => {
    const coll = await rows();
    await setKnobs({ internalQueryFacetMaxOutputDocSizeBytes: 500 });
    // All facets count together: three 50-byte documents each stay under 500 bytes, forty do not.
    const error = await failure(() =>
      coll
        .aggregate([{ $facet: { few: [{ $limit: 3 }], all: [{ $project: { s: 1 } }] } }], {
          allowDiskUse: true,
        })
        .toArray(),
    );
    expect(error['code']).toBe(4031700);
    expect(error['message']).toMatch(
      /^document constructed by \$facet is \d+ bytes, which exceeds the limit of 500 bytes$/,
    );
    const [small] = await coll
      .aggregate([{ $facet: { few: [{ $limit: 3 }], count: [{ $count: 'n' }] } }])
      .toArray();
    expect(small?.['few']).toHaveLength(3);
    expect(small?.['count']).toEqual([{ n: 40 }]);
  });

  it('refuses a $lookup gathering more than internalLookupStageIntermediateDocumentMaxSizeBytes (4568)', async () => {
    // The knob cannot go below 16793600 bytes (BSONObjMaxInternalSize): five 4 MB documents pass it.
    const big = state.db.collection<{ _id: number; k: number; text: string }>('big');
    await big.deleteMany({});
    const text = 'x'.repeat(4 * 1024 * 1024);
    for (let i = 0; i < 6; i++) await big.insertOne({ _id: i, k: 1, text: i < 5 ? text : 'last' });
    const low = await failure(() =>
      setKnobs({ internalLookupStageIntermediateDocumentMaxSizeBytes: 16793599 }),
    );
    expect(low['code']).toBe(2);
    await setKnobs({ internalLookupStageIntermediateDocumentMaxSizeBytes: 16793600 });
    const join = { from: 'big', localField: 'k', foreignField: 'k', as: 'all' };
    for (const stage of [join, { from: 'big', pipeline: [], as: 'all' }]) {
      const error = await failure(() =>
        state.db.aggregate([{ $documents: [{ k: 1 }] }, { $lookup: stage }]).toArray(),
      );
      expect(error['code']).toBe(4568);
      expect(error['message']).toBe(
        "Total size of documents in big matching pipeline's $lookup stage exceeds 16793600 bytes",
      );
    }
    // Under the knob, a result document over 16 MiB + 16 KiB still cannot become BSON (BSONObj::init in
    // bsonobj.cpp: BSONObjectTooLarge, 10334).
    await setKnobs({ internalLookupStageIntermediateDocumentMaxSizeBytes: DEFAULT });
    const tooLarge = await failure(() =>
      state.db.aggregate([{ $documents: [{ _id: 7, k: 1 }] }, { $lookup: join }]).toArray(),
    );
    expect(tooLarge['code']).toBe(10334);
    expect(tooLarge['message']).toMatch(
      /^BSONObj size: \d+ \(0x[0-9A-F]+\) is invalid\. Size must be between 0 and 16793600\(16MB\) First element: _id: 7$/,
    );
    // A pipeline that keeps less passes.
    const [kept] = await state.db
      .aggregate([
        { $documents: [{ k: 1 }] },
        { $lookup: { ...join, pipeline: [{ $project: { text: 0 } }] } },
      ])
      .toArray();
    expect(kept?.['all']).toHaveLength(6);
  });

  it('refuses $densify partitions past internalDocumentSourceDensifyMaxMemoryBytes even with disk use (6007200)', async () => {
    const coll = await rows();
    await setKnobs({ internalDocumentSourceDensifyMaxMemoryBytes: 500 });
    // Forty partitions of a 20-character key pass 500 bytes; two partitions of a number do not.
    const densify = (by: string) => [
      { $densify: { field: '_id', partitionByFields: [by], range: { step: 1, bounds: 'partition' } } },
    ];
    const error = await failure(() => coll.aggregate(densify('s'), { allowDiskUse: true }).toArray());
    expect(error['code']).toBe(6007200);
    expect(error['message']).toBe('$densify exceeded memory limit of 500');
    expect(await coll.aggregate(densify('g')).toArray()).toHaveLength(78);
  });

  it('stops $densify past internalQueryMaxAllowedDensifyDocs added documents (5897900)', async () => {
    const coll = await rows();
    const got = await admin().command({ getParameter: 1, internalQueryMaxAllowedDensifyDocs: 1 });
    expect(got['internalQueryMaxAllowedDensifyDocs']).toBe(500000);
    await setKnobs({ internalQueryMaxAllowedDensifyDocs: 10 });
    const densify = (upper: number) => [
      { $densify: { field: '_id', range: { step: 1, bounds: [0, upper] } } },
    ];
    const error = await failure(() => coll.aggregate(densify(100)).toArray());
    expect(error['code']).toBe(5897900);
    expect(error['message']).toBe(
      "Generated 11 documents in $densify, which is over the limit of 10. Increase the 'internalQueryMaxAllowedDensifyDocs' parameter to allow more generated documents",
    );
    expect(await coll.aggregate(densify(50)).toArray()).toHaveLength(50);
  });

  describe('runaway expressions', () => {
    const compute = (expr: unknown, maxTimeMS?: number) =>
      state.db
        .aggregate([{ $documents: [{ _id: 1 }] }, { $set: { out: expr } }], {
          ...(maxTimeMS ? { maxTimeMS } : {}),
        })
        .toArray();
    const doubling = (steps: number, initialValue: unknown, step: unknown) => ({
      $reduce: { input: { $range: [0, steps] }, initialValue, in: step },
    });

    it('refuses a string of 16 MiB or more (16493) built by $concat or $replaceOne', async () => {
      for (const step of [
        { $concat: ['$$value', '$$value'] },
        { $replaceOne: { input: '$$value', find: 'x', replacement: '$$value' } },
      ]) {
        const error = await failure(() => compute(doubling(40, 'xy', step)));
        expect(error['code']).toBe(16493);
        expect(error['message']).toBe('Tried to create string longer than 16MB');
      }
      const [small] = await compute(doubling(10, 'xy', { $concat: ['$$value', '$$value'] }));
      expect(small?.['out']).toHaveLength(2048);
    });

    it('refuses a result document that cannot become BSON, however much its parts share (10334, 13548)', async () => {
      // Each step nests the value twice: 16 * 2^n - 11 bytes of BSON after n steps, in memory that grows
      // by one object a step. MongoDB fails to serialize it: BSONObj::init (10334) past 16 MiB + 16 KiB,
      // BufBuilder::grow (13548, util/buf_builder) past 64 MiB, instead of walking 2^40 fields.
      const twice = { a: '$$value', b: '$$value' };
      const tooLarge = await failure(() => compute(doubling(21, {}, twice)));
      expect(tooLarge['code']).toBe(10334);
      expect(tooLarge['message']).toBe(
        'BSONObj size: 33554440 (0x2000008) is invalid. Size must be between 0 and 16793600(16MB) First element: _id: 1',
      );
      const huge = await failure(() => compute(doubling(40, {}, twice)));
      expect(huge['code']).toBe(13548);
      expect(huge['message']).toMatch(
        /^BufBuilder attempted to grow\(\) to \d+ bytes, past the 64MB limit\.$/,
      );
      const [small] = await compute(doubling(2, {}, twice));
      expect(small?.['out']).toEqual({ a: { a: {}, b: {} }, b: { a: {}, b: {} } });
    });

    it('checks a result document as the last stage left it, also when a stage changed it in place', async () => {
      const twice = { a: '$$value', b: '$$value' };
      const pipeline = (after: Record<string, unknown>[]) =>
        state.db
          .aggregate([{ $documents: [{ _id: 1 }] }, { $set: { out: doubling(21, {}, twice) } }, ...after])
          .toArray();
      // Stages that pass the document on as it is leave it too large.
      const tooLarge = await failure(() => pipeline([{ $sort: { _id: 1 } }, { $limit: 1 }]));
      expect(tooLarge['code']).toBe(10334);
      expect(tooLarge['message']).toMatch(/^BSONObj size: 33554440 \(0x2000008\) is invalid\./);
      // "If preserveNullAndEmptyArrays is true and the path is null, missing, or an empty array, the
      // includeArrayIndex field is null" ($unwind manual): here it replaces the 32 MiB `out`.
      const unwind = { path: '$none', preserveNullAndEmptyArrays: true, includeArrayIndex: 'out' };
      expect(await pipeline([{ $unwind: unwind }, { $match: {} }])).toEqual([{ _id: 1, out: null }]);
    });

    it('bounds $range by internalQueryMaxRangeBytes (146)', async () => {
      await setKnobs({ internalQueryMaxRangeBytes: 1000 });
      const error = await failure(() => compute({ $range: [0, 100] }));
      expect(error['code']).toBe(146);
      // 24 bytes for the array and 16 for each of 1 + (end - start) / step = 101 values, as MongoDB counts.
      expect(error['message']).toBe(
        '$range would use too much memory (1640 bytes) and cannot spill to disk. Memory limit: 1000 bytes',
      );
      expect((await compute({ $range: [0, 50] }))[0]?.['out']).toHaveLength(50);
    });

    it('stops an array doubled by $concatArrays in a $reduce once maxTimeMS has passed (50)', async () => {
      // MongoDB 7.0 has no size limit on such an array; maxTimeMS is what bounds it. 2^23 values take
      // far longer to build than 1 ms.
      const step = { $concatArrays: ['$$value', '$$value'] };
      const error = await failure(() => compute(doubling(23, [1], step), 1));
      expect(error['code']).toBe(50);
      expect(error['codeName']).toBe('MaxTimeMSExpired');
      const coll = await rows();
      const fromFind = await failure(() =>
        coll.find({ _id: 0 }, { projection: { out: doubling(23, [1], step) }, maxTimeMS: 1 }).toArray(),
      );
      expect(fromFind['code']).toBe(50);
      expect((await compute(doubling(4, [1], step)))[0]?.['out']).toHaveLength(16);
    });
  });
});
