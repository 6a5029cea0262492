/**
 * The `p` and `method` of `$percentile`/`$median` are checked when the pipeline is parsed, as MongoDB 7.0
 * parses them (src/mongo/db/pipeline/accumulator_percentile.cpp parseP; its IDL spec
 * accumulator_percentile.idl; jstests/aggregation/accumulators/percentiles_syntax.js): `p` must optimize
 * to a constant (7750300 when it reads a document, a `$map`/`$let` variable or any variable but the
 * command's `let` ones), the constant an array (7750301) of numbers (7750302) in [0, 1] (7750303), and
 * `method` a string. Before, a `$group`'s `p` read the group key and an expression's the document.
 */
import { describe, expect, it } from 'vitest';
import { aggregateOn, connect, drivers, failure } from '../helpers.js';

const method = 'approximate';
const NOT_CONSTANT = "The $percentile 'p' field must be an array of constant values, but found value: ";

describe.each(drivers)('percentile arguments ($name)', (driver) => {
  const state = connect(driver, 'percentile_arguments');

  const docs = [
    { _id: 1, g: [0.5], v: 1 },
    { _id: 2, g: [0.5], v: 3 },
  ];

  async function docsCollection() {
    const coll = state.db.collection<any>('percentile_docs');
    await coll.deleteMany({});
    await coll.insertMany(docs.map((d) => ({ ...d })));
    return coll;
  }

  async function refusal(pipeline: Record<string, unknown>[]) {
    const coll = await docsCollection();
    return failure(() => coll.aggregate(pipeline).toArray());
  }

  it('refuse a p that reads the group key or the documents in $group (7750300)', async () => {
    // parseP: the optimized p must be an ExpressionConstant; percentiles_syntax.js "'p' should not
    // accept non-const expressions".
    const fromKey = await refusal([
      { $group: { _id: '$g', p: { $percentile: { input: '$v', p: '$_id', method } } } },
    ]);
    expect(fromKey.code).toBe(7750300);
    expect(fromKey.errmsg).toBe(`${NOT_CONSTANT}"$_id".`);
    const element = await refusal([
      { $group: { _id: null, p: { $percentile: { input: '$v', p: ['$v'], method } } } },
    ]);
    expect(element.code).toBe(7750300);
    expect(element.errmsg).toBe(`${NOT_CONSTANT}[ "$v" ].`);
  });

  it('refuse a p that reads the document in the expression and the window function (7750300)', async () => {
    const expression = await refusal([
      { $project: { p: { $percentile: { input: [1, 2], p: '$g', method } } } },
    ]);
    expect(expression.code).toBe(7750300);
    const window = await refusal([
      {
        $setWindowFields: {
          sortBy: { _id: 1 },
          output: { p: { $percentile: { input: '$v', p: '$g', method } } },
        },
      },
    ]);
    expect(window.code).toBe(7750300);
    // A $map variable is no constant either: only the command's let variables are set as constants.
    const mapped = await refusal([
      {
        $project: {
          p: { $map: { input: [[0.5]], as: 'q', in: { $percentile: { input: [1, 2], p: '$$q', method } } } },
        },
      },
    ]);
    expect(mapped.code).toBe(7750300);
  });

  it('refuse a bad constant p in $group before reading any document', async () => {
    // parseP runs when $group is parsed, so an empty collection fails too.
    const empty = async (p: unknown) =>
      failure(() =>
        aggregateOn(
          state.db,
          [],
          [{ $group: { _id: null, p: { $percentile: { input: '$v', p, method } } } }],
        ),
      );
    expect((await empty(0.5)).code).toBe(7750301);
    expect((await empty([])).code).toBe(7750301);
    const word = await empty([0.5, 'foo']);
    expect(word.code).toBe(7750302);
    expect(word.errmsg).toBe(
      `The $percentile 'p' field must be an array of numbers from [0.0, 1.0], but found: "foo"`,
    );
    expect((await empty([0.5, 10])).code).toBe(7750303);
  });

  it('fold a constant p and read the command let variables as constants', async () => {
    // percentiles_syntax.js: expressions and let variables evaluating to valid arrays are accepted.
    const coll = await docsCollection();
    const group = (p: unknown) => [{ $group: { _id: null, p: { $percentile: { input: '$v', p, method } } } }];
    expect(await coll.aggregate(group([{ $add: [0.5, 0.5] }])).toArray()).toEqual([{ _id: null, p: [3] }]);
    expect(await coll.aggregate(group('$$ps'), { let: { ps: [0, 1] } }).toArray()).toEqual([
      { _id: null, p: [1, 3] },
    ]);
    const folded = await failure(() => coll.aggregate(group({ $concatArrays: [[0.1], ['foo']] })).toArray());
    expect(folded.code).toBe(7750302);
    const letScalar = await failure(() => coll.aggregate(group('$$ps'), { let: { ps: 0.5 } }).toArray());
    expect(letScalar.code).toBe(7750301);
  });

  it('refuse a method that is not a string (TypeMismatch)', async () => {
    // accumulator_percentile.idl: method is of type string.
    const wrong = await refusal([{ $group: { _id: null, p: { $median: { input: '$v', method: 42 } } } }]);
    expect(wrong.code).toBe(14);
    expect(wrong.errmsg).toBe("BSON field '$median.method' is the wrong type 'int', expected type 'string'");
  });
});
