import type { Collection, Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coerceQuery } from 'plume/adapter';
import { DocDbService } from 'plume/docdb';
import { transports, type RunningServer } from '../transports/servers.js';
import { databases, type TestDatabase } from './databases.js';

const cases = databases.flatMap((database) => transports.map((transport) => ({ database, transport })));

describe.each(cases)(
  'DocDbService over HTTP ($transport.name, $database.name)',
  ({ database: factory, transport }) => {
    let database: TestDatabase;
    let server: RunningServer;
    let people: Collection<Document>;

    beforeAll(async () => {
      database = await factory.start();
      people = database.collection('people');
      await people.createIndex({ email: 1 }, { unique: true, name: 'hidden_index_name' });
      await people.insertMany([
        { name: 'Ann', age: 19, email: 'ann@x.io' },
        { name: 'Ben', age: 25, email: 'ben@x.io' },
        { name: 'Cat', age: 40, email: 'cat@x.io' },
      ]);
      const app = transport.createApp();
      app.use(
        'people',
        new DocDbService({
          Model: people,
          paginate: { default: 10, max: 20 },
          operators: ['$regex', '$options'],
          converter: coerceQuery({ age: 'number' }),
        }),
      );
      server = await transport.start(app);
    });
    afterAll(async () => {
      await server?.close();
      await database?.stop();
    });

    const get = async (path: string): Promise<{ status: number; body: any }> => {
      const response = await fetch(`${server.url}${path}`, { headers: { accept: 'application/json' } });
      return { status: response.status, body: await response.json() };
    };
    const send = async (
      method: string,
      path: string,
      body: unknown,
    ): Promise<{ status: number; body: any }> => {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    };

    it('?age[$gt]=20 matches stored numbers through the converter', async () => {
      const { status, body } = await get('/people?age[$gt]=20&$sort[age]=1');
      expect(status).toBe(200);
      expect(body.data.map((p: Document) => p.name)).toEqual(['Ben', 'Cat']);
      expect(body.total).toBe(2);
    });

    it('an integer a number cannot hold exactly is a 400 through the converter, not another number', async () => {
      // 2^53 + 1 reads as 2^53: the query would silently ask about another age.
      const rounded = await get('/people?age[$lt]=9007199254740993');
      expect(rounded.status).toBe(400);
      expect(rounded.body.message).toBe(
        "Invalid value '9007199254740993' for 'age': expected an integer a number holds exactly (it would be 9007199254740992)",
      );
      expect((await get('/people?age[$lt]=9007199254740992')).body.total).toBe(3);
      expect((await get('/people?age[$lt]=19.00000000000000001')).body.total).toBe(0); // a fraction: the nearest number
    });

    it('paginates with $limit capped at max and $limit=0 for counts', async () => {
      expect((await get('/people?$limit=1000')).body.limit).toBe(20);
      expect((await get('/people?$limit=0')).body).toEqual({ total: 3, limit: 0, skip: 0, data: [] });
    });

    it('allows listed operators and rejects others with a 400 naming them', async () => {
      expect((await get('/people?name[$regex]=^a&name[$options]=i')).body.total).toBe(1);
      const refused = await get('/people?name[$exists]=true');
      expect(refused.status).toBe(400);
      expect(refused.body.message).toContain('$exists');
      expect((await get('/people?$where=1')).status).toBe(400);
      expect((await get('/people?$limit=abc')).status).toBe(400);
    });

    it('a client cannot set pipeline, docdb or adapter: ?pipeline is a field, ?$pipeline is a 400', async () => {
      const asField = await get('/people?pipeline=%5B%5D&docdb[hint]=x');
      expect(asField.status).toBe(200);
      expect(asField.body.total).toBe(0);
      expect((await get('/people?$pipeline[0][$match][name]=Ann')).status).toBe(400);
      expect((await get('/people?adapter[paginate]=false')).body.total).toBe(0);
    });

    it('answers 400 for a malformed id and 404 for a missing one', async () => {
      const bad = await get('/people/abcdefghijkl');
      expect(bad.status).toBe(400);
      expect(bad.body.message).toContain('abcdefghijkl');
      const missing = await get('/people/0123456789abcdef01234567');
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe("No record found for id '0123456789abcdef01234567'");
    });

    it('answers 409 naming the field for a duplicate key, without the index name', async () => {
      const { status, body } = await send('POST', '/people', { name: 'Dup', email: 'ann@x.io' });
      expect(status).toBe(409);
      expect(body.message).toContain("'email'");
      expect(JSON.stringify(body)).not.toContain('hidden_index_name');
    });

    it('answers 405 for multi patch and remove when multi is off', async () => {
      expect((await send('PATCH', '/people', { age: 1 })).status).toBe(405);
      expect((await send('DELETE', '/people', {})).status).toBe(405);
      expect(await people.countDocuments({ age: 1 })).toBe(0);
    });
  },
);
