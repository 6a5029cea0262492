/**
 * `$setWindowFields` and `$fill` specifications MongoDB 7.0 refuses, with its codes: window functions as
 * window_function_expression.cpp/.h and window_function_shift.cpp parse them, `$linearFill`'s sortBy
 * values as window_function_exec_linear_fill.cpp checks them, and `$fill` as document_source_fill.cpp
 * and its IDL parser check it.
 */
import { describe, expect, it } from 'vitest';
import { aggregateOn, connect, drivers, failure } from '../helpers.js';

type Doc = Record<string, any>;

const readings = [
  { _id: 1, t: 1, v: 10 },
  { _id: 2, t: 2, v: null },
  { _id: 3, t: 2, v: 30 },
];

/** [case, stage, code]. */
const refusals: [string, Doc, number][] = [
  // window_function_expression.cpp Expression::parse.
  ['an unknown window function', { $setWindowFields: { output: { r: { $summ: '$v' } } } }, 9],
  ['an output without a function', { $setWindowFields: { output: { r: { sum: '$v' } } } }, 9],
  // ExpressionFromRankAccumulator::parse.
  ['$rank without sortBy', { $setWindowFields: { output: { r: { $rank: {} } } } }, 5371602],
  [
    '$documentNumber with a compound sortBy',
    { $setWindowFields: { sortBy: { t: 1, v: 1 }, output: { r: { $documentNumber: {} } } } },
    5371602,
  ],
  [
    '$rank with a window',
    { $setWindowFields: { sortBy: { t: 1 }, output: { r: { $rank: {}, window: { documents: [-1, 0] } } } } },
    5371601,
  ],
  [
    '$denseRank with an argument',
    { $setWindowFields: { sortBy: { t: 1 }, output: { r: { $denseRank: 1 } } } },
    5371603,
  ],
  // ExpressionShift::parse.
  [
    '$shift with a window',
    {
      $setWindowFields: {
        sortBy: { t: 1 },
        output: { r: { $shift: { output: '$v', by: 1 }, window: { documents: [-1, 1] } } },
      },
    },
    9,
  ],
  ['$shift without sortBy', { $setWindowFields: { output: { r: { $shift: { output: '$v', by: 1 } } } } }, 9],
  // ExpressionLinearFill::parse and the left-unbounded functions.
  ['$linearFill without sortBy', { $setWindowFields: { output: { r: { $linearFill: '$v' } } } }, 605001],
  [
    '$locf with a window',
    {
      $setWindowFields: { sortBy: { t: 1 }, output: { r: { $locf: '$v', window: { documents: [-1, 0] } } } },
    },
    9,
  ],
  // WindowFunctionStatement::parse (window_function_statement.cpp): each output is a document.
  ['an output that is not a document', { $setWindowFields: { output: { r: 1 } } }, 9],
  // ExpressionQuantile::parse parses its argument with the accumulator's parseArgs
  // (accumulator_percentile.cpp): 7436100 / 7429703, then the IDL spec's 40415 / 40414.
  ['$median of a field path', { $setWindowFields: { output: { r: { $median: '$v' } } } }, 7436100],
  ['$percentile of an array', { $setWindowFields: { output: { r: { $percentile: ['$v'] } } } }, 7429703],
  [
    '$percentile without p',
    { $setWindowFields: { output: { r: { $percentile: { input: '$v', method: 'approximate' } } } } },
    40414,
  ],
  [
    '$median with an unknown field',
    { $setWindowFields: { output: { r: { $median: { input: '$v', method: 'approximate', p: [0.5] } } } } },
    40415,
  ],
  // WindowFunctionExecLinearFill::getNext: two documents with t 2.
  [
    '$linearFill over repeated sortBy values',
    { $setWindowFields: { sortBy: { t: 1 }, output: { r: { $linearFill: '$v' } } } },
    6050106,
  ],
  // document_source_fill.cpp and the FillSpec IDL.
  ['$fill without output', { $fill: { sortBy: { t: 1 } } }, 40414],
  ['$fill with an unknown field', { $fill: { output: { v: { method: 'locf' } }, by: 1 } }, 40415],
  ['$fill with an empty output', { $fill: { output: {} } }, 6050203],
  ['$fill with an output that is not a document', { $fill: { output: { v: 'locf' } } }, 6050200],
  [
    '$fill with method and value',
    { $fill: { sortBy: { t: 1 }, output: { v: { method: 'locf', value: 0 } } } },
    6050201,
  ],
  [
    '$fill with an unknown method',
    { $fill: { sortBy: { t: 1 }, output: { v: { method: 'nearest' } } } },
    6050202,
  ],
  [
    '$fill with partitionBy and partitionByFields',
    { $fill: { partitionBy: '$p', partitionByFields: ['p'], output: { v: { value: 0 } } } },
    6050204,
  ],
  [
    '$fill linear over repeated sortBy values',
    { $fill: { sortBy: { t: 1 }, output: { v: { method: 'linear' } } } },
    6050106,
  ],
  // WindowBounds::parse (window_bounds.cpp).
  ...(
    [
      ['a range window without sortBy', undefined, { range: [-1, 1] }, 5339902],
      ['a range window with a compound sortBy', { t: 1, v: 1 }, { range: [-1, 1] }, 5339902],
      ['a lower range bound above the upper', { t: 1 }, { range: [1, -1] }, 5339900],
      ['a lower documents bound above current', { t: 1 }, { documents: [1, 'current'] }, 5339900],
      ['documents bounds without sortBy', undefined, { documents: [-1, 0] }, 5339901],
      ['a bound that is another string', { t: 1 }, { range: ['a', 1] }, 9],
      ['a fractional documents bound', { t: 1 }, { documents: [-1.5, 0] }, 9],
      ['a fractional bound with a unit', { t: 1 }, { range: [-1.5, 1], unit: 'day' }, 9],
      ['an unknown unit', { t: 1 }, { range: [-1, 1], unit: 'fortnight' }, 9],
      ['a unit without range', { t: 1 }, { documents: [-1, 1], unit: 'day' }, 9],
      ['both documents and range', { t: 1 }, { documents: [-1, 1], range: [-1, 1] }, 9],
      ['three bounds', { t: 1 }, { range: [-1, 0, 1] }, 9],
      ['an unknown window field', { t: 1 }, { size: 3 }, 9],
    ] as [string, Doc | undefined, Doc, number][]
  ).map(([name, sortBy, window, code]): [string, Doc, number] => [
    name,
    { $setWindowFields: { ...(sortBy ? { sortBy } : {}), output: { r: { $sum: '$v', window } } } },
    code,
  ]),
];

describe.each(drivers)('window function and fill checks ($name)', (driver) => {
  const t = connect(driver, 'window_checks');

  it.each(refusals)('refuses %s', async (_name, stage, code) => {
    const error = await failure(() => aggregateOn(t.db, readings, [stage]));
    expect(error['code']).toBe(code);
  });

  // document_source_fill.cpp: only $linearFill needs a sortBy; $locf fills in the input order.
  it('$fill with locf needs no sortBy', async () => {
    const result = await aggregateOn(t.db, readings, [
      { $fill: { output: { v: { method: 'locf' } } } },
      { $project: { _id: 0, v: 1 } },
    ]);
    expect(result).toEqual([{ v: 10 }, { v: 10 }, { v: 30 }]);
  });
});
