/**
 * A sort pattern that names one path twice (`{ ab: 1, ab: -1 }`, which a driver with ordered documents
 * can send) is refused by MongoDB 7.0's SortPattern with 7472500 "$sort key must not contain duplicate
 * keys (duplicate: 'ab')" (src/mongo/db/query/sort_pattern.cpp), after the checks of the keys before
 * it: a second `ab: 2` is 15975, and a `$meta` key is no path. The JS drivers cannot write such a
 * document, so the commands go over a raw socket with a name's bytes renamed after encoding.
 */
import { BSON } from 'bson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedServer } from 'plume/embedded';
import type { EmbeddedServer } from 'plume/embedded';
import { rawClient } from '../raw-client.js';

/** `command` encoded with each field named `zz` renamed `ab` (same length: the sizes stay right). */
function withDuplicates(command: Record<string, unknown>): Buffer {
  const bytes = Buffer.from(BSON.serialize(command));
  for (let at = bytes.indexOf('zz\0'); at >= 0; at = bytes.indexOf('zz\0', at + 1)) bytes.write('ab', at);
  return bytes;
}

describe('duplicate sort keys', () => {
  let server: EmbeddedServer;
  let client: Awaited<ReturnType<typeof rawClient>>;
  beforeAll(async () => {
    server = await startEmbeddedServer();
    client = await rawClient(server.port);
    await client.command({ insert: 'c', documents: [{ _id: 1, a: 1 }], $db: 'dup' });
  });
  afterAll(async () => {
    client.close();
    await server.stop();
  });

  const refused = [7472500, "$sort key must not contain duplicate keys (duplicate: 'ab')"];

  it.each([
    ['find', { find: 'c', sort: { ab: 1, zz: -1 } }],
    ['findAndModify', { findAndModify: 'c', query: {}, sort: { ab: 1, zz: -1 }, remove: true }],
    ['$sort', { aggregate: 'c', pipeline: [{ $match: {} }, { $sort: { ab: 1, b: 1, zz: 1 } }], cursor: {} }],
    [
      '$setWindowFields sortBy',
      {
        aggregate: 'c',
        pipeline: [{ $setWindowFields: { sortBy: { ab: -1, zz: -1 }, output: { n: { $sum: 1 } } } }],
        cursor: {},
      },
    ],
    // MongoDB parses sub-pipelines with the same stage parsers (document_source_lookup.cpp,
    // document_source_union_with.cpp, document_source_facet.cpp), so their sorts build SortPatterns too.
    [
      'a $lookup sub-pipeline $sort',
      {
        aggregate: 'c',
        pipeline: [{ $lookup: { from: 'c', pipeline: [{ $sort: { ab: 1, zz: 1 } }], as: 'x' } }],
        cursor: {},
      },
    ],
    [
      'a $unionWith sub-pipeline $sort',
      {
        aggregate: 'c',
        pipeline: [{ $unionWith: { coll: 'c', pipeline: [{ $sort: { ab: 1, zz: 1 } }] } }],
        cursor: {},
      },
    ],
    [
      'a $facet branch nested in a $lookup',
      {
        aggregate: 'c',
        pipeline: [
          { $lookup: { from: 'c', pipeline: [{ $facet: { f: [{ $sort: { ab: 1, zz: -1 } }] } }], as: 'x' } },
        ],
        cursor: {},
      },
    ],
    // $top/$bottom/$topN/$bottomN parse their sortBy into a SortPattern (parseAccumulatorTopBottomNSortBy,
    // src/mongo/db/pipeline/accumulator_multi.cpp), in $group, $bucket's output and window outputs.
    [
      'a $group $topN sortBy',
      {
        aggregate: 'c',
        pipeline: [{ $group: { _id: null, t: { $topN: { n: 1, output: '$a', sortBy: { ab: 1, zz: 1 } } } } }],
        cursor: {},
      },
    ],
    [
      'a $bucket output $bottom sortBy',
      {
        aggregate: 'c',
        pipeline: [
          {
            $bucket: {
              groupBy: '$a',
              boundaries: [0, 5],
              output: { t: { $bottom: { output: '$a', sortBy: { ab: 1, zz: 1 } } } },
            },
          },
        ],
        cursor: {},
      },
    ],
    [
      'a $setWindowFields output $top sortBy in a $facet',
      {
        aggregate: 'c',
        pipeline: [
          {
            $facet: {
              f: [
                { $setWindowFields: { output: { t: { $top: { output: '$a', sortBy: { ab: 1, zz: 1 } } } } } },
              ],
            },
          },
        ],
        cursor: {},
      },
    ],
  ])('refuses a path named twice in %s', async (_site, command) => {
    const reply = await client.command(withDuplicates({ ...command, $db: 'dup' }));
    expect([reply['code'], reply['errmsg']]).toEqual(refused);
  });

  it('answers an invalid later key, and a $meta key, as SortPattern does', async () => {
    const invalid = await client.command(withDuplicates({ find: 'c', sort: { ab: 1, zz: 2 }, $db: 'dup' }));
    expect(invalid['code']).toBe(15975);
    // The $meta key names no path; without $text the score is missing (40218).
    const meta = await client.command(
      withDuplicates({ find: 'c', sort: { ab: 1, zz: { $meta: 'textScore' } }, $db: 'dup' }),
    );
    expect(meta['code']).toBe(40218);
    const fine = await client.command({ find: 'c', sort: { a: 1, b: -1 }, $db: 'dup' });
    expect(fine['ok']).toBe(1);
    // A sub-pipeline sorting by two paths, and a $topN by two paths, still run.
    const nested = await client.command({
      aggregate: 'c',
      pipeline: [
        { $lookup: { from: 'c', pipeline: [{ $sort: { a: 1, b: -1 } }], as: 'x' } },
        { $group: { _id: null, t: { $topN: { n: 1, output: '$a', sortBy: { a: 1, b: 1 } } } } },
      ],
      cursor: {},
      $db: 'dup',
    });
    expect(nested['cursor']).toMatchObject({ firstBatch: [{ _id: null, t: [1] }] });
  });
});
