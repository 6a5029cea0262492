/**
 * `$regex` in the embedded database matches in linear time (RE2), refuses what RE2 cannot run, and
 * honours `maxTimeMS` (MongoDB's MaxTimeMSExpired, code 50, "operation exceeded time limit":
 * https://www.mongodb.com/docs/manual/reference/method/cursor.maxTimeMS/).
 */
import { MongoClient, MongoServerError } from 'mongodb';
import type { Collection } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedServer } from 'plume/embedded';
import type { EmbeddedServer } from 'plume/embedded';

const text = 'All work and no play makes Jack a dull boy. '.repeat(50).slice(0, 2000);

describe('$regex in linear time (embedded only)', () => {
  let server: EmbeddedServer;
  let client: MongoClient;
  let messages: Collection<{ n: number; text: string; tags?: string[] }>;

  beforeAll(async () => {
    server = await startEmbeddedServer();
    client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 5000 });
    messages = client.db('regex').collection('messages');
    await messages.insertMany(Array.from({ length: 300 }, (_, n) => ({ n, text, tags: ['Red', 'blue'] })));
    await messages.insertOne({ n: 300, text: 'xylophone', tags: ['green'] });
  });
  afterAll(async () => {
    await client.close();
    await server.stop();
  });

  it('answers `.*.*.*x` with $options i over 2,000-character texts, and every regex form still matches', async () => {
    expect(await messages.countDocuments({ text: { $regex: '.*.*.*x', $options: 'i' } })).toBe(1);
    expect(await messages.countDocuments({ text: /^XYL/i })).toBe(1);
    expect(await messages.countDocuments({ tags: { $in: [/^re/i] } })).toBe(300);
    expect(await messages.countDocuments({ tags: { $all: [/^BLUE$/i] } })).toBe(300);
    expect(await messages.countDocuments({ text: { $not: /jack/i } })).toBe(1);
    expect(await messages.countDocuments({ tags: { $nin: [/^gr/] } })).toBe(300);
    expect(await messages.countDocuments({ text: { $regex: '(?<word>dull) boy', $ne: 'x' } })).toBe(300);
  });

  it.each(['(?=x)', 'a(?!b)', '(?<=a)b', '(a)\\1'])(
    'refuses %s with code 51091, saying why',
    async (pattern) => {
      const error = await messages.findOne({ text: { $regex: pattern } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MongoServerError);
      expect((error as MongoServerError).code).toBe(51091);
      expect((error as MongoServerError).message).toMatch(
        /^Regular expression is invalid: .*linear time \(RE2\): backreferences, lookahead and lookbehind are not supported$/,
      );
    },
  );

  it('stops a query at maxTimeMS with MaxTimeMSExpired (50), and runs it without', async () => {
    const filter = { text: { $regex: '.*.*.*q', $options: 'i' } };
    const error = await messages
      .find(filter)
      .maxTimeMS(1)
      .toArray()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MongoServerError);
    expect((error as MongoServerError).code).toBe(50);
    expect((error as MongoServerError).message).toBe('operation exceeded time limit');
    expect(await messages.find(filter).toArray()).toEqual([]);
    expect(await messages.find(filter).maxTimeMS(60_000).toArray()).toEqual([]);
  });
});

describe('patterns of aggregation expressions and $jsonSchema in linear time (embedded only)', () => {
  // In a worker: a pattern that backtracks would block the worker's loop, not this test's timeout.
  let server: EmbeddedServer;
  let client: MongoClient;
  let items: Collection<{ s: string }>;
  const evil = '^(a+)+$'; // exponential on a backtracking engine for 'aaaa…a!'

  beforeAll(async () => {
    server = await startEmbeddedServer({ worker: true });
    client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 5000 });
    items = client.db('regex').collection('items');
    await items.insertOne({ s: `${'a'.repeat(40)}!`, [`${'a'.repeat(40)}!`]: true });
  });
  afterAll(async () => {
    await client.close();
    await server.stop();
  });

  it('answers $regexMatch, $regexFind and $regexFindAll with option i at once', async () => {
    const arg = { input: '$s', regex: evil, options: 'i' };
    const [doc] = await items
      .aggregate([
        {
          $project: {
            _id: 0,
            match: { $regexMatch: arg },
            find: { $regexFind: arg },
            all: { $regexFindAll: arg },
            prefix: { $regexFind: { input: '$s', regex: '(A+)+', options: 'i' } },
          },
        },
      ])
      .toArray();
    expect(doc).toEqual({
      match: false,
      find: null,
      all: [],
      prefix: { match: 'a'.repeat(40), idx: 0, captures: ['a'.repeat(40)] },
    });
  });

  it('answers $jsonSchema pattern and patternProperties at once', async () => {
    const pattern = { $jsonSchema: { properties: { s: { pattern: evil } } } };
    const keys = {
      $jsonSchema: { patternProperties: { [evil]: { type: 'string' } }, additionalProperties: false },
    };
    expect(await items.countDocuments(pattern)).toBe(0);
    expect(await items.countDocuments(keys)).toBe(0);
  });

  it('refuses a lookaround or backreference in $regexMatch and $jsonSchema with 51091', async () => {
    const refused = (pipeline: object[]) =>
      items
        .aggregate(pipeline)
        .toArray()
        .catch((e: unknown) => e as MongoServerError);
    for (const error of [
      await refused([{ $project: { m: { $regexMatch: { input: '$s', regex: '(a)\\1' } } } }]),
      await refused([{ $match: { $jsonSchema: { properties: { s: { pattern: 'a(?=b)' } } } } }]),
    ]) {
      expect(error).toBeInstanceOf(MongoServerError);
      expect((error as MongoServerError).code).toBe(51091);
      expect((error as MongoServerError).message).toMatch(/linear time \(RE2\)/);
    }
  });
});
