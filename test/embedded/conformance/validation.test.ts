import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

describe.each(drivers)('document validation conformance ($name)', (driver) => {
  const t = connect(driver, 'val');

  it('rejects inserts and updates that fail a query-operator validator with 121', async () => {
    await t.db.createCollection('qv', { validator: { age: { $gte: 0 }, name: { $type: 'string' } } });
    const coll = t.db.collection<any>('qv');
    await coll.insertOne({ name: 'ok', age: 3 });
    expect((await failure(() => coll.insertOne({ name: 'bad', age: -1 })))['code']).toBe(121);
    expect((await failure(() => coll.updateOne({ name: 'ok' }, { $set: { age: -5 } })))['code']).toBe(121);
    expect(await coll.find({}, { projection: { _id: 0 } }).toArray()).toEqual([{ name: 'ok', age: 3 }]);
  });

  it('enforces a $jsonSchema validator', async () => {
    await t.db.createCollection('js', {
      validator: {
        $jsonSchema: {
          bsonType: 'object',
          required: ['email'],
          properties: {
            email: { bsonType: 'string', pattern: '@' },
            tags: { bsonType: 'array', items: { bsonType: 'string' } },
            n: { bsonType: 'int', minimum: 1 },
          },
        },
      },
    });
    const coll = t.db.collection<any>('js');
    await coll.insertOne({ email: 'a@x', tags: ['t'], n: 2 });
    expect((await failure(() => coll.insertOne({ tags: [] })))['code']).toBe(121);
    expect((await failure(() => coll.insertOne({ email: 'nope' })))['code']).toBe(121);
    expect((await failure(() => coll.insertOne({ email: 'b@x', tags: [1] })))['code']).toBe(121);
    expect((await failure(() => coll.insertOne({ email: 'b@x', n: 0 })))['code']).toBe(121);
    expect(await coll.countDocuments()).toBe(1);
  });

  it('lets validationAction warn accept invalid documents', async () => {
    await t.db.createCollection('warn', { validator: { a: { $exists: true } }, validationAction: 'warn' });
    await t.db.collection<any>('warn').insertOne({ b: 1 });
    expect(await t.db.collection<any>('warn').countDocuments()).toBe(1);
  });

  it('applies a validator added with collMod', async () => {
    const coll = t.db.collection<any>('cm');
    await coll.insertOne({ a: 1 });
    await t.db.command({ collMod: 'cm', validator: { a: { $type: 'number' } } });
    expect((await failure(() => coll.insertOne({ a: 'x' })))['code']).toBe(121);
    await coll.insertOne({ a: 2 });
  });

  it('lets validationLevel moderate update documents that were already invalid', async () => {
    const coll = t.db.collection<any>('mod');
    await coll.insertOne({ _id: 1, a: 'legacy' });
    await t.db.command({
      collMod: 'mod',
      validator: { a: { $type: 'number' } },
      validationLevel: 'moderate',
    });
    await coll.updateOne({ _id: 1 }, { $set: { b: 1 } });
    expect((await failure(() => coll.insertOne({ a: 'x' })))['code']).toBe(121);
  });

  it('matches documents with $jsonSchema in a query', async () => {
    const coll = t.db.collection<any>('jsq');
    await coll.insertMany([{ _id: 1, v: 'a' }, { _id: 2, v: 5 }, { _id: 3 }]);
    const docs = await coll
      .find({ $jsonSchema: { required: ['v'], properties: { v: { bsonType: 'string' } } } })
      .toArray();
    expect(docs.map((d) => d['_id'])).toEqual([1]);
  });
});
