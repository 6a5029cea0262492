import { ObjectId, type Collection, type Document } from 'mongodb';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp, type Application, type Paginated } from 'plume';
import { coerceQuery } from 'plume/adapter';
import { DocDbService, type DocDbParams, type DocDbServiceOptions } from 'plume/docdb';
import { databases, type TestDatabase } from './databases.js';

type Person = { _id: ObjectId; customid?: string; name: string; age: number; created?: boolean };

/** The two id layouts every method is checked with. */
const idLayouts = [
  { label: '_id', id: '_id' },
  { label: 'custom id field', id: 'customid' },
] as const;

describe.each(databases)('DocDbService conformance on $name', (factory) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await factory.start();
  });
  afterAll(async () => {
    await database?.stop();
  });

  it('refuses to construct without a Model', () => {
    expect(() => new DocDbService({} as DocDbServiceOptions)).toThrow(/Model/);
  });

  describe.each(idLayouts)('with $label', ({ id }) => {
    let app: Application;
    let collection: Collection<Document>;
    let service: DocDbService<Person>;
    let doug: Person;

    /** The id of a record as the service exposes it. */
    const idOf = (record: Document): string => String(record[id]);

    function register(options: Partial<DocDbServiceOptions> = {}): DocDbService<Person> {
      const created = new DocDbService<Person>({
        Model: collection,
        id,
        paginate: { default: 10, max: 50 },
        ...options,
      });
      app.use('people', created, { events: [] });
      return created;
    }
    const people = () => app.service('people');

    beforeEach(async () => {
      app = createApp();
      collection = database.collection('people');
      service = register();
      doug = (await people().create({ name: 'Doug', age: 32 })) as Person;
    });
    afterEach(async () => {
      await collection.drop().catch(() => undefined);
    });

    it('create returns the stored record with a generated id', async () => {
      expect(doug).toMatchObject({ name: 'Doug', age: 32 });
      expect(doug._id).toBeInstanceOf(ObjectId);
      if (id === 'customid') expect(doug.customid).toMatch(/^[0-9a-f]{24}$/);
      expect(await collection.countDocuments()).toBe(1);
    });

    it('_create with an invalid $select writes nothing (400 before the insert)', async () => {
      await expect(
        service._create({ name: 'Nobody', age: 1 }, { query: { $select: { bad: 1 } } }),
      ).rejects.toMatchObject({ code: 400 });
      expect(await collection.countDocuments({ name: 'Nobody' })).toBe(0);
    });

    it('create keeps a given custom id', async () => {
      if (id !== 'customid') return;
      const given = (await people().create({ customid: 'mine', name: 'Own', age: 1 })) as Person;
      expect(given.customid).toBe('mine');
      expect(await people().get('mine')).toMatchObject({ name: 'Own' });
    });

    it('get returns the record by its id, with $select', async () => {
      expect(await people().get(idOf(doug))).toMatchObject({ name: 'Doug', age: 32 });
      const selected = (await people().get(idOf(doug), { query: { $select: ['name'] } })) as Document;
      expect(selected.name).toBe('Doug');
      expect(selected.age).toBeUndefined();
      expect(idOf(selected)).toBe(idOf(doug));
    });

    it('get, update, patch and remove answer 404 for a missing id', async () => {
      const missing = id === '_id' ? new ObjectId().toHexString() : 'nobody';
      const message = `No record found for id '${missing}'`;
      await expect(people().get(missing)).rejects.toMatchObject({ code: 404, message });
      await expect(people().update(missing, { name: 'x', age: 1 })).rejects.toMatchObject({
        code: 404,
        message,
      });
      await expect(people().patch(missing, { name: 'x' })).rejects.toMatchObject({ code: 404, message });
      await expect(people().remove(missing)).rejects.toMatchObject({ code: 404, message });
    });

    it('get, update, patch and remove answer 404 when params.query does not match the id', async () => {
      const params = { query: { name: 'Not Doug' } };
      const docId = idOf(doug);
      await expect(people().get(docId, params)).rejects.toMatchObject({ code: 404 });
      await expect(people().update(docId, { name: 'x', age: 1 }, params)).rejects.toMatchObject({
        code: 404,
      });
      await expect(people().patch(docId, { name: 'x' }, params)).rejects.toMatchObject({ code: 404 });
      await expect(people().remove(docId, params)).rejects.toMatchObject({ code: 404 });
      expect(await people().get(docId)).toMatchObject({ name: 'Doug', age: 32 });
    });

    it('get, patch and remove with a query send the id next to its fields, so the id index finds the record', async () => {
      // MongoDB manual, "Query Documents": a filter with several fields matches documents that satisfy
      // all of them (implicit AND). The embedded database only uses the _id index for a top-level _id.
      const stored = id === '_id' ? doug._id : doug.customid;
      const filters: Document[] = [];
      for (const method of ['findOne', 'findOneAndUpdate', 'findOneAndDelete'] as const) {
        const original = collection[method].bind(collection) as (
          filter: Document,
          ...rest: unknown[]
        ) => unknown;
        (collection as unknown as Record<string, unknown>)[method] = (
          filter: Document,
          ...rest: unknown[]
        ) => {
          filters.push(filter);
          return original(filter, ...rest);
        };
      }
      const params = { query: { name: 'Doug' } };
      expect(await people().get(idOf(doug), params)).toMatchObject({ age: 32 });
      expect(await people().patch(idOf(doug), { age: 33 }, params)).toMatchObject({ age: 33 });
      expect(await people().remove(idOf(doug), params)).toMatchObject({ age: 33 });
      expect(filters).toEqual([
        { name: 'Doug', [id]: stored },
        { name: 'Doug', [id]: stored },
        { name: 'Doug', [id]: stored },
      ]);
    });

    it('a query with its own condition on the id field must match as well as the id', async () => {
      const other = (await people().create({ name: 'Other', age: 5 })) as Person;
      const docId = idOf(doug);
      expect(await people().get(docId, { query: { [id]: { $in: [docId, idOf(other)] } } })).toMatchObject({
        name: 'Doug',
      });
      await expect(people().get(docId, { query: { [id]: { $in: [idOf(other)] } } })).rejects.toMatchObject({
        code: 404,
      });
      await expect(people().get(docId, { query: { [id]: idOf(other) } })).rejects.toMatchObject({
        code: 404,
      });
    });

    it('update replaces the record and keeps its id; $select shapes the result', async () => {
      const updated = (await people().update(
        idOf(doug),
        { name: 'Dougie', age: 33 },
        { query: { $select: ['name'] } },
      )) as Document;
      expect(updated.name).toBe('Dougie');
      expect(updated.age).toBeUndefined();
      expect(idOf(updated)).toBe(idOf(doug));
      expect(await people().get(idOf(doug))).toMatchObject({ name: 'Dougie', age: 33 });
    });

    it('update with a query on the field being changed still returns the new record', async () => {
      const updated = await people().update(
        idOf(doug),
        { name: 'Renamed', age: 1 },
        { query: { name: 'Doug' } },
      );
      expect(updated).toMatchObject({ name: 'Renamed' });
    });

    it('patch changes only the given fields; $select shapes the result', async () => {
      const patched = (await people().patch(
        idOf(doug),
        { age: 40 },
        { query: { $select: ['age'] } },
      )) as Document;
      expect(patched.age).toBe(40);
      expect(patched.name).toBeUndefined();
      expect(await people().get(idOf(doug))).toMatchObject({ name: 'Doug', age: 40 });
    });

    it('remove deletes and returns the record, with $select', async () => {
      const removed = (await people().remove(idOf(doug), { query: { $select: ['name'] } })) as Document;
      expect(removed).toMatchObject({ name: 'Doug' });
      expect(removed.age).toBeUndefined();
      await expect(people().get(idOf(doug))).rejects.toMatchObject({ code: 404 });
    });

    it('create with $select returns only the selected fields and the id', async () => {
      const created = (await people().create(
        { name: 'Sel', age: 5 },
        { query: { $select: ['name'] } },
      )) as Document;
      expect(created.name).toBe('Sel');
      expect(created.age).toBeUndefined();
      expect(created[id]).toBeDefined();
    });

    describe('find', () => {
      beforeEach(async () => {
        await service.create(
          [
            { name: 'Alice', age: 19 },
            { name: 'Bob', age: 25 },
            { name: 'Carol', age: 40 },
          ] as Partial<Person>[],
          { adapter: { multi: true } },
        );
      });

      it('paginates with default and max, $skip, $sort and $select', async () => {
        const page = (await people().find({
          query: { $sort: { age: -1 }, $skip: 1, $limit: 2, $select: ['name'] },
        })) as Paginated<Document>;
        expect(page.total).toBe(4);
        expect(page.limit).toBe(2);
        expect(page.skip).toBe(1);
        expect(page.data.map((p) => p.name)).toEqual(['Doug', 'Bob']);
        expect(page.data[0]?.age).toBeUndefined();
      });

      it('caps $limit at paginate.max', async () => {
        app.use('capped', new DocDbService({ Model: collection, id, paginate: { default: 1, max: 2 } }));
        const page = (await app.service('capped').find({ query: { $limit: 100 } })) as Paginated<Document>;
        expect(page.limit).toBe(2);
        expect(page.data).toHaveLength(2);
        expect(((await app.service('capped').find()) as Paginated<Document>).data).toHaveLength(1);
      });

      it('$limit: 0 returns only the total', async () => {
        expect(await people().find({ query: { $limit: 0, age: { $gt: 20 } } })).toEqual({
          total: 3,
          limit: 0,
          skip: 0,
          data: [],
        });
      });

      it('params.paginate false and params.adapter.paginate false return plain arrays', async () => {
        expect(await people().find({ paginate: false, query: { $sort: { age: 1 } } })).toHaveLength(4);
        expect(await people().find({ adapter: { paginate: false } })).toHaveLength(4);
        const overridden = (await people().find({
          adapter: { paginate: { default: 1 } },
        })) as Paginated<Document>;
        expect(overridden.data).toHaveLength(1);
      });

      it('supports the standard operators, $or and $and', async () => {
        const query = {
          $or: [{ name: 'Alice' }, { age: { $gte: 40 } }],
          $and: [{ name: { $ne: 'Carol' } }, { name: { $nin: ['Bob'] } }],
          $sort: { name: 1 },
        };
        const found = (await people().find({ query, paginate: false })) as Document[];
        expect(found.map((p) => p.name)).toEqual(['Alice']);
        const inList = (await people().find({
          query: { name: { $in: ['Bob', 'Carol'] }, age: { $lt: 30, $lte: 25, $gt: 0 } },
          paginate: false,
        })) as Document[];
        expect(inList.map((p) => p.name)).toEqual(['Bob']);
      });

      it('rejects an operator outside the allow-list with 400 naming it, and accepts allowed ones', async () => {
        await expect(people().find({ query: { name: { $regex: '^A' } } })).rejects.toMatchObject({
          code: 400,
          message: expect.stringContaining('$regex'),
        });
        app.use('search', new DocDbService({ Model: collection, id, operators: ['$regex', '$options'] }));
        const found = (await app
          .service('search')
          .find({ query: { name: { $regex: '^a', $options: 'i' } } })) as Document[];
        expect(found.map((p) => p.name)).toEqual(['Alice']);
      });

      it('numeric strings from the URL work with a converter', async () => {
        app.use(
          'typed',
          new DocDbService({ Model: collection, id, converter: coerceQuery({ age: 'number' }) }),
        );
        const found = (await app
          .service('typed')
          .find({ query: { age: { $gt: '20' }, $sort: { age: '1' } } })) as Document[];
        expect(found.map((p) => p.name)).toEqual(['Bob', 'Doug', 'Carol']);
        await expect(app.service('typed').find({ query: { age: 'old' } })).rejects.toMatchObject({
          code: 400,
        });
      });
    });

    describe('multi', () => {
      it('is off by default: create with an array, patch and remove with id null answer 405', async () => {
        await expect(people().create([{ name: 'A', age: 1 }])).rejects.toMatchObject({ code: 405 });
        await expect(people().patch(null, { age: 1 })).rejects.toMatchObject({
          code: 405,
          message: 'Can not patch multiple entries',
        });
        await expect(people().remove(null)).rejects.toMatchObject({ code: 405 });
        expect(await collection.countDocuments()).toBe(1);
      });

      it('update with id null answers 400', async () => {
        await expect(people().update(null, { name: 'x', age: 1 })).rejects.toMatchObject({ code: 400 });
      });

      it('multi: true allows all of them', async () => {
        app.use('all', new DocDbService({ Model: collection, id, multi: true }));
        const all = app.service('all');
        const created = (await all.create([
          { name: 'A', age: 1 },
          { name: 'B', age: 2 },
        ])) as Document[];
        expect(created.map((p) => p.name)).toEqual(['A', 'B']);
        const patched = (await all.patch(null, { age: 9 }, { query: { age: { $lt: 5 } } })) as Document[];
        expect(patched.map((p) => p.age)).toEqual([9, 9]);
        const removed = (await all.remove(null, { query: { age: 9 } })) as Document[];
        expect(removed).toHaveLength(2);
        expect(await collection.countDocuments()).toBe(1);
      });

      it('multi as a method list allows only those methods', async () => {
        app.use('listed', new DocDbService({ Model: collection, id, multi: ['remove'] }));
        const listed = app.service('listed');
        await expect(listed.create([{ name: 'A', age: 1 }])).rejects.toMatchObject({ code: 405 });
        await expect(listed.patch(null, { age: 1 })).rejects.toMatchObject({ code: 405 });
        expect(await listed.remove(null, { query: { name: 'Doug' } })).toHaveLength(1);
      });

      it('params.adapter.multi overrides the option for one call', async () => {
        const params: DocDbParams = { adapter: { multi: ['patch'] }, query: { name: 'Doug' } };
        expect(await people().patch(null, { age: 50 }, params)).toMatchObject([{ age: 50 }]);
      });

      it('patch with id null re-reads the changed records even when the query no longer matches them', async () => {
        const patched = (await people().patch(
          null,
          { name: 'Changed' },
          { adapter: { multi: true }, query: { name: 'Doug' } },
        )) as Document[];
        expect(patched.map((p) => p.name)).toEqual(['Changed']);
      });
    });

    it('emits created, patched, updated and removed events through app.use', async () => {
      const events: string[] = [];
      for (const event of ['created', 'updated', 'patched', 'removed']) {
        people().on(event, (record: unknown) =>
          events.push(`${event}:${(record as Document).name as string}`),
        );
      }
      const created = (await people().create({ name: 'Eve', age: 1 })) as Document;
      await people().update(idOf(created), { name: 'Eve2', age: 2 });
      await people().patch(idOf(created), { name: 'Eve3' });
      await people().remove(idOf(created));
      expect(events).toEqual(['created:Eve', 'updated:Eve2', 'patched:Eve3', 'removed:Eve3']);
    });
  });
});
