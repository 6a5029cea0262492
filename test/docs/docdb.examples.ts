/**
 * The examples of docs/docdb.md, type-checked and run by test/docs/examples.test.ts.
 * Keep each function identical to the snippet in the page it comes from.
 */
import { MongoClient, type Db, type Document } from 'mongodb';
import { createApp, type Application, type Paginated } from 'plume';
import { coerceQuery } from 'plume/adapter';
import { DocDbService, type DocDbParams } from 'plume/docdb';

/** "Creating a service": connecting (type-checked only: it needs a running MongoDB). */
export async function connectToMongo() {
  const client = await MongoClient.connect(process.env.MONGODB_URL ?? 'mongodb://127.0.0.1:27017');
  const db = client.db('myapp');
  const app = createApp();
  return { client, db, app };
}

/** "Creating a service": indexes and unique constraints inside the Model promise. */
export function registerUsers(app: Application, db: Db) {
  const Model = (async () => {
    const users = db.collection('users');
    await users.createIndex({ email: 1 }, { unique: true });
    await users.createIndex({ name: 'text', bio: 'text' });
    return users;
  })(); // not awaited: DocDbService takes the promise

  app.use(
    'users',
    new DocDbService({
      Model,
      paginate: { default: 10, max: 50 },
      multi: ['create', 'remove'],
      operators: ['$regex', '$options', '$text', '$search'],
      converter: coerceQuery({ age: 'integer', createdAt: 'number', active: 'boolean' }),
    }),
  );
}

/** "Queries": the common syntax, as server code writes it. */
export async function findAdults(app: Application) {
  return app.service('users').find({
    query: {
      age: { $gte: 18, $lt: 65 },
      name: { $nin: ['root', 'admin'] },
      $or: [{ active: true }, { role: { $in: ['owner', 'editor'] } }],
      $sort: { createdAt: -1 },
      $select: ['name', 'email'],
      $limit: 20,
      $skip: 0,
    },
  });
}

/** "Dates": store UTC millisecond timestamps. */
export async function createUser(app: Application) {
  return app.service('users').create({
    name: 'Ada',
    email: 'ada@example.com',
    age: 36,
    active: true,
    createdAt: Date.now(),
  });
}

/** "Pipelines": messages with their author, without the password. */
export function registerMessages(app: Application, db: Db) {
  app.use('messages', new DocDbService({ Model: db.collection('messages'), paginate: { default: 10 } }));
}

export async function findMessagesWithAuthor(app: Application) {
  const page = await app.service('messages').find({
    query: { $sort: { createdAt: -1 } },
    pipeline: [
      { $lookup: { from: 'users', localField: 'userId', foreignField: '_id', as: 'user' } },
      { $unwind: { path: '$user' } },
      { $project: { 'user.password': 0 } },
    ],
  });
  return page as Paginated<Document>;
}

/** "`$framework`": filter on a field the pipeline adds. */
export async function findMessagesOfActiveAuthors(app: Application) {
  return app.service('messages').find({
    query: { 'user.active': true },
    paginate: false,
    pipeline: [
      { $lookup: { from: 'users', localField: 'userId', foreignField: '_id', as: 'user' } },
      { $unwind: { path: '$user' } },
      { $framework: {} }, // the query ($match, $sort, $skip, $limit) goes here
      { $project: { text: 1, 'user.name': 1 } },
    ],
  });
}

/** "Full-text search": `$text` in a query, or a `$search` stage first in the pipeline. */
export async function searchUsers(app: Application, words: string) {
  const withText = await app.service('users').find({ query: { $text: { $search: words } }, paginate: false });
  const withStage = await app.service('users').find({
    query: { active: true },
    paginate: false,
    pipeline: [{ $search: { text: { query: words, path: ['name', 'bio'] } } }, { $framework: {} }],
  });
  return { withText, withStage };
}

/** "Collation": case-insensitive matching and sorting. */
export async function findCaseInsensitive(app: Application) {
  return app.service('users').find({
    query: { name: { $gte: 'c' }, $sort: { name: 1 } },
    collation: { locale: 'en', strength: 1 },
    paginate: false,
  });
}

/** "Transactions": one session for several calls. */
export async function transfer(app: Application, client: MongoClient, from: string, to: string) {
  const session = client.startSession();
  try {
    await session.withTransaction(async () => {
      const params: DocDbParams = { docdb: { session } };
      await app.service('accounts').patch(from, { $inc: { balance: -10 } }, params);
      await app.service('accounts').patch(to, { $inc: { balance: 10 } }, params);
    });
  } finally {
    await session.endSession(); // the caller ends the session
  }
}

/** "Creating, updating and removing": plain fields and update operators in one patch. */
export async function editMessage(app: Application, id: string) {
  await app.service('messages').patch(id, { text: 'edited', $inc: { edits: 1 }, $push: { tags: 'new' } });
}

/** "Custom ids": a slug as the primary key. */
export async function registerPages(app: Application, db: Db) {
  app.use('pages', new DocDbService({ Model: db.collection('pages'), id: 'slug' }));
  await app.service('pages').create({ slug: 'home', title: 'Home' });
  return app.service('pages').get('home');
}

/** "Raw access". */
export async function rawAccess(app: Application) {
  const service = app.service('users') as unknown as DocDbService;
  const stages = service.makeFeathersPipeline({ query: { active: true, $limit: 5 } });
  const cursor = await service.findRaw({ query: { active: true } });
  const collection = await service.getModel();
  return { stages, first: await cursor.next(), count: await collection.countDocuments() };
}

export function createExampleApp(): Application {
  return createApp();
}
