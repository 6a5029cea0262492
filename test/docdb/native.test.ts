import { MongoServerError, ObjectId, type Collection, type Document } from 'mongodb';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp, type Application, type Paginated } from 'plume';
import { DocDbService, type DocDbParams } from 'plume/docdb';
import { BadRequest } from 'plume/errors';
import { databases, type TestDatabase } from './databases.js';

describe.each(databases)('DocDbService native features on $name', (factory) => {
  let database: TestDatabase;
  let app: Application;
  let users: Collection<Document>;
  let messages: Collection<Document>;
  let userIds: ObjectId[];

  beforeAll(async () => {
    database = await factory.start();
  });
  afterAll(async () => {
    await database?.stop();
  });

  beforeEach(async () => {
    app = createApp();
    users = database.collection('users');
    messages = database.collection('messages');
    const inserted = await users.insertMany([
      { name: 'alice', email: 'a@x.io' },
      { name: 'Bob', email: 'b@x.io' },
      { name: 'Carl', email: 'c@x.io' },
      { name: 'dora', email: 'd@x.io' },
    ]);
    userIds = Object.values(inserted.insertedIds);
    await messages.insertMany([
      { text: 'one', userId: userIds[0], tags: ['a'], votes: 1 },
      { text: 'two', userId: userIds[1], tags: ['a', 'b'], votes: 2 },
      { text: 'three', userId: userIds[1], tags: [], votes: 3 },
    ]);
    app.use('users', new DocDbService({ Model: users, multi: true, paginate: { default: 10 } }));
    app.use('messages', new DocDbService({ Model: messages, paginate: { default: 10, max: 100 } }));
  });
  afterEach(async () => {
    await users.drop().catch(() => undefined);
    await messages.drop().catch(() => undefined);
  });

  const lookupUser = (from: () => string): Document[] => [
    { $lookup: { from: from(), localField: 'userId', foreignField: '_id', as: 'user' } },
    { $unwind: { path: '$user' } },
  ];

  describe('pipelines', () => {
    it('makeFeathersPipeline converts the query to $match, $sort, $skip, $limit, $project and ignores params.pipeline', () => {
      const service = new DocDbService({ Model: messages });
      const stages = service.makeFeathersPipeline({
        query: { votes: { $gt: 1 }, $sort: { votes: -1 }, $skip: 1, $limit: 5, $select: ['text'] },
        pipeline: [{ $unwind: '$tags' }],
      });
      expect(stages).toEqual([
        { $match: { votes: { $gt: 1 } } },
        { $sort: { votes: -1 } },
        { $skip: 1 },
        { $limit: 5 },
        { $project: { _id: 1, text: 1 } },
      ]);
    });

    it('find appends params.pipeline after the query; total counts what the pipeline yields', async () => {
      const page = (await app.service('messages').find({
        query: { votes: { $gte: 1 }, $sort: { votes: 1 } },
        pipeline: [{ $unwind: '$tags' }],
      })) as Paginated<Document>;
      expect(page.data.map((m) => `${m.text as string}:${m.tags as string}`)).toEqual([
        'one:a',
        'two:a',
        'two:b',
      ]);
      expect(page.total).toBe(3);
    });

    it('$lookup fields appear in find, get and patch results', async () => {
      const pipeline = lookupUser(() => users.collectionName);
      const found = (await app
        .service('messages')
        .find({ pipeline, query: { text: 'one' } })) as Paginated<Document>;
      expect(found.data[0]?.user).toMatchObject({ name: 'alice' });
      const [first] = await messages.find({ text: 'two' }).toArray();
      const id = String(first?._id);
      expect(await app.service('messages').get(id, { pipeline })).toMatchObject({
        user: { name: 'Bob' },
      });
      const patched = await app.service('messages').patch(id, { votes: 20 }, { pipeline });
      expect(patched).toMatchObject({ votes: 20, user: { name: 'Bob' } });
      const updated = await app
        .service('messages')
        .update(id, { text: 'two!', userId: userIds[2] }, { pipeline });
      expect(updated).toMatchObject({ text: 'two!', user: { name: 'Carl' } });
      const removed = await app.service('messages').remove(id, { pipeline });
      expect(removed).toMatchObject({ text: 'two!', user: { name: 'Carl' } });
    });

    it("a { $framework: {} } stage injects the query there: later stages see the earlier stages' output", async () => {
      const pipeline: Document[] = [
        { $lookup: { from: users.collectionName, localField: 'userId', foreignField: '_id', as: 'user' } },
        { $unwind: { path: '$user' } },
        { $addFields: { author: '$user.name' } },
        { $framework: {} },
        { $project: { user: 0 } },
      ];
      const page = (await app.service('messages').find({
        query: { author: 'Bob', $sort: { votes: -1 } },
        pipeline,
      })) as Paginated<Document>;
      expect(page.total).toBe(2);
      expect(page.data.map((m) => m.text)).toEqual(['three', 'two']);
      expect(page.data[0]?.user).toBeUndefined();
      const [first] = await messages.find({ text: 'one' }).toArray();
      await expect(
        app.service('messages').get(String(first?._id), { pipeline, query: { author: 'Bob' } }),
      ).rejects.toMatchObject({ code: 404 });
    });

    it('$select with overlapping paths returns the outer field instead of a database error', async () => {
      const found = (await app.service('messages').find({
        query: { text: 'one', $select: ['tags', 'tags.x', '_id.y', 'text'] },
      })) as Paginated<Document>;
      expect(found.data[0]).toMatchObject({ text: 'one', tags: ['a'] });
      expect(found.data[0]?.votes).toBeUndefined();
    });

    it('findRaw and aggregateRaw return driver cursors', async () => {
      const service = new DocDbService({ Model: messages });
      const raw = await (
        await service.findRaw({ query: { votes: { $gt: 1 }, $sort: { votes: 1 } } })
      ).toArray();
      expect(raw.map((m) => m.text)).toEqual(['two', 'three']);
      const agg = await (
        await service.aggregateRaw({ query: { $sort: { votes: -1 } }, pipeline: [{ $limit: 1 }] })
      ).toArray();
      expect(agg.map((m) => m.text)).toEqual(['three']);
    });

    it('getModel honours params.adapter.Model', async () => {
      const service = new DocDbService({ Model: messages });
      expect(await service.getModel({ adapter: { Model: users } })).toBe(users);
      const found = (await service.find({ adapter: { Model: users }, query: { name: 'Bob' } })) as Document[];
      expect(found).toHaveLength(1);
    });

    it('asks an overridden getModel on every call (a collection per tenant)', async () => {
      class PerTenant extends DocDbService {
        asked = 0;
        override async getModel(params?: DocDbParams): Promise<Collection<Document>> {
          this.asked++;
          return (params as { tenant?: string } | undefined)?.tenant === 'users' ? users : messages;
        }
      }
      const service = new PerTenant({ Model: messages });
      const params = { tenant: 'users' } as DocDbParams;
      const created = await service.create({ name: 'Tenant' }, params);
      expect(await users.findOne({ _id: created._id })).toMatchObject({ name: 'Tenant' });
      expect(await service.get(String(created._id), params)).toMatchObject({ name: 'Tenant' });
      expect(await service.patch(String(created._id), { age: 3 }, params)).toMatchObject({ age: 3 });
      expect(await service.find({ ...params, query: { name: 'Tenant' } })).toHaveLength(1);
      expect(await service.remove(String(created._id), params)).toMatchObject({ name: 'Tenant' });
      expect(service.asked).toBe(5);
      expect(await messages.findOne({ name: 'Tenant' })).toBeNull();
    });

    it('maps a driver call that throws instead of rejecting, as one that rejects', async () => {
      const throwing = {
        collectionName: 'throwing',
        findOne: () => {
          throw new MongoServerError({ message: 'unknown operator: $foo', code: 2 });
        },
        findOneAndUpdate: () => {
          throw new MongoServerError({ message: 'internal secret detail', code: 8000 });
        },
      } as unknown as Collection<Document>;
      const service = new DocDbService({ Model: throwing });
      const id = String(new ObjectId());
      await expect(service.get(id)).rejects.toBeInstanceOf(BadRequest);
      await expect(service.patch(id, { a: 1 })).rejects.toMatchObject({
        code: 500,
        message: 'Database error',
      });
    });

    it('accepts the Model as a promise that creates indexes first', async () => {
      const indexed = database.collection('indexed');
      const Model = (async () => {
        await indexed.createIndex({ email: 1 }, { unique: true });
        return indexed;
      })();
      app.use('indexed', new DocDbService({ Model }));
      await app.service('indexed').create({ email: 'x@y.z' });
      await expect(app.service('indexed').create({ email: 'x@y.z' })).rejects.toMatchObject({ code: 409 });
    });
  });

  describe('collation', () => {
    const collation = { locale: 'en', strength: 1 };

    it('find compares strings case-insensitively with strength 1, in queries and sorting', async () => {
      const plain = (await app
        .service('users')
        .find({ query: { name: { $gte: 'c' } }, paginate: false })) as Document[];
      expect(plain.map((u) => u.name).sort()).toEqual(['dora']);
      const folded = (await app.service('users').find({
        query: { name: { $gte: 'c' }, $sort: { name: 1 } },
        collation,
        paginate: false,
      })) as Document[];
      expect(folded.map((u) => u.name)).toEqual(['Carl', 'dora']);
      const sorted = (await app.service('users').find({
        query: { $sort: { name: 1 } },
        docdb: { collation },
        paginate: false,
      })) as Document[];
      expect(sorted.map((u) => u.name)).toEqual(['alice', 'Bob', 'Carl', 'dora']);
      const page = (await app
        .service('users')
        .find({ query: { name: 'BOB' }, collation })) as Paginated<Document>;
      expect(page.total).toBe(1);
    });

    it('patch and remove with id null use the collation to match', async () => {
      const patched = (await app
        .service('users')
        .patch(null, { vip: true }, { query: { name: 'ALICE' }, collation })) as Document[];
      expect(patched.map((u) => u.name)).toEqual(['alice']);
      const removed = (await app
        .service('users')
        .remove(null, { query: { name: { $in: ['BOB', 'DORA'] } }, collation })) as Document[];
      expect(removed.map((u) => u.name).sort()).toEqual(['Bob', 'dora']);
      expect(await users.countDocuments()).toBe(2);
    });
  });

  describe('transactions', () => {
    it('commit and abort through session.withTransaction with params.docdb.session', async (context) => {
      // A standalone MongoDB server (MONGODB_URL without a replica set) has no transactions.
      if (!database.transactions) context.skip();
      const session = database.client.startSession();
      try {
        await session.withTransaction(async () => {
          const params = { docdb: { session } } as DocDbParams;
          const created = await app.service('users').create({ name: 'Txn', email: 't@x.io' }, params);
          expect(created).toMatchObject({ name: 'Txn' });
          await app.service('users').patch(String((created as Document)._id), { email: 't2@x.io' }, params);
        });
        expect(await users.findOne({ name: 'Txn' })).toMatchObject({ email: 't2@x.io' });

        await expect(
          session.withTransaction(async () => {
            await app.service('users').create({ name: 'Aborted' }, { docdb: { session } });
            throw new Error('roll back');
          }),
        ).rejects.toThrow('roll back');
        expect(await users.findOne({ name: 'Aborted' })).toBeNull();
      } finally {
        await session.endSession();
      }
    });
  });

  describe('update operators', () => {
    it('patch accepts native update operators next to plain fields', async () => {
      const [first] = await messages.find({ text: 'one' }).toArray();
      const id = String(first?._id);
      const patched = await app.service('messages').patch(id, {
        text: 'uno',
        $push: { tags: 'z' },
        $inc: { votes: 5 },
        $addToSet: { labels: 'l' },
      });
      expect(patched).toMatchObject({ text: 'uno', votes: 6, tags: ['a', 'z'], labels: ['l'] });
      await expect(
        app.service('messages').patch(id, { $push: { tags: 'y' }, $pull: { tags: 'a' } }),
      ).rejects.toMatchObject({ code: 400 });
      const unset = (await app.service('messages').patch(id, { $unset: { tags: '' } })) as Document;
      expect(unset.tags).toBeUndefined();
    });

    it('update accepts native update operators', async () => {
      const [first] = await messages.find({ text: 'one' }).toArray();
      const updated = await app
        .service('messages')
        .update(String(first?._id), { $set: { text: 'set' }, $inc: { votes: 1 } });
      expect(updated).toMatchObject({ text: 'set', votes: 2, tags: ['a'] });
      await expect(
        app.service('messages').update(String(first?._id), { $set: { a: 1 }, text: 'mixed' }),
      ).rejects.toMatchObject({ code: 400 });
    });

    it('$rename is refused with 400, and so is any operator in disabledOperators', async () => {
      const [first] = await messages.find({ text: 'one' }).toArray();
      const id = String(first?._id);
      await expect(app.service('messages').patch(id, { $rename: { text: 'body' } })).rejects.toMatchObject({
        code: 400,
        message: expect.stringContaining('$rename'),
      });
      app.use('strict', new DocDbService({ Model: messages, disabledOperators: ['$rename', '$unset'] }));
      await expect(app.service('strict').patch(id, { $unset: { text: '' } })).rejects.toMatchObject({
        code: 400,
      });
      expect(await messages.findOne({ text: 'one' })).not.toBeNull();
    });
  });

  describe('object ids', () => {
    it('converts ids inside $in, $nin, $ne, $or and $and', async () => {
      const [a, b, c] = userIds.map(String);
      const service = app.service('users');
      const find = async (query: Document) =>
        ((await service.find({ query, paginate: false })) as Document[]).map((u) => u.name as string).sort();
      expect(await find({ _id: { $in: [a, b] } })).toEqual(['Bob', 'alice']);
      expect(await find({ _id: { $nin: [a, b] } })).toEqual(['Carl', 'dora']);
      expect(await find({ _id: { $ne: a }, name: { $in: ['alice', 'Bob'] } })).toEqual(['Bob']);
      expect(await find({ $or: [{ _id: a }, { _id: c }] })).toEqual(['Carl', 'alice']);
      expect(await find({ $and: [{ _id: b }] })).toEqual(['Bob']);
      expect(await find({ _id: a })).toEqual(['alice']);
    });

    it.each([
      ['a 12-character string', 'abcdefghijkl'],
      ['a short string', 'nope'],
      ['an over-long hex string', 'a'.repeat(25)],
      ['an object', { $gt: '' }],
      ['an array', ['x']],
    ])('rejects %s as an id with 400 naming it', async (_label, bad) => {
      const service = app.service('users');
      const error = await service.get(bad as string).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 400, message: expect.stringContaining('Invalid id') });
      await expect(service.remove(bad as string)).rejects.toMatchObject({ code: 400 });
      expect(await users.countDocuments()).toBe(4);
    });

    it('rejects an invalid id inside a query with 400', async () => {
      await expect(app.service('users').find({ query: { _id: { $in: ['zzz'] } } })).rejects.toMatchObject({
        code: 400,
        message: expect.stringContaining("'zzz'"),
      });
    });

    it('disableObjectify keeps string ids', async () => {
      const plain = database.collection('plain');
      app.use('plain', new DocDbService({ Model: plain, disableObjectify: true }));
      await app.service('plain').create({ _id: 'my-id', value: 1 });
      expect(await app.service('plain').get('my-id')).toMatchObject({ _id: 'my-id', value: 1 });
    });
  });

  describe('errors', () => {
    beforeEach(async () => {
      await users.createIndex({ email: 1 }, { unique: true, name: 'secret_index_name' });
    });

    it('duplicate keys are 409 Conflict naming the field, not the index or database, on create, update and patch', async () => {
      const service = app.service('users');
      for (const call of [
        () => service.create({ name: 'dup', email: 'a@x.io' }),
        () =>
          service.create([
            { name: 'ok', email: 'new@x.io' },
            { name: 'dup', email: 'a@x.io' },
          ]),
        () => service.update(String(userIds[1]), { name: 'Bob', email: 'a@x.io' }),
        () => service.patch(String(userIds[1]), { email: 'a@x.io' }),
        () => service.patch(null, { email: 'a@x.io' }, { query: { name: 'Bob' } }),
      ]) {
        const error = (await call().catch((e: unknown) => e)) as {
          code: number;
          message: string;
          toJSON(): unknown;
        };
        expect(error).toMatchObject({ code: 409, name: 'Conflict' });
        expect(error.message).toContain("'email'");
        const json = JSON.stringify(error.toJSON());
        expect(json).not.toContain('secret_index_name');
        expect(json).not.toContain(database.db.databaseName);
      }
      expect(await users.countDocuments()).toBe(4);
      expect(await users.findOne({ email: 'new@x.io' })).toBeNull();
    });
  });

  describe('counting', () => {
    it('useEstimatedDocumentCount counts unfiltered totals with estimatedDocumentCount', async () => {
      const calls: string[] = [];
      const spy = new Proxy(users, {
        get(target, key, receiver) {
          const value = Reflect.get(target, key, receiver) as unknown;
          if (key === 'estimatedDocumentCount' || key === 'countDocuments') calls.push(String(key));
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      app.use(
        'estimated',
        new DocDbService({ Model: spy, paginate: { default: 2 }, useEstimatedDocumentCount: true }),
      );
      expect(await app.service('estimated').find()).toMatchObject({ total: 4 });
      expect(await app.service('estimated').find({ query: { name: 'Bob' } })).toMatchObject({ total: 1 });
      expect(calls).toEqual(['estimatedDocumentCount', 'countDocuments']);
    });
  });

  describe('server-only params', () => {
    it('a client cannot smuggle pipeline, docdb or adapter through params.query', async () => {
      const service = app.service('messages');
      const asField = (await service.find({ query: { pipeline: '[{"$match":{}}]' } })) as Paginated<Document>;
      expect(asField.total).toBe(0);
      await expect(service.find({ query: { pipeline: [{ $match: {} }] } })).rejects.toMatchObject({
        code: 400,
        message: expect.stringContaining('$match'),
      });
      await expect(service.find({ query: { $pipeline: [] } })).rejects.toMatchObject({ code: 400 });
      await expect(service.find({ query: { $where: 'true' } })).rejects.toMatchObject({ code: 400 });
      const withDocdb = (await service.find({ query: { docdb: { hint: 'x' } } })) as Paginated<Document>;
      expect(withDocdb.total).toBe(0);
      await expect(
        service.find({ query: { text: { $lookup: { from: users.collectionName } } } }),
      ).rejects.toMatchObject({ code: 400 });
    });

    it('params.docdb options such as upsert reach the driver', async () => {
      const id = new ObjectId().toHexString();
      const upserted = await app
        .service('messages')
        .patch(id, { text: 'upserted' }, { docdb: { upsert: true } });
      expect(upserted).toMatchObject({ text: 'upserted' });
      expect(String((upserted as Document)._id)).toBe(id);
      await expect(
        app.service('messages').patch(new ObjectId().toHexString(), { text: 'x' }),
      ).rejects.toMatchObject({
        code: 404,
      });
    });

    it('params.docdb reaches every driver call, including the re-read after insert', async () => {
      const seen: string[] = [];
      const spy = new Proxy(messages, {
        get(target, key, receiver) {
          const value = Reflect.get(target, key, receiver) as unknown;
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            const options = args.find((a) => typeof a === 'object' && a !== null && 'comment' in a) as
              Document | undefined;
            seen.push(`${String(key)}:${options?.comment === 'tag' ? 'yes' : 'no'}`);
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      });
      app.use('spied', new DocDbService({ Model: spy, multi: true, paginate: { default: 5 } }));
      const params = { docdb: { comment: 'tag' } } as DocDbParams;
      const created = (await app.service('spied').create({ text: 'x' }, params)) as Document;
      await app.service('spied').patch(String(created._id), { text: 'y' }, params);
      await app.service('spied').find(params);
      await app.service('spied').remove(null, { ...params, query: { text: 'y' } });
      expect(seen.length).toBeGreaterThan(4);
      expect(seen.filter((entry) => entry.endsWith(':no'))).toEqual([]);
    });
  });
});
