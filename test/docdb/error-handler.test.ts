import { MongoClient, MongoNetworkError, MongoServerError, MongoServerSelectionError } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { DocDbService, handleDriverError } from 'plume/docdb';
import { BadRequest, Conflict, GeneralError, NotFound, Unavailable } from 'plume/errors';

function mapped(error: unknown): unknown {
  try {
    handleDriverError(error);
  } catch (result) {
    return result;
  }
  throw new Error('handleDriverError returned');
}

const dupMessage =
  'E11000 duplicate key error collection: secretdb.users index: email_unique dup key: { email: "a@x.io" }';

describe('handleDriverError', () => {
  it('maps a duplicate key to 409 naming the field from keyValue, without the index or database', () => {
    const error = new MongoServerError({ message: dupMessage, code: 11000, keyValue: { email: 'a@x.io' } });
    const result = mapped(error) as Conflict;
    expect(result).toBeInstanceOf(Conflict);
    expect(result.message).toBe("Duplicate value for field 'email'");
    expect(result.data).toEqual({ fields: ['email'] });
    expect(JSON.stringify(result.toJSON())).not.toMatch(/secretdb|email_unique/);
    expect(result.cause).toBe(error);
  });

  it('reads the fields from the server message when keyValue is missing', () => {
    const error = new MongoServerError({
      message: 'E11000 duplicate key error collection: d.c index: a_1_b_1 dup key: { a: 1, b: "x" }',
      code: 11000,
    });
    expect((mapped(error) as Conflict).message).toBe("Duplicate value for fields 'a', 'b'");
  });

  it('maps network and server selection errors to 503', () => {
    expect(mapped(new MongoNetworkError('connection reset'))).toBeInstanceOf(Unavailable);
    const selection = new MongoServerSelectionError('no server', {
      type: 'Unknown',
      servers: new Map(),
      stale: false,
      compatible: true,
      heartbeatFrequencyMS: 1,
      localThresholdMS: 1,
      setName: null,
      maxElectionId: null,
      maxSetVersion: null,
      commonWireVersion: 0,
      logicalSessionTimeoutMinutes: null,
    } as never);
    expect(mapped(selection)).toBeInstanceOf(Unavailable);
  });

  it('maps query errors from the server to 400 and anything else to a generic 500', () => {
    expect(mapped(new MongoServerError({ message: 'unknown operator: $foo', code: 2 }))).toBeInstanceOf(
      BadRequest,
    );
    // A field path the server refuses ('a..b' in a projection) is the caller's input too.
    expect(
      mapped(
        new MongoServerError({ message: 'FieldPath field names may not be empty strings.', code: 15998 }),
      ),
    ).toBeInstanceOf(BadRequest);
    // Data the database cannot store: nested too deep (15), a document or an update result over 16 MiB.
    for (const code of [15, 10334, 17419]) {
      expect(mapped(new MongoServerError({ message: 'too large or deep', code }))).toBeInstanceOf(BadRequest);
    }
    const other = mapped(
      new MongoServerError({ message: 'internal secret detail', code: 8000 }),
    ) as GeneralError;
    expect(other).toBeInstanceOf(GeneralError);
    expect(other.message).toBe('Database error');
    expect(JSON.stringify(other.toJSON())).not.toContain('secret');
  });

  it('passes plume errors and retryable transaction errors through unchanged', () => {
    const notFound = new NotFound('x');
    expect(mapped(notFound)).toBe(notFound);
    const transient = new MongoServerError({
      message: 'write conflict',
      code: 112,
      errorLabels: ['TransientTransactionError'],
    });
    expect(mapped(transient)).toBe(transient);
  });
});

describe('DocDbService when the database is unreachable', () => {
  it('answers 503 Unavailable, also when the Model promise rejects', async () => {
    const client = new MongoClient('mongodb://127.0.0.1:9/', { serverSelectionTimeoutMS: 200 });
    try {
      const service = new DocDbService({ Model: client.db('none').collection('none') });
      await expect(service.find({ query: {} })).rejects.toMatchObject({ code: 503, name: 'Unavailable' });
      const failing = new DocDbService({
        Model: client.connect().then(() => client.db('none').collection('none')),
      });
      await expect(failing.get('0123456789abcdef01234567')).rejects.toMatchObject({ code: 503 });
    } finally {
      await client.close();
    }
  });
});
