/**
 * Logical sessions as MongoDB 7.0 checks them: a cursor belongs to the session (and transaction) that
 * opened it, and a malformed `lsid`, `txnNumber` or session list is refused with the server's codes
 * instead of being read as "no session". Most of this input is what the driver never sends, so it goes
 * over a raw OP_MSG socket; the cross-session getMore also goes through the driver.
 */
import { randomUUID } from 'node:crypto';
import { Binary, Long } from 'bson';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedServer } from 'plume/embedded';
import type { EmbeddedServer } from 'plume/embedded';
import { rawClient } from './raw-client.js';

const newLsid = () => ({ id: new Binary(Buffer.from(randomUUID().replace(/-/g, ''), 'hex'), 4) });
const DB = 'sessions';

describe('logical sessions (embedded only)', () => {
  let server: EmbeddedServer;
  let client: MongoClient;
  let raw: Awaited<ReturnType<typeof rawClient>>;

  beforeAll(async () => {
    server = await startEmbeddedServer();
    client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 5000 });
    await client
      .db(DB)
      .collection('c')
      .insertMany([0, 1, 2, 3, 4, 5].map((i) => ({ _id: i })) as never[]);
    raw = await rawClient(server.port);
  });
  afterAll(async () => {
    raw.close();
    await client.close();
    await server.stop();
  });

  /** Opens a cursor of `c` with 2 of its 6 documents in the first batch; `extra` adds lsid/txn fields. */
  async function openCursor(extra: Record<string, unknown>): Promise<Long> {
    const reply = await raw.command({ find: 'c', batchSize: 2, $db: DB, ...extra });
    expect(reply['ok']).toBe(1);
    return reply['cursor'].id as Long;
  }

  const getMore = (id: Long, extra: Record<string, unknown>) =>
    raw.command({ getMore: id, collection: 'c', $db: DB, ...extra });

  /** An insert with the session fields `extra` is refused with `code` and `errmsg`, and stores nothing. */
  async function refusedInsert(extra: Record<string, unknown>, code: number, errmsg: string): Promise<void> {
    const reply = await raw.command({ insert: 'c', documents: [{ _id: 'bad' }], $db: DB, ...extra });
    expect(reply).toMatchObject({ ok: 0, code, errmsg });
    expect(
      await client
        .db(DB)
        .collection('c')
        .countDocuments({ _id: 'bad' } as never),
    ).toBe(0);
  }

  // getmore_cmd.cpp validateLSID: 50736, 50737, 50738 (checked before the namespace).
  it('refuses getMore from another session (50738), and the owner still reads the cursor', async () => {
    const [a, b] = [newLsid(), newLsid()];
    const id = await openCursor({ lsid: a });
    const reply = await getMore(id, { lsid: b });
    expect(reply).toMatchObject({ ok: 0, code: 50738, codeName: 'Location50738' });
    const uuid = (l: { id: Binary }) => l.id.toUUID().toHexString(true);
    expect(reply['errmsg']).toMatch(
      new RegExp(
        `^Cannot run getMore on cursor ${id.toString()}, which was created in session ${uuid(a)} - .*, in session ${uuid(b)} - `,
      ),
    );
    const own = await getMore(id, { lsid: a });
    expect(own['ok']).toBe(1);
    expect(own['cursor'].nextBatch).toHaveLength(4);
  });

  it('refuses getMore without an lsid on a cursor opened in a session (50737)', async () => {
    const id = await openCursor({ lsid: newLsid() });
    const reply = await getMore(id, {});
    expect(reply).toMatchObject({ ok: 0, code: 50737 });
    expect(reply['errmsg']).toMatch(/, without an lsid$/);
  });

  it('refuses getMore in a session on a cursor opened without one (50736)', async () => {
    const id = await openCursor({});
    const reply = await getMore(id, { lsid: newLsid() });
    expect(reply).toMatchObject({ ok: 0, code: 50736 });
    expect(reply['errmsg']).toMatch(/which was not created in a session, in session /);
    expect((await getMore(id, {}))['ok']).toBe(1);
  });

  // validateTxnNumber: 50740 for a getMore without the transaction's txnNumber.
  it('refuses getMore outside the transaction that opened the cursor (50740)', async () => {
    const lsid = newLsid();
    const txn = { lsid, txnNumber: Long.fromNumber(1), autocommit: false };
    const id = await openCursor({ ...txn, startTransaction: true });
    const reply = await getMore(id, { lsid });
    expect(reply).toMatchObject({ ok: 0, code: 50740 });
    expect(reply['errmsg']).toMatch(/which was created in transaction 1, without a txnNumber$/);
    expect((await getMore(id, txn))['ok']).toBe(1);
    expect((await raw.command({ commitTransaction: 1, $db: 'admin', ...txn }))['ok']).toBe(1);
  });

  it('refuses a getMore from another driver session', async () => {
    const mine = client.startSession();
    const other = client.startSession();
    try {
      const db = client.db(DB);
      const first = await db.command({ find: 'c', batchSize: 2 }, { session: mine, promoteLongs: false });
      const id = first['cursor'].id as Long;
      await expect(db.command({ getMore: id, collection: 'c' }, { session: other })).rejects.toMatchObject({
        code: 50738,
      });
      const more = await db.command({ getMore: id, collection: 'c' }, { session: mine });
      expect(more['cursor'].nextBatch).toHaveLength(4);
    } finally {
      await mine.endSession();
      await other.endSession();
    }
  });

  // killCursors checks the session only when authentication is on (checkCursorSessionPrivilege).
  it('lets killCursors close a cursor of another session (no authentication)', async () => {
    const id = await openCursor({ lsid: newLsid() });
    const reply = await raw.command({ killCursors: 'c', cursors: [id], $db: DB, lsid: newLsid() });
    expect(reply['cursorsKilled']).toEqual([id]);
  });

  // logical_session_id.idl: txnNumber is a TxnNumber (long only); initialize_operation_session_info.cpp.
  it.each([
    [
      'a string',
      'x',
      14,
      "BSON field 'OperationSessionInfo.txnNumber' is the wrong type 'string', expected type 'long'",
    ],
    [
      'a double',
      1.5,
      14,
      "BSON field 'OperationSessionInfo.txnNumber' is the wrong type 'double', expected type 'long'",
    ],
    [
      'an int',
      1,
      14,
      "BSON field 'OperationSessionInfo.txnNumber' is the wrong type 'int', expected type 'long'",
    ],
    ['negative', Long.fromNumber(-1), 72, 'Transaction number cannot be negative'],
  ])('refuses a txnNumber that is %s', (_case, txnNumber, code, errmsg) =>
    refusedInsert({ lsid: newLsid(), txnNumber }, code, errmsg),
  );

  it('refuses a txnNumber without an lsid (InvalidOptions)', async () => {
    const reply = await raw.command({
      insert: 'c',
      documents: [{ _id: 'bad' }],
      $db: DB,
      txnNumber: Long.ONE,
    });
    expect(reply).toMatchObject({
      ok: 0,
      code: 72,
      errmsg: 'Transaction number requires a session ID to also be specified',
    });
  });

  const uuid = (bytes: number, subtype = 4) => new Binary(Buffer.alloc(bytes, 7), subtype);
  // LogicalSessionFromClient (strict): id is a UUID, uid a SHA-256 block; IDL codes 14, 40414, 40415.
  const badLsids: [string, unknown, number, string][] = [
    [
      'a string',
      'x',
      14,
      "BSON field 'OperationSessionInfo.lsid' is the wrong type 'string', expected type 'object'",
    ],
    [
      'an empty object',
      {},
      40414,
      "BSON field 'OperationSessionInfo.lsid.id' is missing but a required field",
    ],
    [
      'an extra field',
      { id: uuid(16), x: 1 },
      40415,
      "BSON field 'OperationSessionInfo.lsid.x' is an unknown field.",
    ],
    [
      'an id that is a string',
      { id: 'x' },
      14,
      "BSON field 'OperationSessionInfo.lsid.id' is the wrong type 'string', expected type 'binData'",
    ],
    [
      'an id of subtype 0',
      { id: uuid(16, 0) },
      14,
      "BSON field 'OperationSessionInfo.lsid.id' is the wrong binData type 'general', expected type 'UUID'",
    ],
    ['an id of 3 bytes', { id: uuid(3) }, 207, 'uuid must be a 16-byte binary field with UUID (4) subtype'],
    [
      'a uid of subtype 4',
      { id: uuid(16), uid: uuid(32) },
      14,
      "BSON field 'OperationSessionInfo.lsid.uid' is the wrong binData type 'UUID', expected type 'general'",
    ],
  ];
  it.each(badLsids)('refuses an lsid with %s', (_case, lsid, code, errmsg) =>
    refusedInsert({ lsid }, code, errmsg),
  );

  it('answers startSession with an id that serves as an lsid', async () => {
    const started = await raw.command({ startSession: 1, $db: 'admin' });
    expect(started).toMatchObject({ ok: 1, timeoutMinutes: 30 });
    const lsid = started['id'];
    const id = await openCursor({ lsid });
    expect((await getMore(id, { lsid }))['ok']).toBe(1);
  });

  it('accepts an lsid with a 32-byte uid', async () => {
    const reply = await raw.command({ find: 'c', $db: DB, lsid: { id: uuid(16), uid: uuid(32, 0) } });
    expect(reply['ok']).toBe(1);
  });

  // sessions_commands.idl (endSessions, refreshSessions: strict) and kill_sessions.idl (killSessions).
  it.each([
    [
      { endSessions: 'x' },
      14,
      "BSON field 'endSessions.endSessions' is the wrong type 'string', expected type 'array'",
    ],
    [
      { endSessions: [1] },
      14,
      "BSON field 'endSessions.endSessionsFromClient.0' is the wrong type 'int', expected type 'object'",
    ],
    [
      { endSessions: [{}] },
      40414,
      "BSON field 'endSessions.endSessionsFromClient.id' is missing but a required field",
    ],
    [{ endSessions: [], x: 1 }, 40415, "BSON field 'endSessions.x' is an unknown field."],
    [
      { refreshSessions: [{ id: uuid(15) }] },
      207,
      'uuid must be a 16-byte binary field with UUID (4) subtype',
    ],
    [
      { refreshSessions: {} },
      14,
      "BSON field 'refreshSessions.refreshSessions' is the wrong type 'object', expected type 'array'",
    ],
    [
      { killSessions: null },
      14,
      "BSON field 'KillSessionsCmdFromClient.killSessions' is the wrong type 'null', expected type 'array'",
    ],
    [
      { killSessions: [{ id: uuid(16), y: 1 }] },
      40415,
      "BSON field 'KillSessionsCmdFromClient.killSessions.y' is an unknown field.",
    ],
  ])('refuses %j', async (command, code, errmsg) => {
    const reply = await raw.command({ ...command, $db: 'admin' });
    expect(reply).toMatchObject({ ok: 0, code, errmsg });
  });

  it('ends no session when one id in the list is bad', async () => {
    const lsid = newLsid();
    const id = await openCursor({ lsid });
    const reply = await raw.command({ endSessions: [lsid, { id: 'x' }], $db: 'admin' });
    expect(reply['ok']).toBe(0);
    expect((await getMore(id, { lsid }))['ok']).toBe(1);
  });
});
