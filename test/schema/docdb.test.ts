import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MongoClient, ObjectId, type Collection, type Document } from 'mongodb';
import { createApp } from 'plume';
import { DocDbService } from 'plume/docdb';
import { startEmbeddedServer } from 'plume/embedded';
import { createHandler, toRuntimeHandler } from 'plume/http';
import {
  createDataValidator,
  createQueryValidator,
  getValidator,
  ObjectIdSchema,
  querySyntax,
  resolve,
  resolveExternal,
  Type,
  validateData,
  validateQuery,
} from 'plume/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The schema helpers on a real DocDbService: validated queries are trusted by the adapter as they are.
const queryAjv = createQueryValidator();
const dataAjv = createDataValidator();
const messageSchema = Type.Object(
  {
    _id: ObjectIdSchema(),
    userId: ObjectIdSchema(),
    text: Type.String(),
    createdAt: Type.Integer({ minimum: 0 }),
    secret: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
const dataSchema = Type.Omit(messageSchema, ['_id']);
const querySchema = querySyntax(Type.Pick(messageSchema, ['_id', 'userId', 'text', 'createdAt']), {
  text: { $regex: Type.String(), $options: Type.String() },
});

const userA = new ObjectId();
const userB = new ObjectId();
let stopDatabase: () => Promise<void> = async () => undefined;
let client: MongoClient;
let collection: Collection<Document>;
let url = '';
let closeServer: () => Promise<void> = async () => undefined;

beforeAll(async () => {
  let uri = process.env.MONGODB_URL;
  if (!uri) {
    const server = await startEmbeddedServer();
    uri = server.uri;
    stopDatabase = () => server.stop();
  }
  client = await MongoClient.connect(uri);
  collection = client.db('plume_schema_test').collection(`messages_${new ObjectId().toHexString()}`);

  const app = createApp();
  app.use(
    'messages',
    new DocDbService({ Model: Promise.resolve(collection), paginate: { default: 10, max: 50 } }),
  );
  app.service('messages').hooks({
    around: { all: [resolveExternal(resolve({ secret: () => undefined }))] },
    before: {
      find: [validateQuery(getValidator(querySchema, queryAjv))],
      create: [validateData(getValidator(dataSchema, dataAjv))],
    },
  });
  const server = createServer(toRuntimeHandler(createHandler(app)));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  await app.setup(server);
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closeServer = () => new Promise<void>((done) => server.close(() => done()));

  for (const [userId, text, createdAt] of [
    [userA, 'Hello there', 1000],
    [userA, 'second', 2000],
    [userB, 'hello again', 3000],
  ] as const) {
    const response = await fetch(`${url}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userId: userId.toHexString(), text, createdAt, secret: 's' }),
    });
    expect(response.status).toBe(201);
  }
});

afterAll(async () => {
  await closeServer();
  await collection.drop().catch(() => undefined);
  await client.close();
  await stopDatabase();
});

async function find(query: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}/messages?${query}`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

function texts(body: Record<string, unknown>): string[] {
  return (body.data as { text: string }[]).map((m) => m.text);
}

describe('schema helpers with DocDbService', () => {
  it('stores ids sent as strings as ObjectIds (objectid keyword on create)', async () => {
    expect(await collection.countDocuments({ userId: userA })).toBe(2);
  });

  it('finds by id strings converted inside $in and $ne', async () => {
    const inList = await find(`userId[$in][]=${userB.toHexString()}&$sort[createdAt]=1`);
    expect(inList.status).toBe(200);
    expect(texts(inList.body)).toEqual(['hello again']);
    const notEqual = await find(`userId[$ne]=${userA.toHexString()}`);
    expect(texts(notEqual.body)).toEqual(['hello again']);
    const direct = await find(`userId=${userA.toHexString()}&$sort[createdAt]=-1`);
    expect(texts(direct.body)).toEqual(['second', 'Hello there']);
  });

  it('coerces numbers, applies $limit/$skip and hides the secret', async () => {
    const { status, body } = await find('createdAt[$gte]=2000&$sort[createdAt]=1&$limit=1&$skip=1');
    expect(status).toBe(200);
    expect(body).toMatchObject({ total: 2, limit: 1, skip: 1 });
    expect(texts(body)).toEqual(['hello again']);
    expect(body.data as unknown[]).not.toContainEqual(expect.objectContaining({ secret: 's' }));
  });

  it('allows $regex and $options only where the schema adds them', async () => {
    const ok = await find('text[$regex]=^hello&text[$options]=i&$sort[createdAt]=1');
    expect(texts(ok.body)).toEqual(['Hello there', 'hello again']);
    const refused = await find('userId[$regex]=a');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain("'$regex'");
  });

  it('rejects an invalid id in a query and a create with 400', async () => {
    const query = await find('userId=abcdefghijkl');
    expect(query.status).toBe(400);
    const create = await fetch(`${url}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userId: 'abcdefghijkl', text: 'x', createdAt: 1 }),
    });
    expect(create.status).toBe(400);
    expect(((await create.json()) as { message: string }).message).toContain('/userId');
    expect(await collection.countDocuments({})).toBe(3);
  });
});
