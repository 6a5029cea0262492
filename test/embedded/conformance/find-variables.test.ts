/**
 * Expressions outside `aggregate` are parsed as MongoDB 7.0 parses them, before a document is read: an
 * `$expr` in the filter of `find`, `count`, `distinct`, `delete`, `update` and `findAndModify`, the
 * computed fields of a `find` projection, and pipeline-style updates. A read of a variable that is not
 * defined there (the system variables and the command's `let` names are) is refused with 17276, an unknown
 * operator with 168, even on an empty collection.
 *
 * Sources, cited on each case:
 * - expr.js: jstests/core/expr.js (mongodb/mongo), "$expr in the CRUD commands" (unbound variables throw
 *   in every command; a write statement failing to parse is a write error with code 17276, after the
 *   statements before it ran).
 * - let.js: jstests/core/command_let_variables.js (mongodb/mongo): the `let` of find, delete, update and
 *   findAndModify defines names for the filter, the projection and pipeline updates; undefined names in
 *   an update's query or update part fail with 17276.
 * - server: MongoDB's source, whose messages are exact: variables.cpp (VariablesParseState::getVariable,
 *   "Use of undefined variable: <name>"), expression.cpp (Expression::parseExpression, "Unrecognized
 *   expression '<name>'"; ExpressionFixedArity), projection_parser.cpp (31325 "Unknown expression
 *   <name>"), update_driver.cpp (arrayFilters with a pipeline), pipeline_executor.cpp (stages allowed in
 *   an update).
 * - FerretDB: MongoDB's answers recorded by FerretDB's integration suite (TestAggregateAddFieldsErrors:
 *   "$addFields specification stage must be an object, got string"; the `$set` alias parses the same way).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

type Doc = Record<string, any>;

const undefinedVariable = (name: string) => `Use of undefined variable: ${name}`;

describe.each(drivers)('variables and expressions outside aggregate ($name)', (driver) => {
  const t = connect(driver, 'find_variables');
  const empty = () => t.db.collection<any>('empty');
  const run = (command: Doc) => t.db.command(command);
  // An existing collection without documents: nothing reaches the expressions, the parse alone refuses.
  beforeAll(async () => {
    await t.db.createCollection('empty');
  });

  async function filled(name: string, docs: Doc[]) {
    const coll = t.db.collection<any>(name);
    await coll.deleteMany({});
    await coll.insertMany(docs);
    return coll;
  }

  describe('undefined variables are refused before a document is read (17276)', () => {
    const unbound = { $expr: { $eq: ['$a', '$$unbound'] } };

    // expr.js: "$expr with unbound variable throws" (find, count, distinct); server: the message.
    it.each([
      ['find', () => empty().find(unbound).toArray(), 'unbound'],
      [
        'find on a collection that does not exist',
        () => t.db.collection('nowhere').find(unbound).toArray(),
        'unbound',
      ],
      ['count', () => run({ count: 'empty', query: unbound }), 'unbound'],
      ['distinct', () => run({ distinct: 'empty', key: 'a', query: unbound }), 'unbound'],
      [
        'a nested $expr',
        () =>
          empty()
            .find({ $or: [{ a: 1 }, { $expr: '$$x' }] })
            .toArray(),
        'x',
      ],
      [
        'findAndModify',
        () => run({ findAndModify: 'empty', query: unbound, update: { $set: { b: 6 } } }),
        'unbound',
      ],
    ])('in the filter of %s', async (_name, call, name) => {
      const error = await failure(call);
      expect(error['code']).toBe(17276);
      expect(error['message']).toBe(undefinedVariable(name));
    });

    // expr.js: "Any writes preceding the write that fails to parse are executed" (delete and update).
    it('as a write error of the delete or update statement that reads it', async () => {
      await filled('writes', [{ _id: 0 }, { _id: 1 }]);
      const deleted = await run({
        delete: 'writes',
        deletes: [
          { q: { _id: 0 }, limit: 1 },
          { q: { $expr: '$$unbound' }, limit: 1 },
        ],
      });
      expect(deleted['n']).toBe(1);
      expect(deleted['writeErrors'][0]['code']).toBe(17276);
      expect(deleted['writeErrors'][0]['errmsg']).toBe(undefinedVariable('unbound'));
      const updated = await run({
        update: 'writes',
        updates: [
          { q: { _id: 1 }, u: { $set: { b: 6 } } },
          { q: { $expr: '$$unbound' }, u: { $set: { b: 6 } } },
        ],
      });
      expect(updated['n']).toBe(1);
      expect(updated['writeErrors'][0]['code']).toBe(17276);
    });

    // let.js: "undefined let params in the update's query part / update part fail gracefully" (17276);
    // expr.js's message for the query part; the $set parser adds its context to the update part's.
    it("when the update's query or pipeline reads a name its let does not define", async () => {
      const query = await run({
        update: 'empty',
        updates: [{ q: { $expr: { $eq: ['$s', '$$target'] } }, u: [{ $set: { s: 'x' } }] }],
        let: { cat: 'not_a_bird' },
      });
      expect(query['writeErrors'][0]['code']).toBe(17276);
      expect(query['writeErrors'][0]['errmsg']).toBe(undefinedVariable('target'));
      const pipeline = await run({
        update: 'empty',
        updates: [{ q: {}, u: [{ $set: { s: '$$newName' } }] }],
        let: { cat: 'not_a_bird' },
      });
      expect(pipeline['writeErrors'][0]['code']).toBe(17276);
      expect(pipeline['writeErrors'][0]['errmsg']).toContain(undefinedVariable('newName'));
      const fam = await failure(() =>
        run({ findAndModify: 'empty', query: {}, update: [{ $set: { s: '$$newName' } }], upsert: true }),
      );
      expect(fam['code']).toBe(17276);
      expect(fam['message']).toContain(undefinedVariable('newName'));
      expect(await empty().countDocuments()).toBe(0);
    });

    // server: a find projection's computed fields and literals are parsed with the command's scope.
    it.each([
      ['a variable', { r: '$$x' }],
      ['a variable inside an operator', { r: { $concat: ['$a', '$$x'] } }],
      ['a $let var read outside its in', { r: [{ $let: { vars: { x: 1 }, in: '$$x' } }, '$$x'] }],
    ])('in a find projection: %s', async (_name, projection) => {
      for (const coll of [empty(), t.db.collection('nowhere')]) {
        const error = await failure(() => coll.find({}, { projection }).toArray());
        expect(error['code']).toBe(17276);
        expect(error['message']).toBe(undefinedVariable('x'));
      }
    });
  });

  describe('names the command defines are accepted', () => {
    // let.js: find with let in the filter; a projection reading let values computed up front, each value
    // reading the ones before it.
    it('in find filters and projections', async () => {
      const coll = await filled('birds', [
        { _id: 1, species: 'Blackbird' },
        { _id: 2, species: 'Song Thrush' },
      ]);
      const found = await coll
        .find(
          { $expr: { $eq: ['$species', '$$target'] } },
          { projection: { _id: 0 }, let: { target: 'Song Thrush' } },
        )
        .toArray();
      expect(found).toEqual([{ species: 'Song Thrush' }]);
      const computed = await run({
        find: 'birds',
        filter: {},
        projection: { _id: '$$c' },
        limit: 1,
        let: { a: 2, b: { $add: ['$$a', 3] }, c: { $multiply: ['$$a', '$$b'] } },
      });
      expect(computed['cursor']['firstBatch']).toEqual([{ _id: 10 }]);
      // Names bound inside the expressions themselves ($map's this, $let's vars) are defined there.
      const [mapped] = await coll
        .find(
          { _id: 1, $expr: { $let: { vars: { n: '$species' }, in: { $eq: ['$$n', 'Blackbird'] } } } },
          { projection: { _id: 0, up: { $map: { input: ['$species'], in: { $toUpper: '$$this' } } } } },
        )
        .toArray();
      expect(mapped).toEqual({ up: ['BLACKBIRD'] });
    });

    // let.js: delete and update with let in the filter and in the pipeline; findAndModify with a
    // pipeline update reading let names.
    it('in delete, update and findAndModify', async () => {
      await filled('flock', [
        { _id: 4, species: 'Song Thrush' },
        { _id: 5, species: 'spy_bird' },
        { _id: 6, species: 'Chaffinch (Fringilla coelebs)' },
      ]);
      const deleted = await run({
        delete: 'flock',
        let: { target: 'Song Thrush' },
        deletes: [{ q: { $and: [{ _id: 4 }, { $expr: { $eq: ['$species', '$$target'] } }] }, limit: 1 }],
      });
      expect(deleted['n']).toBe(1);
      const fam = await run({
        findAndModify: 'flock',
        let: { name: 'not_a_bird', real: 'dino' },
        query: { _id: 5 },
        update: [{ $project: { species: '$$name' } }, { $addFields: { suspect: '$$real' } }],
        new: true,
      });
      expect(fam['value']).toEqual({ _id: 5, species: 'not_a_bird', suspect: 'dino' });
      const updated = await run({
        update: 'flock',
        updates: [
          { q: { $expr: { $eq: ['$species', '$$target'] } }, u: [{ $set: { species: '$$newName' } }] },
        ],
        let: { target: 'Chaffinch (Fringilla coelebs)', newName: 'Chaffinch' },
      });
      expect([updated['n'], updated['nModified']]).toEqual([1, 1]);
    });

    // Manual, "update" command: a statement's `c` holds constants its pipeline update may read.
    it("in a pipeline update, the statement's c constants", async () => {
      await filled('constants', [{ _id: 1 }]);
      const updated = await run({
        update: 'constants',
        updates: [{ q: { _id: 1 }, u: [{ $set: { a: '$$k' } }], c: { k: 42 } }],
      });
      expect(updated['nModified']).toBe(1);
      expect(await t.db.collection<any>('constants').findOne({ _id: 1 })).toEqual({ _id: 1, a: 42 });
    });
  });

  describe('other parse-time expression errors apply there too', () => {
    // server: expression.cpp, Expression::parseExpression (168) and ExpressionFixedArity (16020).
    it.each([
      [
        'an unknown operator in a find filter',
        () =>
          empty()
            .find({ $expr: { $foo: 1 } })
            .toArray(),
        168,
      ],
      [
        'an unknown operator in a nested $expr',
        () =>
          empty()
            .find({ $and: [{ a: 1 }, { $expr: { $eq: [{ $foo: 1 }, 1] } }] })
            .toArray(),
        168,
      ],
      ['an unknown operator in count', () => run({ count: 'empty', query: { $expr: { $foo: 1 } } }), 168],
      [
        'a wrong argument count',
        () =>
          empty()
            .find({ $expr: { $eq: [1] } })
            .toArray(),
        16020,
      ],
      [
        'an unknown operator in a find projection',
        () =>
          empty()
            .find({}, { projection: { r: { $add: [{ $foo: 1 }] } } })
            .toArray(),
        168,
      ],
    ])('refuses %s on an empty collection', async (_name, call, code) => {
      const error = await failure(call);
      expect(error['code']).toBe(code);
      const messages: Record<number, string> = {
        168: "Unrecognized expression '$foo'",
        16020: 'Expression $eq takes exactly 2 arguments. 1 were passed in.',
      };
      expect(error['message']).toBe(messages[code]);
    });

    // server: projection_parser.cpp, parseSubObject (31325 when `$foo` is not a valid field path).
    it('refuses an unknown top-level operator in a find projection (31325)', async () => {
      const error = await failure(() =>
        empty()
          .find({}, { projection: { r: { $foo: 1 } } })
          .toArray(),
      );
      expect(error['code']).toBe(31325);
      expect(error['message']).toBe('Unknown expression $foo');
    });

    // server: update_driver.cpp (9), pipeline_executor.cpp (72); FerretDB: the $addFields/$set message.
    it.each([
      [
        'arrayFilters with a pipeline',
        { q: {}, u: [{ $set: { a: 1 } }], arrayFilters: [{ 'i.b': 1 }] },
        9,
        'arrayFilters may not be specified for pipeline-style updates',
      ],
      [
        'a stage updates do not allow',
        { q: {}, u: [{ $match: { a: 1 } }] },
        72,
        '$match is not allowed to be used within an update',
      ],
      [
        'a malformed $set',
        { q: {}, u: [{ $set: 'x' }] },
        40272,
        '$set specification stage must be an object, got string',
      ],
      [
        'an unknown expression',
        { q: {}, u: [{ $set: { a: { $foo: 1 } } }] },
        168,
        "Unrecognized expression '$foo'",
      ],
    ])(
      'refuses a pipeline update with %s on an empty collection',
      async (_name, statement, code, message) => {
        const reply = await run({ update: 'empty', updates: [statement] });
        expect(reply['writeErrors'][0]['code']).toBe(code);
        expect(reply['writeErrors'][0]['errmsg']).toContain(message);
      },
    );
  });
});
