/**
 * Cursors and query operators as MongoDB 7.0 answers them: a batch that ends exactly on the last
 * document leaves the cursor open (the next getMore answers an empty batch and id 0), `find`'s
 * `limit`/`skip`/`batchSize` of the wrong type, and the argument errors of `$regex`/`$options`, `$type`,
 * `$in`/`$nin`, `$all`, `$elemMatch`, `$not`, comparisons and the pathless operators. Each case cites
 * where MongoDB's answer is recorded: FerretDB's integration tests, the mongalayer project's probes of
 * a real MongoDB, or MongoDB's match-expression parser (src/mongo/db/matcher/expression_parser.cpp).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';
import type { DriverUnderTest } from '../helpers.js';

type Bson = DriverUnderTest['bson'];
/** [case, filter (built with the driver's bson classes), code, message] */
type Case = [string, (b: Bson) => Record<string, unknown>, number, string];

/**
 * Cursor ids are random int64s: the driver would hand one below 2^53 back as a JavaScript number
 * (promoteLongs), which a getMore then sends as an int32 or a double and the server refuses (14).
 */
const NO_PROMOTE = { promoteLongs: false };

const ELEMENT_TYPES = "expected types '[long, int, decimal, double']";

const filterErrors: Case[] = [
  // mongalayer filters/operators/options.test.ts, "should invalidate with number/boolean/null/array/object".
  [
    'a $options that is a number',
    () => ({ v: { $options: 123, $regex: '^x' } }),
    2,
    '$options has to be a string',
  ],
  [
    'a $options that is null',
    () => ({ v: { $options: null, $regex: '^x' } }),
    2,
    '$options has to be a string',
  ],
  [
    'a $options that is an array',
    () => ({ v: { $regex: '^x', $options: [] } }),
    2,
    '$options has to be a string',
  ],
  // expression_parser.cpp, parseRegexDocument: options given by the regex and by $options.
  [
    'options in $regex, then $options',
    (b) => ({ v: { $regex: new b.BSONRegExp('f', 'i'), $options: 'm' } }),
    51075,
    'options set in both $regex and $options',
  ],
  [
    '$options, then options in $regex',
    (b) => ({ v: { $options: 'm', $regex: new b.BSONRegExp('f', 'i') } }),
    51074,
    'options set in both $regex and $options',
  ],
  // mongalayer filters/operators/type.test.ts, "should invalidate with array" (the path names the field).
  ['an empty $type list', () => ({ v: { $type: [] } }), 9, 'v must match at least one type'],
  // FerretDB integration/query_comparison_test.go, TestQueryComparisonLt (Regex) and query_test.go (FieldPositionQueryRegex).
  [
    'a regex under $lt',
    (b) => ({ 'v.array.0': { $lt: new b.BSONRegExp('^$') } }),
    2,
    "Can't have RegEx as arg to predicate over field 'v.array.0'.",
  ],
  [
    'a regex under $gte',
    (b) => ({ v: { $gte: new b.BSONRegExp('foo') } }),
    2,
    "Can't have RegEx as arg to predicate over field 'v'.",
  ],
  // FerretDB integration/query_comparison_test.go, TestQueryComparisonNe (Regex).
  [
    'a regex under $ne',
    (b) => ({ v: { $ne: new b.BSONRegExp('foo') } }),
    2,
    "Can't have regex as arg to $ne.",
  ],
  // expression_parser.cpp, parseInExpression (one message for $in and $nin).
  ['an operator under $in', () => ({ v: { $in: [{ $eq: 1 }] } }), 2, 'cannot nest $ under $in'],
  ['an operator under $nin', () => ({ v: { $nin: [{ $regex: 'f' }] } }), 2, 'cannot nest $ under $in'],
  // expression_parser.cpp, parseAll.
  [
    '$all mixing $elemMatch and a value',
    () => ({ v: { $all: [{ $elemMatch: { a: 1 } }, 5] } }),
    2,
    '$all/$elemMatch has to be consistent',
  ],
  [
    '$all mixing $elemMatch and a document',
    () => ({ v: { $all: [{ $elemMatch: { a: 1 } }, { x: 5 }] } }),
    2,
    '$all/$elemMatch has to be consistent',
  ],
  [
    '$all holding an operator',
    () => ({ v: { $all: [{ $in: [] }, { $elemMatch: {} }] } }),
    2,
    'no $ expressions in $all',
  ],
  // mongalayer filters/operators/elemMatch.test.ts, "should not validate with operator $text/$where".
  [
    '$text under $elemMatch',
    () => ({ v: { $elemMatch: { $text: { $search: 'x' } } } }),
    2,
    '$text can only be applied to the top-level document',
  ],
  [
    '$where under $elemMatch',
    () => ({ v: { $elemMatch: { $where: 'x' } } }),
    2,
    '$where can only be applied to the top-level document',
  ],
  // expression_parser.cpp, parseExpr (the level reaches the entries of a $and).
  [
    '$expr in a $and under $elemMatch',
    () => ({ v: { $elemMatch: { $and: [{ $expr: true }] } } }),
    2,
    '$expr can only be applied to the top-level document',
  ],
  // expression_parser.cpp, parseSubField and parse (the hint for a top-level $not).
  ['$where on a field', () => ({ v: { $where: 'x' } }), 2, '$where cannot be applied to a field'],
  [
    '$not at the top level',
    () => ({ $not: { v: 1 } }),
    2,
    'unknown top level operator: $not. If you are trying to negate an entire expression, use $nor.',
  ],
  // mongalayer filters/operators/not.test.ts, "should invalidate with invalid operator".
  ['$not of a document without operators', () => ({ v: { $not: { a: 1 } } }), 2, 'unknown operator: a'],
  // expression_parser.cpp, isExpressionDocument: a field's value is a DBRef only with $ref and $id.
  ['an incomplete DBRef on a field', () => ({ v: { $id: 1 } }), 2, 'unknown operator: $id'],
  // expression_parser.cpp, parseAlwaysBoolean (parseIntegerElementToLong).
  ['$alwaysTrue of 0', () => ({ $alwaysTrue: 0 }), 9, '$alwaysTrue must be an integer value of 1'],
  ['$alwaysFalse of 1.5', () => ({ $alwaysFalse: 1.5 }), 9, 'Expected an integer: $alwaysFalse: 1.5'],
  ['$alwaysTrue of a string', () => ({ $alwaysTrue: 'x' }), 9, 'Expected a number in: $alwaysTrue: "x"'],
];

const findErrors: Case[] = [
  // FerretDB integration/cursors/batch_test.go, TestBatchSize (Bool).
  [
    'a batchSize that is a bool',
    () => ({ batchSize: true }),
    14,
    `BSON field 'FindCommandRequest.batchSize' is the wrong type 'bool', ${ELEMENT_TYPES}`,
  ],
  // FerretDB integration/explain_test.go (LimitDocument): find's IDL names the field.
  [
    'a limit that is a document',
    () => ({ limit: {} }),
    14,
    `BSON field 'FindCommandRequest.limit' is the wrong type 'object', ${ELEMENT_TYPES}`,
  ],
  [
    'a skip that is a string',
    () => ({ skip: 'a' }),
    14,
    `BSON field 'FindCommandRequest.skip' is the wrong type 'string', ${ELEMENT_TYPES}`,
  ],
];

/** [case, filter, expected _ids] — filters MongoDB takes. */
const accepted: [string, Record<string, unknown>, number[]][] = [
  // expression_parser.cpp, parse: $comment is a pathless operator at any level, with no effect.
  ['$comment inside $and', { $and: [{ $comment: 'x' }, { _id: { $gt: 1 } }] }, [2, 3]],
  // expression_parser.cpp, parseAlwaysBoolean.
  ['$alwaysTrue: 1', { $alwaysTrue: 1 }, [1, 2, 3]],
  ['$alwaysFalse: 1 in a $or', { $or: [{ $alwaysFalse: 1 }, { _id: 2 }] }, [2]],
];

describe.each(drivers)('cursors and filter operators ($name)', (driver) => {
  const t = connect(driver, 'cursor_filter');
  beforeAll(async () => {
    await t.db.collection<any>('docs').insertMany([
      { _id: 1, v: 42 },
      { _id: 2, v: 'foo' },
      { _id: 3, v: [1, 'x'] },
    ]);
  });

  it.each(filterErrors)('refuses %s', async (_name, filter, code, message) => {
    const error = await failure(() => t.db.command({ find: 'docs', filter: filter(driver.bson) }));
    expect(error['code']).toBe(code);
    expect(error['message']).toBe(message);
  });

  it.each(findErrors)('refuses find with %s', async (_name, options, code, message) => {
    const error = await failure(() => t.db.command({ find: 'docs', ...options(driver.bson) }));
    expect(error['code']).toBe(code);
    expect(error['message']).toBe(message);
  });

  it.each(accepted)('takes %s', async (_name, filter, ids) => {
    const docs = await t.db.collection<any>('docs').find(filter).sort({ _id: 1 }).toArray();
    expect(docs.map((d) => d['_id'])).toEqual(ids);
  });

  // FerretDB integration/cursors/getmore_test.go, TestCursorsGetMoreExhausted: a getMore that takes the
  // last documents keeps the cursor; the next one answers nothing and id 0; then the cursor is gone.
  it('keeps a cursor whose getMore ends exactly on the last document', async () => {
    const first = await t.db.command({ find: 'docs', batchSize: 1 }, NO_PROMOTE);
    const id = first['cursor'].id;
    const more = await t.db.command({ getMore: id, collection: 'docs', batchSize: 2 });
    expect(more['cursor'].nextBatch).toHaveLength(2);
    expect(String(more['cursor'].id)).toBe(String(id));
    const last = await t.db.command({ getMore: id, collection: 'docs', batchSize: 1 });
    expect(last['cursor'].nextBatch).toEqual([]);
    expect(String(last['cursor'].id)).toBe('0');
    const error = await failure(() => t.db.command({ getMore: id, collection: 'docs', batchSize: 1 }));
    expect(error['code']).toBe(43);
    expect(error['message']).toBe(`cursor id ${String(id)} not found`);
  });

  // FerretDB integration/cursors/batch_test.go, TestCursorsFindAfterExhausted: two getMores of one
  // document succeed on two documents; the third fails with CursorNotFound.
  it('answers getMore until a read past the end', async () => {
    const first = await t.db.command({ find: 'docs', filter: { _id: { $lt: 3 } }, batchSize: 1 }, NO_PROMOTE);
    const cmd = { getMore: first['cursor'].id, collection: 'docs', batchSize: 1 };
    expect((await t.db.command(cmd))['cursor'].nextBatch).toHaveLength(1);
    expect((await t.db.command(cmd))['cursor'].nextBatch).toHaveLength(0);
    expect((await failure(() => t.db.command(cmd)))['code']).toBe(43);
  });

  // FerretDB integration/cursors/getmore_test.go, TestCursorsGetMoreExhausted: as for getMore, a first
  // batch that ends exactly on the last document keeps the cursor open.
  it('keeps a cursor whose first batch ends exactly on the last document', async () => {
    const reply = await t.db.command({ find: 'docs', batchSize: 3 }, NO_PROMOTE);
    expect(reply['cursor'].firstBatch).toHaveLength(3);
    expect(String(reply['cursor'].id)).not.toBe('0');
    await t.db.command({ killCursors: 'docs', cursors: [reply['cursor'].id] });
  });
});
