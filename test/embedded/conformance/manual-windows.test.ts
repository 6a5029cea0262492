/**
 * The examples of the MongoDB 7.0 manual's reference pages for `$setWindowFields` functions ($derivative,
 * $integral, $expMovingAvg, $shift, $rank, $denseRank, $documentNumber, $linearFill, $locf) and the
 * `$densify` and `$fill` stages, run through the driver with the documented output, to the last digit
 * where the manual prints one.
 */
import { describe, expect, it } from 'vitest';
import { aggregateOn, connect, drivers, failure } from '../helpers.js';

type Doc = Record<string, any>;

const date = (iso: string): Date => new Date(iso);

/** The manual's cakeSales collection (setWindowFields-example-collection), fields the examples use. */
const cakeSales = [
  { _id: 0, orderDate: date('2020-05-18T14:10:30Z'), state: 'CA', quantity: 120 },
  { _id: 1, orderDate: date('2021-03-20T11:30:05Z'), state: 'WA', quantity: 140 },
  { _id: 2, orderDate: date('2021-01-11T06:31:15Z'), state: 'CA', quantity: 145 },
  { _id: 3, orderDate: date('2020-02-08T13:13:23Z'), state: 'WA', quantity: 104 },
  { _id: 4, orderDate: date('2019-05-18T16:09:01Z'), state: 'CA', quantity: 162 },
  { _id: 5, orderDate: date('2019-01-08T06:12:03Z'), state: 'WA', quantity: 134 },
];

/** Four readings, 30 seconds apart, for each of two keys. */
function series(
  key: string,
  keys: [string, string],
  values: number[],
  start = '2020-05-18T14:10:30Z',
): Doc[] {
  return values.map((value, i) => ({
    _id: i,
    [key]: keys[i < 4 ? 0 : 1],
    t: new Date(date(start).getTime() + (i % 4) * 30_000),
    v: value,
  }));
}

const stock = [
  { _id: 1, time: date('2021-03-08T09:00:00Z'), price: 500 },
  { _id: 2, time: date('2021-03-08T10:00:00Z') },
  { _id: 3, time: date('2021-03-08T11:00:00Z'), price: 515 },
  { _id: 4, time: date('2021-03-08T12:00:00Z') },
  { _id: 5, time: date('2021-03-08T13:00:00Z') },
  { _id: 6, time: date('2021-03-08T14:00:00Z'), price: 485 },
];

const prices = [13, 15.4, 12, 11.7, 82, 94, 112, 97.3].map((price, i) => ({
  _id: i,
  stock: i < 4 ? 'MDB' : 'MSFT',
  date: new Date(date('2020-05-18T20:00:00Z').getTime() + (i % 4) * 86_400_000),
  price,
}));

/** `$setWindowFields` partitioned by state with one output `r`, projected to `_id` and `r`. */
const byState = (sortBy: Doc, output: Doc): Doc[] => [
  { $setWindowFields: { partitionBy: '$state', sortBy, output: { r: output } } },
  { $project: { r: 1 } },
];

/** [case, input documents, pipeline, expected output]. */
const examples: [string, Doc[], Doc[], Doc[]][] = [
  // Manual, $derivative "Example": miles per hour over 30-second windows; truck 2 never exceeds 50.
  [
    '$derivative',
    series('truckID', ['1', '2'], [1295.1, 1295.63, 1296.25, 1296.76, 10234.1, 10234.33, 10234.73, 10235.13]),
    [
      {
        $setWindowFields: {
          partitionBy: '$truckID',
          sortBy: { t: 1 },
          output: {
            s: { $derivative: { input: '$v', unit: 'hour' }, window: { range: [-30, 0], unit: 'second' } },
          },
        },
      },
      { $match: { s: { $gt: 50 } } },
      { $project: { _id: 0, s: 1 } },
    ],
    [{ s: 63.60000000002401 }, { s: 74.3999999999869 }, { s: 61.199999999998916 }],
  ],
  // Manual, $integral "Example": kilowatt-hours from the start of each meter's readings.
  [
    '$integral',
    series('meter', ['1', '2'], [2.95, 2.7, 2.6, 2.98, 2.5, 2.25, 2.75, 2.82]),
    [
      {
        $setWindowFields: {
          partitionBy: '$meter',
          sortBy: { t: 1 },
          output: {
            kwh: {
              $integral: { input: '$v', unit: 'hour' },
              window: { range: ['unbounded', 'current'], unit: 'hour' },
            },
          },
        },
      },
      { $project: { _id: 0, kwh: 1 } },
    ],
    [0, 0.023541666666666666, 0.045625, 0.068875, 0, 0.019791666666666666, 0.040625, 0.06383333333333334].map(
      (kwh) => ({ kwh }),
    ),
  ],
  // Manual, $expMovingAvg "Exponential Moving Average Using N" and "… Using alpha" (decimal arithmetic).
  [
    '$expMovingAvg with N',
    prices,
    [
      {
        $setWindowFields: {
          partitionBy: '$stock',
          sortBy: { date: 1 },
          output: { e: { $expMovingAvg: { input: '$price', N: 2 } } },
        },
      },
      { $project: { _id: 0, e: 1 } },
    ],
    [13, 14.6, 12.866666666666667, 12.088888888888889, 82, 90, 104.66666666666667, 99.75555555555556].map(
      (e) => ({
        e,
      }),
    ),
  ],
  [
    '$expMovingAvg with alpha',
    prices,
    [
      {
        $setWindowFields: {
          partitionBy: '$stock',
          sortBy: { date: 1 },
          output: { e: { $expMovingAvg: { input: '$price', alpha: 0.75 } } },
        },
      },
      { $project: { _id: 0, e: 1 } },
    ],
    [13, 14.8, 12.7, 11.95, 82, 91, 106.75, 99.6625].map((e) => ({ e })),
  ],
  // Manual, $rank "Rank Partitions by a Date Field": partitions come in state order (CA, then WA) even
  // though WA holds the earliest date.
  [
    '$rank by date, partitions in key order',
    cakeSales,
    byState({ orderDate: 1 }, { $rank: {} }),
    [
      { _id: 4, r: 1 },
      { _id: 0, r: 2 },
      { _id: 2, r: 3 },
      { _id: 5, r: 1 },
      { _id: 3, r: 2 },
      { _id: 1, r: 3 },
    ],
  ],
  // Manual, $shift "Shift Using a Positive Integer".
  [
    '$shift by 1',
    cakeSales,
    byState({ quantity: -1 }, { $shift: { output: '$quantity', by: 1, default: 'Not available' } }),
    [
      { _id: 4, r: 145 },
      { _id: 2, r: 120 },
      { _id: 0, r: 'Not available' },
      { _id: 1, r: 134 },
      { _id: 5, r: 104 },
      { _id: 3, r: 'Not available' },
    ],
  ],
  // Manual, $documentNumber: 1, 2, 3 in each state by quantity.
  [
    '$documentNumber',
    cakeSales,
    byState({ quantity: -1 }, { $documentNumber: {} }),
    [4, 2, 0, 1, 5, 3].map((_id, i) => ({ _id, r: (i % 3) + 1 })),
  ],
  // Manual, $linearFill "Use Multiple Fill Methods in a Single Stage".
  [
    '$linearFill and $locf',
    stock,
    [
      {
        $setWindowFields: {
          sortBy: { time: 1 },
          output: { l: { $linearFill: '$price' }, f: { $locf: '$price' } },
        },
      },
      { $project: { l: 1, f: 1 } },
    ],
    [
      [500, 500],
      [507.5, 500],
      [515, 515],
      [505, 515],
      [495, 515],
      [485, 485],
    ].map(([l, f], i) => ({ _id: i + 1, l, f })),
  ],
  // Manual, $fill "Fill Missing Field Values with Linear Interpolation".
  [
    '$fill linear',
    stock,
    [{ $fill: { sortBy: { time: 1 }, output: { price: { method: 'linear' } } } }, { $project: { price: 1 } }],
    [500, 507.5, 515, 505, 495, 485].map((price, i) => ({ _id: i + 1, price })),
  ],
  // Manual, $densify "Densify Values within Each Partition": the added documents hold the partition
  // field, then the densified one.
  [
    '$densify within partitions',
    [
      { _id: 1, altitude: 600, variety: 'Arabica Typica' },
      { _id: 2, altitude: 750, variety: 'Arabica Typica' },
      { _id: 3, altitude: 950, variety: 'Arabica Typica' },
      { _id: 4, altitude: 1250, variety: 'Gesha' },
      { _id: 5, altitude: 1700, variety: 'Gesha' },
    ],
    [
      {
        $densify: {
          field: 'altitude',
          partitionByFields: ['variety'],
          range: { bounds: 'partition', step: 200 },
        },
      },
      { $match: { _id: { $exists: false } } },
      { $sort: { altitude: 1 } },
    ],
    [
      { variety: 'Arabica Typica', altitude: 800 },
      { variety: 'Gesha', altitude: 1450 },
      { variety: 'Gesha', altitude: 1650 },
    ],
  ],
];

describe.each(drivers)('manual examples: window functions, densify and fill ($name)', (driver) => {
  const t = connect(driver, 'manual_windows');

  const run = (docs: Doc[], pipeline: Doc[]): Promise<Doc[]> => aggregateOn(t.db, docs, pipeline);

  it.each(examples)('%s', async (_name, docs, pipeline, expected) => {
    const result = await run(docs, pipeline);
    expect(result).toEqual(expected);
    // Field order is part of the documented output.
    expect(result.map((doc) => Object.keys(doc))).toEqual(expected.map((doc) => Object.keys(doc)));
  });

  // accumulator_exp_moving_avg.cpp: a double unless an input is a decimal.
  it('$expMovingAvg of numbers is a double', async () => {
    const [doc] = await run(prices.slice(0, 1), [
      {
        $setWindowFields: {
          sortBy: { date: 1 },
          output: { e: { $expMovingAvg: { input: '$price', N: 1 } } },
        },
      },
      { $project: { _id: 0, t: { $type: '$e' } } },
    ]);
    expect(doc).toEqual({ t: 'double' });
  });

  /** [case, output spec, code] MongoDB refuses (expMovingAvg parser; window_function_exec_derivative.cpp). */
  const refusals: [string, Doc, number][] = [
    ['$expMovingAvg with N of 0', { $expMovingAvg: { input: '$quantity', N: 0 } }, 9],
    ['$expMovingAvg with alpha 1', { $expMovingAvg: { input: '$quantity', alpha: 1 } }, 9],
    ['$expMovingAvg with N and alpha', { $expMovingAvg: { input: '$quantity', N: 2, alpha: 0.5 } }, 9],
    [
      '$derivative of dates without a unit',
      { $derivative: { input: '$quantity' }, window: { documents: [-1, 0] } },
      5624901,
    ],
  ];
  /** [case, $densify spec, code]: document_source_densify.cpp's checks (a zero step looped forever). */
  const densifyRefusals: [string, unknown, number][] = [
    ['a zero step', { field: 'a', range: { step: 0, bounds: 'full' } }, 5733401],
    ['a negative step', { field: 'a', range: { step: -1, bounds: [0, 10] } }, 5733401],
    [
      'a fractional step for dates',
      { field: 'a', range: { step: 1.5, unit: 'day', bounds: 'full' } },
      6586400,
    ],
    ['no range', { field: 'a' }, 40414],
    ['an unknown bounds string', { field: 'a', range: { step: 1, bounds: 'all' } }, 5946802],
    ['descending bounds', { field: 'a', range: { step: 1, bounds: [10, 0] } }, 5733402],
    ['a unit with numeric bounds', { field: 'a', range: { step: 1, unit: 'day', bounds: [0, 10] } }, 5733409],
    ['partition bounds without partitions', { field: 'a', range: { step: 1, bounds: 'partition' } }, 5733408],
    ['a $ field', { field: '$a', range: { step: 1, bounds: 'full' } }, 16410],
  ];
  it.each(densifyRefusals)('$densify refuses %s', async (_name, spec, code) => {
    const error = await failure(() => run([{ _id: 1, a: 1 }], [{ $densify: spec as Doc }]));
    expect(error['code']).toBe(code);
  });

  // document_source_densify.cpp: at most internalQueryMaxAllowedDensifyDocs (500,000) added documents.
  it('$densify stops at 500,000 added documents', async () => {
    const error = await failure(() =>
      run(
        [
          { _id: 1, a: 0 },
          { _id: 2, a: 1 },
        ],
        [{ $densify: { field: 'a', range: { step: 1e-6, bounds: 'full' } } }],
      ),
    );
    expect(error['code']).toBe(5897900);
  });

  it.each(refusals)('refuses %s', async (_name, output, code) => {
    const error = await failure(() =>
      run(cakeSales, [
        { $setWindowFields: { partitionBy: '$state', sortBy: { orderDate: 1 }, output: { r: output } } },
      ]),
    );
    expect(error['code']).toBe(code);
  });
});
