import { MongoClient, ObjectId } from 'mongodb6';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from 'plume';
import { DocDbService, type DocDbServiceOptions, type ObjectIdClass } from 'plume/docdb';
import { databases } from './databases.js';

// The embedded database (or MONGODB_URL) through the mongodb@6 driver: a Model from another major
// version of the driver works once the service is given that driver's ObjectId class.
describe.each(databases)('DocDbService with a mongodb@6 collection on $name', (factory) => {
  let client: MongoClient;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    const database = await factory.start();
    const uri =
      process.env.MONGODB_URL && factory.name === 'MONGODB_URL' ? process.env.MONGODB_URL : undefined;
    // Reuse the started server: connect a second, v6 client to the same address.
    const address = uri ?? database.client.options.hosts[0]?.toString() ?? '';
    client = await MongoClient.connect(uri ?? `mongodb://${address}/`);
    stop = async () => {
      await client.close();
      await database.stop();
    };
  });
  afterAll(async () => {
    await stop?.();
  });

  it('creates, reads, patches and removes with ids of the v6 ObjectId class', async () => {
    const collection = client.db(`plume_v6_${Date.now()}`).collection('items');
    const app = createApp();
    app.use(
      'items',
      new DocDbService({
        Model: collection as unknown as DocDbServiceOptions['Model'],
        ObjectId: ObjectId as unknown as ObjectIdClass,
        multi: true,
      }),
    );
    const items = app.service('items');
    const created = (await items.create({ name: 'v6' })) as { _id: unknown };
    expect(created._id).toBeInstanceOf(ObjectId);
    const id = String(created._id);
    expect(await items.get(id)).toMatchObject({ name: 'v6' });
    expect(await items.find({ query: { _id: { $in: [id] } } })).toHaveLength(1);
    expect(await items.patch(null, { name: 'patched' }, { query: { _id: id } })).toMatchObject([
      { name: 'patched' },
    ]);
    expect(await items.remove(id)).toMatchObject({ name: 'patched' });
    await collection.drop().catch(() => undefined);
  });
});
