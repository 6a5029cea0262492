/**
 * The examples of the MongoDB 7.0 manual's reference pages for the string expression operators ($split,
 * $substrCP, $substrBytes, $indexOfCP, $indexOfBytes, $strLenCP, $trim, $replaceAll, $regexFind,
 * $regexFindAll), run through the driver with the documented output. The manual misprints a few rows
 * ($substrCP of "cafétéria" from 5 for 4 is "éria", not "tér"; $strLenCP of "cafeteria" is 9, not 11);
 * string-expressions.test.ts holds those with MongoDB's answers.
 */
import { describe, expect, it } from 'vitest';
import { aggregateOn, connect, drivers } from '../helpers.js';

type Doc = Record<string, any>;

/** [case, expression, expected value] evaluated on one document: a compact table of the manual's rows. */
const values: [string, unknown, unknown][] = [
  // Manual, $split "Behavior".
  ['$split on -', { $split: ['June-15-2013', '-'] }, ['June', '15', '2013']],
  ['$split on a', { $split: ['banana split', 'a'] }, ['b', 'n', 'n', ' split']],
  ['$split on a leading delimiter', { $split: ['astronomical', 'astro'] }, ['', 'nomical']],
  ['$split without a match', { $split: ['pea green boat', 'owl'] }, ['pea green boat']],
  // Manual, $substrCP and $substrBytes tables.
  ['$substrCP', { $substrCP: ['cafétéria', 7, 3] }, 'ia'],
  ['$substrBytes', { $substrBytes: ['cafétéria', 5, 4] }, 'tér'],
  // Manual, $indexOfCP and $indexOfBytes tables.
  ['$indexOfCP after é', { $indexOfCP: ['cafétéria', 't'] }, 4],
  ['$indexOfBytes after é', { $indexOfBytes: ['cafétéria', 't'] }, 5],
  ['$indexOfCP from a start', { $indexOfCP: ['foo.bar.fi', '.', 5] }, 7],
  ['$indexOfCP with start past end', { $indexOfCP: ['vanilla', 'll', 5, 2] }, -1],
  // Manual, $strLenCP table.
  ['$strLenCP of CJK', { $strLenCP: '寿司' }, 2],
  // Manual, $trim "Behavior".
  ['$trim whitespace', { $trim: { input: '  \n good  bye \t  ' } }, 'good  bye'],
  ['$trim chars', { $trim: { input: ' ggggoodbyeeeee', chars: 'ge' } }, ' ggggoodby'],
  ['$trim chars with a space', { $trim: { input: '    ggggoodbyeeeee', chars: ' ge' } }, 'oodby'],
  // Manual, $replaceAll "Unicode Normalization": no normalization, so e + U+0301 is not é.
  [
    '$replaceAll of a composed é',
    { $replaceAll: { input: 'caf\u00e9', find: 'café', replacement: 'CAFE' } },
    'CAFE',
  ],
  [
    '$replaceAll of a decomposed é',
    { $replaceAll: { input: 'cafe\u0301', find: 'café', replacement: 'CAFE' } },
    'cafe\u0301',
  ],
  ['$replaceAll with a null', { $replaceAll: { input: 'abc', find: 'abc', replacement: null } }, null],
];

const contacts = [
  { _id: 1, fname: 'Carol', phone: '718-555-0113' },
  { _id: 2, fname: 'Daryl', phone: '212-555-8832' },
  { _id: 3, fname: 'Polly', phone: '208-555-1932' },
  { _id: 4, fname: 'Colleen', phone: '775-555-0187' },
  { _id: 5, fname: 'Luna', phone: '917-555-4414' },
];

const products = [
  { _id: 1, description: 'Single LINE description.' },
  { _id: 2, description: 'First lines\nsecond line' },
  { _id: 3, description: 'Many spaces before     line' },
  { _id: 4, description: 'Multiple\nline descriptions' },
  { _id: 5, description: 'anchors, links and hyperlinks' },
  { _id: 6, description: 'métier work vocation' },
];

const found = (match: string, idx: number, captures: unknown[] = []): Doc => ({ match, idx, captures });

describe.each(drivers)('manual examples: string operators ($name)', (driver) => {
  const t = connect(driver, 'manual_strings');
  const { BSONRegExp } = driver.bson;

  const run = (docs: Doc[], pipeline: Doc[]): Promise<Doc[]> => aggregateOn(t.db, docs, pipeline);

  it.each(values)('%s', async (_name, expr, expected) => {
    const [doc] = await run([{ _id: 1 }], [{ $project: { _id: 0, r: expr } }]);
    expect(doc?.['r']).toEqual(expected);
  });

  // Manual, $split "Example": the states after $unwind are matched with a regex. A $match after the first
  // stage compared the BSON regex as an object and matched nothing.
  it('$split, $unwind and a regex $match total the deliveries per state', async () => {
    const cities = ['Berkeley, CA', 'Bend, OR', 'Kensington, CA', 'Eugene, OR', 'Reno, NV', 'Portland, OR'];
    const qty = [648, 491, 233, 842, 655, 408];
    const docs = [
      ...cities.map((city, i) => ({ _id: i + 1, city, qty: qty[i] })),
      { _id: 7, city: 'Sacramento, CA', qty: 574 },
    ];
    const result = await run(docs, [
      { $project: { city_state: { $split: ['$city', ', '] }, qty: 1 } },
      { $unwind: '$city_state' },
      { $match: { city_state: new BSONRegExp('[A-Z]{2}') } },
      { $group: { _id: { state: '$city_state' }, total_qty: { $sum: '$qty' } } },
      { $sort: { total_qty: -1 } },
    ]);
    expect(result).toEqual([
      { _id: { state: 'OR' }, total_qty: 1741 },
      { _id: { state: 'CA' }, total_qty: 1455 },
      { _id: { state: 'NV' }, total_qty: 655 },
    ]);
  });

  // The same regex in a $facet and in a $lookup sub-pipeline.
  it('a regex $match works in sub-pipelines', async () => {
    const [result] = await run(
      [
        { _id: 1, c: 'CA' },
        { _id: 2, c: 'x' },
      ],
      [{ $facet: { states: [{ $project: { c: 1 } }, { $match: { c: new BSONRegExp('^[A-Z]{2}$') } }] } }],
    );
    expect(result).toEqual({ states: [{ _id: 1, c: 'CA' }] });
  });

  // Manual, $regexFind "captures Output Behavior": a group that takes no part in the match is null.
  it('$regexFind captures, with null for groups not in the match', async () => {
    const result = await run(contacts, [
      { $project: { r: { $regexFind: { input: '$fname', regex: new BSONRegExp('(C(ar)*)ol') } } } },
    ]);
    expect(result.map((d) => d['r'])).toEqual([
      found('Carol', 0, ['Car', 'ar']),
      null,
      null,
      found('Col', 0, ['C', null]),
      null,
    ]);
    const nyc = await run(contacts, [
      {
        $project: {
          r: { $regexFindAll: { input: '$phone', regex: new BSONRegExp('^(718).*|^(212).*|^(917).*') } },
        },
      },
    ]);
    expect(nyc.map((d) => d['r'])).toEqual([
      [found('718-555-0113', 0, ['718', null, null])],
      [found('212-555-8832', 0, [null, '212', null])],
      [],
      [],
      [found('917-555-4414', 0, [null, null, '917'])],
    ]);
  });

  // Manual, $regexFindAll "$regexFindAll and Its Options": idx counts code points (métier: 2, not 3), and
  // the i, m, x and s options.
  it('$regexFindAll with its options', async () => {
    const all = async (regex: unknown, options?: string): Promise<unknown[]> =>
      (
        await run(products, [
          {
            $project: {
              r: { $regexFindAll: { input: '$description', regex, ...(options ? { options } : {}) } },
            },
          },
        ])
      ).map((d) => d['r']);
    expect(await all(new BSONRegExp('lin(e|k)'))).toEqual([
      [],
      [found('line', 6, ['e']), found('line', 19, ['e'])],
      [found('line', 23, ['e'])],
      [found('line', 9, ['e'])],
      [found('link', 9, ['k']), found('link', 24, ['k'])],
      [],
    ]);
    expect(await all(new BSONRegExp('tier'))).toEqual([[], [], [], [], [], [found('tier', 2)]]);
    expect(await all(new BSONRegExp('^s', 'im'))).toEqual([
      [found('S', 0)],
      [found('s', 12)],
      [],
      [],
      [],
      [],
    ]);
    expect(await all(new BSONRegExp('lin(e|k) # matches line or link'), 'x')).toEqual(
      await all(new BSONRegExp('lin(e|k)')),
    );
    expect(await all(new BSONRegExp('m.*line'), 'si')).toEqual([
      [],
      [],
      [found('Many spaces before     line', 0)],
      [found('Multiple\nline', 0)],
      [],
      [],
    ]);
  });
});
