/**
 * Malformed `insert`, `delete` and `update` commands, and documents MongoDB will not store, fail as
 * MongoDB 7.0 fails them: a malformed command field fails the whole command (nothing runs, even for a bad third
 * statement), a document refused for its `_id` is a write error at its index, and unordered batches go
 * on past it. Answers come from MongoDB 7.0 as recorded in FerretDB's integration tests
 * (integration/insert_command_test.go, TestInsertCommandErrors; integration/delete_test.go, TestDelete),
 * or from the MongoDB server source where noted (IDL-generated write_ops parsers, write_ops.cpp's
 * readMultiDeleteProperty and checkOpCountForCommand, hint_parser.cpp, storage_validation.cpp,
 * bsonobj.cpp's storageValidEmbedded, ops/insert.cpp's validateDepth).
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

type Command = Record<string, unknown>;

/** [case, command (collection name filled in), code, message] for command errors. */
const commandErrors: [string, (coll: string) => Command, number, string][] = [
  // FerretDB integration/insert_command_test.go, TestInsertCommandErrors "InsertOrderedInvalid".
  [
    'an insert whose ordered is a string',
    (c) => ({ insert: c, documents: [{ _id: 'foo' }], ordered: 'foo' }),
    14,
    "BSON field 'insert.ordered' is the wrong type 'string', expected type 'bool'",
  ],
  // FerretDB integration/insert_command_test.go, TestInsertCommandErrors "InsertArray".
  [
    'an insert whose second document is an array',
    (c) => ({ insert: c, documents: [{ a: 1 }, []], ordered: true }),
    14,
    "BSON field 'insert.documents.1' is the wrong type 'array', expected type 'object'",
  ],
  // MongoDB source: the IDL parser's missing-field error (40414) for the required `documents`.
  [
    'an insert without documents',
    (c) => ({ insert: c }),
    40414,
    "BSON field 'insert.documents' is missing but a required field",
  ],
  // MongoDB source: write_ops.cpp checkOpCountForCommand (InvalidLength).
  [
    'an insert of no documents',
    (c) => ({ insert: c, documents: [] }),
    16,
    'Write batch sizes must be between 1 and 100000. Got 0 operations.',
  ],
  // FerretDB integration/delete_test.go, TestDelete "QueryNotSet".
  [
    'a delete statement without q',
    (c) => ({ delete: c, deletes: [{}] }),
    40414,
    "BSON field 'delete.deletes.q' is missing but a required field",
  ],
  // FerretDB integration/delete_test.go, TestDelete "NotSet".
  [
    'a delete statement without limit',
    (c) => ({ delete: c, deletes: [{ q: { v: 'foo' } }] }),
    40414,
    "BSON field 'delete.deletes.limit' is missing but a required field",
  ],
  // FerretDB integration/delete_test.go, TestDelete "InvalidFloat".
  [
    'a delete limit of 42.13',
    (c) => ({ delete: c, deletes: [{ q: { v: 'foo' }, limit: 42.13 }] }),
    9,
    'The limit field in delete objects must be 0 or 1. Got 42.13',
  ],
  // FerretDB integration/delete_test.go, TestDelete "InvalidInt".
  [
    'a delete limit of 100',
    (c) => ({ delete: c, deletes: [{ q: { v: 'foo' }, limit: 100 }] }),
    9,
    'The limit field in delete objects must be 0 or 1. Got 100',
  ],
  // MongoDB source: the statements are parsed with the command, so a bad second one fails it all.
  [
    'a delete whose second statement has a limit of 2',
    (c) => ({
      delete: c,
      deletes: [
        { q: {}, limit: 0 },
        { q: {}, limit: 2 },
      ],
    }),
    9,
    'The limit field in delete objects must be 0 or 1. Got 2',
  ],
  // MongoDB source: the IDL parser's type check on DeleteOpEntry.q.
  [
    'a delete whose q is a string',
    (c) => ({ delete: c, deletes: [{ q: 'x', limit: 0 }] }),
    14,
    "BSON field 'delete.deletes.q' is the wrong type 'string', expected type 'object'",
  ],
  // MongoDB source: the IDL parser's unknown-field error (40415) in a delete statement.
  [
    'a delete statement with an unknown field',
    (c) => ({ delete: c, deletes: [{ q: {}, limit: 0, foo: 1 }] }),
    40415,
    "BSON field 'delete.deletes.foo' is an unknown field.",
  ],
  // MongoDB source: hint_parser.cpp parseHint.
  [
    'a delete hint that is a number',
    (c) => ({ delete: c, deletes: [{ q: {}, limit: 0, hint: 1 }] }),
    9,
    'Hint must be a string or an object',
  ],
  // MongoDB source: the IDL parser's type check on DeleteOpEntry.collation.
  [
    'a delete collation that is a string',
    (c) => ({ delete: c, deletes: [{ q: {}, limit: 0, collation: 'x' }] }),
    14,
    "BSON field 'delete.deletes.collation' is the wrong type 'string', expected type 'object'",
  ],
  // MongoDB source: the IDL parser's type check on an element of `deletes`.
  [
    'a delete statement that is a number',
    (c) => ({ delete: c, deletes: [1] }),
    14,
    "BSON field 'delete.deletes.0' is the wrong type 'int', expected type 'object'",
  ],
  // MongoDB source: the IDL parser's missing-field error for the required `deletes`.
  [
    'a delete without deletes',
    (c) => ({ delete: c }),
    40414,
    "BSON field 'delete.deletes' is missing but a required field",
  ],
  // MongoDB source: write_ops.cpp checkOpCountForCommand (InvalidLength).
  [
    'a delete of no statements',
    (c) => ({ delete: c, deletes: [] }),
    16,
    'Write batch sizes must be between 1 and 100000. Got 0 operations.',
  ],
  // The same IDL rules for an update command's statements (write_ops.idl: updates is array<object>).
  [
    'an update without updates',
    (c) => ({ update: c }),
    40414,
    "BSON field 'update.updates' is missing but a required field",
  ],
  [
    'an update whose statement is a number',
    (c) => ({ update: c, updates: [1] }),
    14,
    "BSON field 'update.updates.0' is the wrong type 'int', expected type 'object'",
  ],
  [
    'an update of no statements',
    (c) => ({ update: c, updates: [] }),
    16,
    'Write batch sizes must be between 1 and 100000. Got 0 operations.',
  ],
];

/** A document nested `levels` deep counting itself, ending in `leaf`. */
function nested(levels: number, leaf: unknown): Record<string, unknown> {
  let doc = leaf as Record<string, unknown>;
  for (let i = 1; i < levels; i++) doc = { a: doc };
  return doc;
}

describe.each(drivers)('insert and delete errors ($name)', (driver) => {
  const t = connect(driver, 'write_errors');

  it.each(commandErrors)('refuses %s as a command error', async (_name, build, code, message) => {
    const coll = t.db.collection<any>('commands');
    await coll.deleteMany({});
    await coll.insertMany([
      { _id: 1, v: 'foo' },
      { _id: 2, v: 'foo' },
    ]);
    const error = await failure(() => t.db.command(build('commands')));
    expect(error['code']).toBe(code);
    expect(error['message']).toBe(message);
    // Nothing ran: the statements before the bad one deleted nothing either.
    expect(await coll.countDocuments()).toBe(2);
  });

  // FerretDB integration/insert_command_test.go, TestInsertCommandErrors "InsertArrayAsDocumentID" and
  // "InsertRegexAsDocumentID": write errors at their indexes; an unordered batch goes on past them. The
  // nested '$' name: MongoDB source, storage_validation.cpp storageValidIdField.
  it("reports refused _id values as write errors at each one's index", async () => {
    const reply = await t.db.command({
      insert: 'ids',
      documents: [
        { _id: [42, 42] },
        { _id: 'ok-1' },
        { _id: new driver.bson.BSONRegExp('foo', 'i') },
        { _id: { a: { $b: 1 } } },
        { _id: 'ok-2' },
      ],
      ordered: false,
    });
    expect(reply['n']).toBe(2);
    expect(
      (reply['writeErrors'] as Record<string, unknown>[]).map((e) => [e['index'], e['code'], e['errmsg']]),
    ).toEqual([
      [0, 53, "The '_id' value cannot be of type array"],
      [2, 53, "The '_id' value cannot be of type regex"],
      [3, 52, "_id fields may not contain '$'-prefixed fields: $b is not valid for storage."],
    ]);
  });

  // MongoDB source: storage_validation.cpp storageValidIdField and bsonobj.cpp storageValidEmbedded look
  // for '$'-prefixed names at every depth of an _id document, past a DBRef's $ref, $id and $db.
  it.each([
    ['in a nested document', { a: { $b: 1 } }, '$b'],
    ['in an array', { a: [{ $b: 1 }] }, '$b'],
    ['after a DBRef', { $ref: 'c', $id: 3, $x: 1 }, '$x'],
  ])('refuses a $-prefixed field %s of an _id', async (_name, id, field) => {
    const reply = await t.db.command({ insert: 'dollar_ids', documents: [{ _id: id }] });
    expect(reply['n']).toBe(0);
    const [error] = reply['writeErrors'] as Record<string, unknown>[];
    expect(error?.['code']).toBe(52);
    expect(error?.['errmsg']).toBe(
      `_id fields may not contain '$'-prefixed fields: ${field} is not valid for storage.`,
    );
  });

  // MongoDB source: write_ops.cpp readMultiDeleteProperty reads limit as a double, 0 for a non-number;
  // FerretDB integration/delete_test.go, TestDelete "ValidString" records that MongoDB takes limit '1'.
  it("deletes every match for a limit of '1' (not a number, so 0)", async () => {
    const coll = t.db.collection<any>('string_limit');
    await coll.insertMany([
      { _id: 1, v: 'foo' },
      { _id: 2, v: 'foo' },
    ]);
    const reply = await t.db.command({ delete: 'string_limit', deletes: [{ q: { v: 'foo' }, limit: '1' }] });
    expect(reply['n']).toBe(2);
  });

  // MongoDB source: ops/insert.cpp validateDepth does not count an empty document as a nesting level.
  it('stores an empty document at the 101st level, and refuses a non-empty one', async () => {
    const coll = t.db.collection<any>('depth');
    await coll.insertOne({ _id: 'empty', ...nested(101, {}) });
    expect(await coll.countDocuments({ _id: 'empty' })).toBe(1);
    const error = await failure(() => coll.insertOne({ _id: 'full', ...nested(101, { b: 1 }) }));
    expect(error['code']).toBe(15);
    expect(error['message']).toBe('cannot insert document because it exceeds 100 levels of nesting');
  });
});
