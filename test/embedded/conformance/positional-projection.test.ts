/**
 * The positional projection `a.$` in find and findAndModify, as MongoDB 7.0 applies it
 * (src/mongo/db/exec/projection_executor_utils.cpp, applyFindPositionalProjection): the query, parsed
 * again in its own order (projection_parser.cpp, a CopyableMatchExpression that is optimized but not
 * sorted), is run on the document with MatchDetails asking for the elemMatchKey, and the first array
 * on the projected path becomes the one-element array of its element at that position. No position
 * recorded is 51246, a position past the array's end 51247, no array on the path leaves the field as
 * it is.
 *
 * Which position the query records (src/mongo/db/matcher/): each condition on a path records the index
 * of the first element it accepts (expression_leaf.cpp; `$elemMatch` its own match,
 * expression_array.cpp), the conditions of an `$and` run in turn and the last one that records wins,
 * and `$or`/`$nor`/`$not` record nothing (expression_tree.cpp) — except that 7.0's optimizer makes an
 * `$or` of equalities on one path an `$in`, a condition like any other. The manual ("$ (projection)")
 * calls several conditions on the array undefined behaviour; this is what 7.0 answers.
 *
 * The embedded engine picked the first element that all of the query's conditions on the field
 * accepted together, used the whole filter for conditions inside `$or`, and left a nested `a.b.$`
 * unprojected.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

type Doc = Record<string, any>;

const NOT_FOUND = [51246, "positional operator '.$' couldn't find a matching element in the array"];
const MISMATCH = [51247, "positional operator '.$' element mismatch"];

/** [stored (its _id is 1), filter, projection, projected document, or [code, message]] */
const CASES: [Doc, Doc, Doc, Doc | (string | number)[]][] = [
  // $gt records 0 (5), then $lt records 1 (2): the last one wins.
  [{ a: [5, 2] }, { a: { $gt: 1, $lt: 4 } }, { 'a.$': 1 }, { a: [2] }],
  [{ a: [5, 2] }, { a: { $lt: 4, $gt: 1 } }, { 'a.$': 1 }, { a: [5] }],
  [{ a: [5, 2] }, { $or: [{ a: 2 }, { b: 1 }] }, { 'a.$': 1 }, NOT_FOUND],
  [{ a: [5, 2] }, { $nor: [{ a: 9 }] }, { 'a.$': 1 }, NOT_FOUND],
  [{ a: [5, 2] }, { $or: [{ a: 2 }, { a: 3 }] }, { 'a.$': 1 }, { a: [2] }],
  [{ a: [5, 2] }, { $or: [{ a: 2 }] }, { 'a.$': 1 }, { a: [2] }],
  [{ a: [5, 2], c: 1 }, { $and: [{ a: 2 }, { c: 1 }] }, { 'a.$': 1 }, { a: [2] }],
  [{ a: [5, 2] }, { a: { $elemMatch: { $lt: 3 } } }, { 'a.$': 1 }, { a: [2] }],
  // The optimizer moves a clause of two conditions to the end of the `$and` it joins
  // (expression_tree.cpp, ListOfMatchExpression::getOptimizer), so `b: 9` records last: 2.
  [{ a: [5, 2], b: [7, 8, 9] }, { $and: [{ a: { $lt: 4 }, b: 9 }, { a: 5 }] }, { 'b.$': 1 }, { b: [9] }],
  // The position is recorded on any array of the query and applied to the projected one.
  [{ a: [1, 2], b: [10] }, { a: 2, b: 10 }, { 'b.$': 1 }, { b: [10] }],
  [{ a: [1, 2], b: [10] }, { b: 10, a: 2 }, { 'b.$': 1 }, MISMATCH],
  // A nested path: the first array on it is the one projected, through documents or not.
  [{ a: { b: [1, 2, 3] } }, { 'a.b': 3 }, { 'a.b.$': 1 }, { a: { b: [3] } }],
  [{ a: [{ b: [1, 2] }, { b: [3, 4] }] }, { 'a.b': 3 }, { 'a.b.$': 1 }, { a: [{ b: [3, 4] }] }],
  [{ a: 5 }, { a: 5 }, { 'a.$': 1 }, { a: 5 }],
];

describe.each(drivers)('positional projection ($name)', (driver) => {
  const t = connect(driver, 'positional_projection');

  it('projects the element at the position the query records, in find and findAndModify', async () => {
    const coll = t.db.collection<any>('c');
    for (const [stored, filter, projection, expected] of CASES) {
      await coll.deleteMany({});
      await coll.insertOne({ _id: 1, ...stored });
      const label = `${JSON.stringify(filter)} ${JSON.stringify(projection)}`;
      const find = () => coll.findOne(filter, { projection });
      const findAndModify = () => coll.findOneAndUpdate(filter, { $set: { z: 1 } }, { projection });
      for (const run of [find, findAndModify]) {
        if (Array.isArray(expected)) {
          const error = await failure(run);
          expect([error['code'], error['message']], label).toEqual(expected);
        } else expect(await run(), label).toEqual({ _id: 1, ...expected });
      }
      // findAndModify's projection is computed before its write, so a failure leaves the document.
      const written = Array.isArray(expected) ? {} : { z: 1 };
      expect(await coll.findOne({ _id: 1 }), label).toEqual({ _id: 1, ...stored, ...written });
    }
  });
});

const MIDDLE =
  "As of 4.4, it's illegal to specify positional operator in the middle of a path.Positional " +
  'projection may only be used at the end, for example: a.b.$. If the query previously used a form ' +
  "like a.b.$.d, remove the parts following the '$' and the results will be equivalent.";

describe.each(drivers)('positional projection paths ($name)', (driver) => {
  const t = connect(driver, 'positional_paths');

  // projection_parser.cpp parses a find projection before anything is read: parseElement refuses a
  // part after the `$` (31394: `a.$.value`, and a second `$` after one, `a.$.b.$`), parseInclusion a
  // second positional field (31276). The embedded engine projected `a.$.value` as `a.value` ([{}, {}]
  // for documents without it) and applied only the first of two positional fields.
  // parseElement takes a positional field only as an inclusion: a document (an expression or a
  // sub-projection) is 31271, an exclusion 31395, another value 31308; and a positional field and an
  // `$elemMatch` exclude each other (31255 when the `$elemMatch` comes second, in
  // parseSubObjectAsExpression, 31256 when the positional field does, in parseInclusion). The embedded
  // engine projected all of these as `a.$: 1`, or ignored the positional field. Before 31255 the
  // `$elemMatch` argument must be a document (31274), after it the field a top-level one (31275).
  it('refuses a path after the $ and a second positional field, before reading or writing', async () => {
    const coll = t.db.collection<any>('paths');
    const stored = { _id: 1, a: [{ value: 1, b: [1] }, { value: 2 }], c: [1] };
    await coll.insertOne(stored);
    const cases: [Doc, number, string][] = [
      [{ 'a.$.value': 1 }, 31394, MIDDLE],
      [{ 'a.$.b.$': 1 }, 31394, MIDDLE],
      [{ 'a.$': 1, 'c.$': 1 }, 31276, 'Cannot specify more than one positional projection per query.'],
      [{ 'a.$': 0 }, 31395, 'positional projection cannot be used with exclusion'],
      [{ o: { 'a.$': false } }, 31395, 'positional projection cannot be used with exclusion'],
      [{ 'a.$': 'x' }, 31308, 'positional projection cannot be used with a literal'],
      [{ 'a.$': [1] }, 31308, 'positional projection cannot be used with a literal'],
      [
        { 'a.$': { $slice: 1 } },
        31271,
        'positional projection cannot be used with an expression or sub object',
      ],
      [
        { 'a.$': { value: 1 } },
        31271,
        'positional projection cannot be used with an expression or sub object',
      ],
      [
        { 'c.$': 1, a: { $elemMatch: { value: 2 } } },
        31255,
        'Cannot specify positional operator and $elemMatch.',
      ],
      [
        { a: { $elemMatch: { value: 2 } }, 'c.$': 1 },
        31256,
        'Cannot specify positional operator and $elemMatch.',
      ],
      [{ a: { $elemMatch: 1 } }, 31274, 'elemMatch: Invalid argument, object required, but got int'],
      [{ 'a.b': { $elemMatch: { x: 1 } } }, 31275, 'Cannot use $elemMatch projection on a nested field.'],
      [{ o: { a: { $elemMatch: { x: 1 } } } }, 31275, 'Cannot use $elemMatch projection on a nested field.'],
    ];
    for (const [projection, code, message] of cases) {
      const filter = { 'a.value': 2, c: 1 };
      for (const run of [
        () => coll.findOne(filter, { projection }),
        () => coll.findOneAndUpdate(filter, { $set: { z: 1 } }, { projection }),
        () => t.db.collection('missing').findOne(filter, { projection }),
      ]) {
        const error = await failure(run);
        expect([error['code'], error['message']], JSON.stringify(projection)).toEqual([code, message]);
      }
    }
    expect(await coll.findOne({ _id: 1 })).toEqual(stored);
  });

  // findAndModify projected its document alone, kept under a made-up key, so a query that looks the
  // document up by `_id` found nothing and the reply's value was {}.
  it('projects findAndModify positionally when the query names _id', async () => {
    const coll = t.db.collection<any>('by_id');
    await coll.insertOne({ _id: 1, a: [5, 2] });
    for (const filter of [{ _id: 1, a: 2 }, { $and: [{ a: 2 }, { _id: 1 }] }]) {
      const value = await coll.findOneAndUpdate(filter, { $set: { z: 1 } }, { projection: { 'a.$': 1 } });
      expect(value, JSON.stringify(filter)).toEqual({ _id: 1, a: [2] });
    }
  });
});
