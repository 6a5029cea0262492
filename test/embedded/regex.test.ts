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
