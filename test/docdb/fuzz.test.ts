import fc from 'fast-check';
import type { Collection, Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from 'plume';
import { DocDbService } from 'plume/docdb';
import { databases, type TestDatabase } from './databases.js';

describe.each(databases)('DocDbService with arbitrary client queries on $name', (factory) => {
  let database: TestDatabase;
  let collection: Collection<Document>;
  const app = createApp();

  beforeAll(async () => {
    database = await factory.start();
    collection = database.collection('fuzz');
    await collection.insertMany([
      { name: 'a', age: 1, tags: ['x'] },
      { name: 'b', age: 2, tags: [] },
    ]);
    app.use(
      'fuzz',
      new DocDbService({
        Model: collection,
        paginate: { default: 5, max: 10 },
        multi: true,
        operators: ['$regex', '$options', '$exists'],
      }),
    );
  });
  afterAll(async () => {
    await database?.stop();
  });

  it('find, get and remove either succeed or answer 400/404, never 500, and never remove without multi matches', async () => {
    const field = fc.constantFrom('name', 'age', 'tags', '_id', 'missing', 'a.b');
    const scalar = fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.constant('0123456789abcdef01234567'),
    );
    const operand = fc.oneof(
      scalar,
      fc.array(scalar, { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 3 }), scalar, { maxKeys: 2 }),
    );
    const operator = fc.constantFrom(
      '$in',
      '$nin',
      '$lt',
      '$lte',
      '$gt',
      '$gte',
      '$ne',
      '$regex',
      '$options',
      '$exists',
      '$foo',
    );
    const condition = fc.oneof(scalar, fc.dictionary(operator, operand, { minKeys: 1, maxKeys: 2 }));
    const filters = fc.record(
      {
        $limit: fc.oneof(fc.nat(30), fc.string({ maxLength: 3 })),
        $skip: fc.oneof(fc.nat(5), fc.string({ maxLength: 3 })),
        $sort: fc.dictionary(field, fc.constantFrom(1, -1, '1', 'asc', 'x')),
        $select: fc.oneof(fc.array(field, { maxLength: 3 }), fc.string({ maxLength: 6 })),
      },
      { requiredKeys: [] },
    );
    const query = fc
      .tuple(fc.dictionary(field, condition, { maxKeys: 3 }), filters)
      .map(([q, f]) => ({ ...q, ...f }));
    await fc.assert(
      fc.asyncProperty(query, fc.constantFrom('find', 'get', 'remove'), async (q, method) => {
        const service = app.service('fuzz');
        const call =
          method === 'find'
            ? service.find({ query: q })
            : method === 'get'
              ? service.get('0123456789abcdef01234567', { query: q })
              : service.remove('0123456789abcdef01234567', { query: q });
        const outcome = await call.then(
          () => 200,
          (error: { code?: number }) => error.code,
        );
        expect([200, 400, 404]).toContain(outcome);
      }),
      { numRuns: 300 },
    );
    expect(await collection.countDocuments()).toBe(2);
  });
});
