/**
 * Malformed `find`, `count`, `distinct`, `getMore` and `killCursors` commands, and malformed query
 * operators, fail as MongoDB 7.0 fails them: with its code and its exact message, when the command is
 * parsed (so even on an empty collection). Each case cites where MongoDB's answer is recorded: FerretDB's
 * integration tests, which run the same command against MongoDB and keep its code and message.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';
import type { DriverUnderTest } from '../helpers.js';

type Bson = DriverUnderTest['bson'];
/** [case, command (built with the driver's bson classes), code, message] */
type Case = [string, (b: Bson) => Record<string, unknown>, number, string];

const find = (filter: unknown) => () => ({ find: 'docs', filter });
const TOP_LEVEL_HINT =
  "If you have a field name that starts with a '$' symbol, consider using $getField or $setField.";
const OUT_OF_BOUNDS =
  'malformed mod, divisor value is invalid :: caused by :: Out of bounds coercing to integral value';

const filterErrors: Case[] = [
  // FerretDB integration/query_test.go, TestQueryUnknownFilterOperator.
  [
    'an unknown field operator',
    find({ v: { $someUnknownOperator: 42 } }),
    2,
    'unknown operator: $someUnknownOperator',
  ],
  // FerretDB integration/query_array_test.go, TestQueryArraySize.
  ['a $size of an object', find({ v: { $size: { $gt: 1 } } }), 2, '$size needs a number'],
  ['a fractional $size', find({ v: { $size: 2.1 } }), 2, '$size must be a whole number'],
  ['a NaN $size', find({ v: { $size: NaN } }), 2, '$size must be a whole number'],
  ['an infinite $size', find({ v: { $size: Infinity } }), 2, '$size must be a whole number'],
  ['a negative $size', find({ v: { $size: -1 } }), 2, '$size may not be negative'],
  ['$size at the top level', find({ $size: 2 }), 2, `unknown top level operator: $size. ${TOP_LEVEL_HINT}`],
  // FerretDB integration/query_bitwise_test.go, TestQueryBitwiseAllClear/AllSet/AnyClear/AnySet.
  [
    'a negative bit position',
    find({ v: { $bitsAllClear: [-1] } }),
    2,
    'Failed to parse bit position. Expected a non-negative number in: 0: -1',
  ],
  [
    'a bit position that is a string',
    find({ v: { $bitsAllSet: ['123'] } }),
    2,
    'Failed to parse bit position. Expected a number in: 0: "123"',
  ],
  ['a fractional bitmask', find({ v: { $bitsAnyClear: 1.2 } }), 9, 'Expected an integer: $bitsAnyClear: 1.2'],
  [
    'a string bitmask',
    find({ v: { $bitsAllClear: '123' } }),
    2,
    'v takes an Array, a number, or a BinData but received: $bitsAllClear: "123"',
  ],
  // FerretDB integration/query_evaluation_test.go, TestQueryEvaluationMod.
  ['a $mod divisor past int64', find({ v: { $mod: [9.223372036854778e18, 0] } }), 2, OUT_OF_BOUNDS],
  ['a $mod divisor below int64', find({ v: { $mod: [-9.223372036854778e18, 0] } }), 2, OUT_OF_BOUNDS],
  ['a huge $mod divisor', find({ v: { $mod: [Number.MAX_VALUE, Number.MAX_VALUE] } }), 2, OUT_OF_BOUNDS],
  ['$mod at the top level', find({ $mod: [1, 1] }), 2, `unknown top level operator: $mod. ${TOP_LEVEL_HINT}`],
  // FerretDB integration/query_element_test.go, TestQueryElementType.
  ['a $type code that does not exist', find({ v: { $type: 42 } }), 2, 'Invalid numerical type code: 42'],
  [
    'a negative $type code',
    find({ v: { $type: ['binData', -123] } }),
    2,
    'Invalid numerical type code: -123',
  ],
  ['a NaN $type code', find({ v: { $type: ['binData', NaN] } }), 2, 'Invalid numerical type code: nan'],
  [
    'an infinite $type code',
    find({ v: { $type: ['binData', Infinity] } }),
    2,
    'Invalid numerical type code: inf',
  ],
  [
    'a fractional $type code',
    find({ v: { $type: ['binData', -1.123] } }),
    2,
    'Invalid numerical type code: -1.123',
  ],
  // FerretDB integration/query_logical_test.go, TestQueryLogicalAnd/Or/Nor/Not.
  ['a $and that is not an array', find({ $and: null }), 2, '$and must be an array'],
  ['a $or that is not an array', find({ $or: null }), 2, '$or must be an array'],
  ['a $nor that is not an array', find({ $nor: null }), 2, '$nor must be an array'],
  [
    'a $or entry that is not a document',
    find({ $or: [{ v: { $gt: 0 } }, null] }),
    2,
    '$or/$and/$nor entries need to be full objects',
  ],
  ['a $not of null', find({ _id: { $not: null } }), 2, '$not needs a regex or a document'],
];

const commandErrors: Case[] = [
  // FerretDB integration/query_test.go, TestQueryBadFindType.
  [
    'find on an object',
    () => ({ find: {}, projection: { v: 'some' } }),
    2,
    'collection name has invalid type object',
  ],
  [
    'find on an int',
    () => ({ find: 42, projection: { v: 'some' } }),
    2,
    'collection name has invalid type int',
  ],
  [
    'find on null',
    () => ({ find: null, projection: { v: 'some' } }),
    2,
    'collection name has invalid type null',
  ],
  // FerretDB integration/count_test.go, TestQueryBadCountType (without authentication).
  [
    'count on an array',
    () => ({ count: [], query: { v: 'some' } }),
    2,
    'collection name has invalid type: array',
  ],
  // FerretDB integration/query_test.go, TestQuerySortErrors.
  [
    'a sort that is a number',
    () => ({ find: 'docs', sort: 42.13 }),
    14,
    'Expected field sortto be of type object',
  ],
  [
    'a sort that is a string',
    () => ({ find: 'docs', sort: '123' }),
    14,
    'Expected field sortto be of type object',
  ],
  [
    'a sort key that is a string',
    () => ({ find: 'docs', sort: { asc: '123' } }),
    15974,
    'Illegal key in $sort specification: asc: "123"',
  ],
  // FerretDB integration/query_test.go, TestQueryCommandSingleBatch.
  [
    'a singleBatch that is an int',
    () => ({ find: 'docs', batchSize: 3, singleBatch: 1 }),
    14,
    "Field 'singleBatch' should be a boolean value, but found: int",
  ],
  // FerretDB integration/aggregation/distinct_test.go, TestDistinctCommandErrors.
  [
    'a distinct query that is a string',
    () => ({ distinct: 'docs', key: 'a', query: 'a' }),
    14,
    "BSON field 'distinct.query' is the wrong type 'string', expected type 'object'",
  ],
  [
    'distinct on an object',
    () => ({ distinct: {}, key: 'a', query: {} }),
    73,
    'collection name has invalid type object',
  ],
  [
    'a distinct key that is an array',
    () => ({ distinct: 'docs', key: [], query: {} }),
    14,
    "BSON field 'distinct.key' is the wrong type 'array', expected type 'string'",
  ],
  [
    'a distinct key that is an int',
    () => ({ distinct: 'docs', key: 1, query: {} }),
    14,
    "BSON field 'distinct.key' is the wrong type 'int', expected type 'string'",
  ],
  // FerretDB integration/query_projection_test.go, TestQueryProjectionSlice.
  [
    'a $slice projection of a string',
    () => ({ find: 'docs', projection: { v: { $slice: 'string' } } }),
    28667,
    'Invalid $slice syntax. The given syntax { $slice: "string" } did not match the find() syntax because :: ' +
      'Location31273: $slice only supports numbers and [skip, limit] arrays :: The given syntax did not match ' +
      'the expression $slice syntax. :: caused by :: Expression $slice takes at least 2 arguments, and at most 3, ' +
      'but 1 were passed in.',
  ],
  [
    'a $slice projection of four numbers',
    () => ({ find: 'docs', projection: { v: { $slice: [1, 2, 3, 4] } } }),
    28667,
    'Invalid $slice syntax. The given syntax { $slice: [ 1, 2, 3, 4 ] } did not match the find() syntax ' +
      'because :: Location31272: $slice array argument should be of form [skip, limit] :: The given syntax did ' +
      'not match the expression $slice syntax. :: caused by :: Expression $slice takes at least 2 arguments, ' +
      'and at most 3, but 4 were passed in.',
  ],
  [
    'a $slice projection with a negative limit',
    () => ({ find: 'docs', projection: { v: { $slice: [3, -2] } } }),
    28724,
    'First argument to $slice must be an array, but is of type: int',
  ],
];

/** getMore commands on a live cursor of `docs` (`id`); FerretDB integration/cursors/getmore_test.go. */
const getMoreErrors: [string, (id: unknown) => Record<string, unknown>, number, string][] = [
  [
    'a getMore collection that is an object',
    (id) => ({ getMore: id, collection: {}, batchSize: 1 }),
    14,
    "BSON field 'getMore.collection' is the wrong type 'object', expected type 'string'",
  ],
  [
    'an empty getMore collection',
    (id) => ({ getMore: id, collection: '', batchSize: 1 }),
    73,
    'Collection names cannot be empty',
  ],
  [
    'a getMore without a collection',
    (id) => ({ getMore: id, batchSize: 1 }),
    40414,
    "BSON field 'getMore.collection' is missing but a required field",
  ],
];

describe.each(drivers)('find, count, distinct and cursor errors ($name)', (driver) => {
  const t = connect(driver, 'find_errors');
  beforeAll(async () => {
    await t.db.collection<any>('docs').insertMany([
      { _id: 1, v: [1, 2, 3, 4] },
      { _id: 2, v: 42 },
      { _id: 3, v: 'foo' },
    ]);
  });

  it.each(filterErrors)('refuses %s', async (_name, command, code, message) => {
    const error = await failure(() => t.db.command(command(driver.bson)));
    expect(error['code']).toBe(code);
    expect(error['message']).toBe(message);
  });

  it.each(commandErrors)('refuses %s', async (_name, command, code, message) => {
    const error = await failure(() => t.db.command(command(driver.bson)));
    expect(error['code']).toBe(code);
    expect(error['message']).toBe(message);
  });

  it.each(getMoreErrors)('refuses %s', async (_name, command, code, message) => {
    // Cursor ids are random int64s: one below 2^53 would come back as a JavaScript number (promoteLongs)
    // and go out again as an int32 or a double, which getMore refuses with 14 before it reads the rest.
    const opened = await t.db.command({ find: 'docs', batchSize: 1 }, { promoteLongs: false });
    const error = await failure(() => t.db.command(command(opened['cursor'].id)));
    expect(error['code']).toBe(code);
    expect(error['message']).toBe(message);
  });

  // FerretDB integration/cursors/kill_test.go, TestKill/WrongType: the bad id is named by its index, and
  // no cursor of the list is killed.
  it('refuses a killCursors id that is not an int64, killing none', async () => {
    const opened = await t.db.command({ find: 'docs', batchSize: 1 }, { promoteLongs: false });
    const id = opened['cursor'].id;
    const error = await failure(() => t.db.command({ killCursors: 'docs', cursors: [id, 100500] }));
    expect(error['code']).toBe(14);
    expect(error['message']).toBe(
      "BSON field 'killCursors.cursors.1' is the wrong type 'int', expected type 'long'",
    );
    const more = await t.db.command({ getMore: id, collection: 'docs', batchSize: 1 });
    expect(more['cursor'].nextBatch).toHaveLength(1);
  });

  // FerretDB integration/query_element_test.go, TestQueryElementType (FloatTypeCode, TypeArrayFloat): a
  // $type code may be a double.
  it('takes a $type code that is a double', async () => {
    const { Double } = driver.bson;
    const docs = await t.db
      .collection<any>('docs')
      .find({ v: { $type: [new Double(2), new Double(16)] } })
      .sort({ _id: 1 })
      .toArray();
    expect(docs.map((d) => d['_id'])).toEqual([1, 2, 3]);
  });

  // FerretDB integration/query_bitwise_test.go, Int64Max: a bitmask may use all 63 bits of an int64.
  it('takes an int64 bitmask with all 63 bits set', async () => {
    const { Long } = driver.bson;
    const docs = await t.db
      .collection<any>('docs')
      .find({ v: { $bitsAllSet: Long.MAX_VALUE } })
      .toArray();
    expect(docs).toEqual([]);
  });

  // FerretDB integration/query_projection_test.go, TestQueryProjectionSlice: find-syntax counts are
  // truncated, an infinite one takes the whole array, an expression with a null argument is null.
  it.each([
    ['1.4', 1.4, [1]],
    ['[-2.5, 2]', [-2.5, 2], [3, 4]],
    ['[1, 2.8]', [1, 2.8], [2, 3]],
    ['Infinity', Infinity, [1, 2, 3, 4]],
    ['[2, null]', [2, null], null],
  ])('projects $slice %s as MongoDB does', async (_name, slice, expected) => {
    const doc = await t.db
      .collection<any>('docs')
      .findOne({ _id: 1 }, { projection: { v: { $slice: slice } } });
    expect(doc?.['v']).toEqual(expected);
  });
});
