/**
 * `count`, `distinct` and `find` parse their filter even when the collection does not exist: a valid
 * filter answers nothing, a malformed one is refused as on an existing collection.
 *
 * Sources:
 * - count11.js: jstests/core/query/count/count11.js (mongodb/mongo), SERVER-8514 "the count command
 *   returns an error to the user when given an invalid query predicate, even when the collection doesn't
 *   exist" (`{a: {$invalid: 1}}` throws, `{a: 1}` counts 0).
 * - distinct: ParsedDistinct::parse (src/mongo/db/query/parsed_distinct.cpp) canonicalizes the query
 *   before distinct looks the collection up.
 * - server: MongoDB's source for the message, expression_parser.cpp ("unknown operator: <name>", BadValue
 *   2) and variables.cpp ("Use of undefined variable: <name>", 17276).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

type Doc = Record<string, any>;

const MISSING = 'never_created';

describe.each(drivers)('filters on a collection that does not exist ($name)', (driver) => {
  const t = connect(driver, 'missing_collection_filters');
  const run = (command: Doc) => t.db.command(command);
  beforeAll(async () => {
    await t.db
      .collection(MISSING)
      .drop()
      .catch(() => undefined);
  });

  it('answers a valid filter with nothing (count11.js)', async () => {
    expect(await run({ count: MISSING, query: { a: 1 } })).toMatchObject({ n: 0, ok: 1 });
    expect(await run({ distinct: MISSING, key: 'a', query: { a: 1 } })).toMatchObject({ values: [], ok: 1 });
    expect(await t.db.collection(MISSING).find({ a: 1 }).toArray()).toEqual([]);
  });

  it.each([
    ['count', { count: MISSING, query: { a: { $invalid: 1 } } }],
    ['distinct', { distinct: MISSING, key: 'a', query: { a: { $invalid: 1 } } }],
    ['find', { find: MISSING, filter: { a: { $invalid: 1 } } }],
  ])('%s refuses an unknown query operator with 2 (count11.js, server)', async (_name, command) => {
    const error = await failure(() => run(command));
    expect(error['code']).toBe(2);
    expect(error['message']).toBe('unknown operator: $invalid');
  });

  it.each([
    ['count', { count: MISSING, query: { $expr: { $eq: ['$a', '$$nope'] } } }],
    ['distinct', { distinct: MISSING, key: 'a', query: { $expr: { $eq: ['$a', '$$nope'] } } }],
  ])('%s refuses an undefined variable in $expr with 17276 (server)', async (_name, command) => {
    const error = await failure(() => run(command));
    expect(error['code']).toBe(17276);
    expect(error['message']).toBe('Use of undefined variable: nope');
  });

  it('leaves the collection uncreated', async () => {
    const names = (await t.db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    expect(names).not.toContain(MISSING);
  });
});
