/**
 * Test-support commands drivers and ODM suites use: the `failCommand` fail point and `$listLocalSessions`.
 * Each case names where the expected behaviour comes from.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

describe.each(drivers)('fail points and session listing conformance ($name)', (driver) => {
  const t = connect(driver, 'failpoints');

  const failCommand = (mode: unknown, data: Record<string, unknown>) =>
    t.client.db('admin').command({ configureFailPoint: 'failCommand', mode, data });

  afterEach(async () => {
    await t.client.db('admin').command({ configureFailPoint: 'failCommand', mode: 'off' });
  });

  // Source: driver spec retryable-writes/tests/unified/insertOne-serverErrors.yml ("InsertOne succeeds after
  // retryable writeConcernError / error code": a failCommand with times: 1 fails the first attempt with a
  // retryable code, labelled RetryableWriteError by the server, and the driver's retry succeeds once).
  it('errorCode with times: 1 fails once; a retryable write is retried and applied once', async () => {
    const coll = t.db.collection<any>('retried');
    await failCommand({ times: 1 }, { failCommands: ['insert'], errorCode: 6 });
    await coll.insertOne({ _id: 1 });
    expect(await coll.find().toArray()).toEqual([{ _id: 1 }]);
    await failCommand({ times: 1 }, { failCommands: ['find'], errorCode: 2, errorLabels: [] });
    const error = await failure(() => coll.findOne({ _id: 1 }));
    expect(error['code']).toBe(2);
    expect(error['message']).toBe("Failing command via 'failCommand' failpoint");
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1 });
  });

  // Source: mongodb/specifications source/transactions/tests/README.md, "Server Fail Point": mode
  // alwaysOn / { times } / { skip } / { activationProbability } and data.appName restricts the fail
  // point to connections whose handshake named that application.
  it('honours skip and the appName filter', async () => {
    const other = new driver.MongoClient(t.uri, { appName: 'other-app', serverSelectionTimeoutMS: 5000 });
    try {
      await other.connect();
      await failCommand({ skip: 1 }, { failCommands: ['ping'], errorCode: 2, appName: 'target-app' });
      await t.db.command({ ping: 1 });
      await other.db('admin').command({ ping: 1 });
      const target = new driver.MongoClient(t.uri, { appName: 'target-app', serverSelectionTimeoutMS: 5000 });
      try {
        await target.connect();
        await target.db('admin').command({ ping: 1 }); // skipped
        expect((await failure(() => target.db('admin').command({ ping: 1 })))['code']).toBe(2);
        await other.db('admin').command({ ping: 1 });
      } finally {
        await target.close();
      }
    } finally {
      await other.close();
    }
  });

  // Source: mongodb/specifications source/transactions/tests/README.md, "Server Fail Point":
  // closeConnection closes the connection (the driver sees a network error), blockConnection with
  // blockTimeMS delays the reply.
  it('closeConnection drops the connection; blockConnection delays the reply', async () => {
    const noRetry = new driver.MongoClient(t.uri, { retryReads: false, serverSelectionTimeoutMS: 5000 });
    try {
      await noRetry.connect();
      await failCommand({ times: 1 }, { failCommands: ['find'], closeConnection: true });
      const error = await failure(() => noRetry.db(t.db.databaseName).collection('x').findOne({}));
      expect(error['name']).toBe('MongoNetworkError');
      expect(await noRetry.db(t.db.databaseName).collection('x').findOne({})).toBeNull();
    } finally {
      await noRetry.close();
    }
    await failCommand({ times: 1 }, { failCommands: ['ping'], blockConnection: true, blockTimeMS: 300 });
    const started = Date.now();
    await t.db.command({ ping: 1 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  // Source: mongodb/specifications source/transactions/tests/README.md, "Server Fail Point": data.writeConcernError
  // makes the command succeed with that writeConcernError (the write is applied).
  it('writeConcernError is reported after the write is applied', async () => {
    const coll = t.db.collection<any>('wce');
    await failCommand(
      { times: 1 },
      { failCommands: ['insert'], writeConcernError: { code: 100, errmsg: 'Not enough data-bearing nodes' } },
    );
    const error = await failure(() => coll.insertOne({ _id: 1 }));
    expect(error['name']).toBe('MongoWriteConcernError');
    expect(error['code']).toBe(100);
    expect(await coll.countDocuments()).toBe(1);
  });

  // Source: MongoDB manual, $listLocalSessions
  // (https://www.mongodb.com/docs/manual/reference/operator/aggregation/listLocalSessions/): run with
  // { aggregate: 1 } on admin, it lists the sessions in memory as { _id: { id, uid }, lastUse }.
  it('$listLocalSessions lists the sessions the server knows', async () => {
    const s = t.client.startSession();
    try {
      await t.db.collection('x').findOne({}, { session: s });
      const id = s.id!['id'];
      const found = await t.client
        .db('admin')
        .aggregate([{ $listLocalSessions: {} }, { $match: { '_id.id': id } }])
        .toArray();
      expect(found).toHaveLength(1);
      expect(found[0]!['lastUse']).toBeInstanceOf(Date);
      expect(found[0]!['_id']['uid']._bsontype).toBe('Binary');
      const elsewhere = await failure(() => t.db.aggregate([{ $listLocalSessions: {} }]).toArray());
      expect(elsewhere['name']).toBe('MongoServerError');
    } finally {
      await s.endSession();
    }
  });
});
