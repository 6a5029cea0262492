/**
 * Which argument errors of `$zip`, `$sortArray`, `$slice` and `$filter` MongoDB 7.0 raises before any
 * document is read (so an aggregate over an empty collection fails too) and which only when a document
 * reaches the expression (src/mongo/db/pipeline/expression.cpp):
 * - `ExpressionZip::parse` checks the argument's shape (34460–34467); the inputs' types are checked by
 *   `evaluate` (34468).
 * - `ExpressionSortArray::parse` checks the argument's fields and builds the sort pattern from `sortBy`
 *   (2942500–2942503, 2942505–2942507); the input's type is checked by `evaluate` (2942504).
 * - `$slice` is an `ExpressionRangedArity`: its argument count is checked by the parser (28667), and
 *   `ExpressionNary::optimize` evaluates it when every argument is a constant, so the types of constant
 *   arguments fail while the pipeline is optimized (28724–28729).
 * - `ExpressionFilter::evaluate` reads `limit` (327391, 327392); the parser does not.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

const PARSE = 'Invalid $project :: caused by :: ';
const FOLD = 'Failed to optimize pipeline :: caused by :: ';

describe.each(drivers)('array expression arguments checked at parse time ($name)', (driver) => {
  const t = connect(driver, 'arrparse');

  async function onEmpty(expr: unknown): Promise<Record<string, any>> {
    return failure(() =>
      t.db
        .collection('empty')
        .aggregate([{ $project: { v: expr } }])
        .toArray(),
    );
  }

  it('refuses a malformed $zip on an empty collection', async () => {
    const cases: [unknown, number, string][] = [
      [1, 34460, '$zip only supports an object as an argument, found int'],
      [{ inputs: 1 }, 34461, 'inputs must be an array of expressions, found int'],
      [{ inputs: [[1]], defaults: 1 }, 34462, 'defaults must be an array of expressions, found int'],
      [{ inputs: [[1]], useLongestLength: 1 }, 34463, 'useLongestLength must be a bool, found object'],
      [{ inputs: [[1]], x: 1 }, 34464, '$zip found an unknown argument: x'],
      [{}, 34465, '$zip requires at least one input array'],
      [{ inputs: [[1]], defaults: [1] }, 34466, 'cannot specify defaults unless useLongestLength is true'],
      [
        { inputs: [[1]], useLongestLength: true, defaults: [1, 2] },
        34467,
        'defaults and inputs must have the same length',
      ],
    ];
    for (const [argument, code, message] of cases) {
      const error = await onEmpty({ $zip: argument });
      expect([error['code'], error['message']]).toEqual([code, PARSE + message]);
    }
  });

  it('refuses a malformed $sortArray on an empty collection', async () => {
    const cases: [unknown, number, string][] = [
      [1, 2942500, '$sortArray requires an object as an argument, found: int'],
      [{ input: [], sortBy: 1, x: 1 }, 2942501, '$sortArray found an unknown argument: x'],
      [{ sortBy: 1 }, 2942502, "$sortArray requires 'input' to be specified"],
      [{ input: [] }, 2942503, "$sortArray requires 'sortBy' to be specified"],
      [{ input: [], sortBy: 2 }, 2942506, 'The $sort element value must be either 1 or -1'],
    ];
    for (const [argument, code, message] of cases) {
      const error = await onEmpty({ $sortArray: argument });
      expect([error['code'], error['message']]).toEqual([code, PARSE + message]);
    }
  });

  it('refuses a $slice of constants of the wrong types on an empty collection', async () => {
    const cases: [unknown[], number, string][] = [
      [[1, 1], 28724, 'First argument to $slice must be an array, but is of type: int'],
      [[[1], 'a'], 28725, 'Second argument to $slice must be a numeric value, but is of type: string'],
      [[[1], 0, { $literal: -1 }], 28729, 'Third argument to $slice must be positive: -1'],
    ];
    for (const [argument, code, message] of cases) {
      const error = await onEmpty({ $slice: argument });
      expect([error['code'], error['message']]).toEqual([code, FOLD + message]);
    }
  });

  it('leaves what MongoDB checks per document to the documents', async () => {
    const empty = t.db.collection('empty');
    const pipeline = [
      {
        $project: {
          zip: { $zip: { inputs: [1] } },
          sorted: { $sortArray: { input: 1, sortBy: 1 } },
          sliced: { $slice: ['$a', 'x'] },
          filtered: { $filter: { input: [1], cond: true, limit: 0 } },
        },
      },
    ];
    expect(await empty.aggregate(pipeline).toArray()).toEqual([]);
    const one = t.db.collection<{ _id: number; a: number }>('one');
    await one.insertOne({ _id: 1, a: 5 });
    for (const [field, code] of [
      ['zip', 34468],
      ['sorted', 2942504],
      ['sliced', 28724],
      ['filtered', 327392],
    ] as const) {
      const stage = { $project: { v: (pipeline[0]!.$project as Record<string, unknown>)[field] } };
      expect((await failure(() => one.aggregate([stage]).toArray()))['code'], field).toBe(code);
    }
  });
});
