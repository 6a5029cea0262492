/**
 * Reads of undefined variables, refused as MongoDB 7.0 refuses them: when the pipeline is parsed, before
 * any document is read (so even on an empty collection), with 17276 `Use of undefined variable: <name>`
 * (VariablesParseState::getVariable, src/mongo/db/pipeline/variables.cpp). Which names are defined where
 * follows MongoDB's parsers: the system variables always (variables.cpp, kBuiltinVarNameToId, and
 * CURRENT); `$let` vars in `in` only, `$map`/`$filter` `as` (default `this`) in `in`/`cond`, `$reduce`'s
 * `this` and `value` in `in` (ExpressionLet/Map/Filter/Reduce::parse, expression.cpp); `$lookup`'s `let`
 * in its sub-pipeline (document_source_lookup.cpp); `DESCEND`, `PRUNE`, `KEEP` inside `$redact`
 * (document_source_redact.cpp); a command's `let` everywhere, each value seeing the ones before it, and
 * none of them reading a document (Variables::seedVariablesWithLetParameters).
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

type Doc = Record<string, any>;

const undefinedVariable = (name: string) => `Use of undefined variable: ${name}`;
const inProject = (name: string) => `Invalid $project :: caused by :: ${undefinedVariable(name)}`;

/** [case, pipeline, expected message]; each is refused with 17276 on an empty collection. */
const refused: [string, Doc[], string][] = [
  // Recorded against MongoDB by mongo-java-server (test-common/.../AbstractAggregationTest.java,
  // testAggregateWithUndefinedVariable): the $project parser adds its context to the message.
  ['a variable in $project', [{ $project: { r: '$$UNDEFINED' } }], inProject('UNDEFINED')],
  // FerretDB suite, TestAggregateGroupErrors "IDExpressionNonExistingVariable" (MongoDB 7.0's answer).
  ['a variable in a $group _id', [{ $group: { _id: { v: '$$s' } } }], undefinedVariable('s')],
  ['a variable in a $match $expr', [{ $match: { $expr: { $eq: ['$a', '$$x'] } } }], undefinedVariable('x')],
  [
    'a $let var read by another var',
    [{ $project: { r: { $let: { vars: { a: 1, b: '$$a' }, in: '$$b' } } } }],
    inProject('a'),
  ],
  [
    'a $let var read outside its in',
    [{ $project: { r: [{ $let: { vars: { a: 1 }, in: '$$a' } }, '$$a'] } }],
    inProject('a'),
  ],
  ['$$this outside a $map', [{ $project: { r: '$$this' } }], inProject('this')],
  [
    '$$this in a $map that names its variable',
    [{ $project: { r: { $map: { input: [1], as: 'x', in: '$$this' } } } }],
    inProject('this'),
  ],
  [
    "a $filter's variable in its limit",
    [{ $project: { r: { $filter: { input: [1], as: 'x', cond: true, limit: '$$x' } } } }],
    inProject('x'),
  ],
  [
    "$reduce's $$value in its initialValue",
    [{ $project: { r: { $reduce: { input: [1], initialValue: '$$value', in: 1 } } } }],
    inProject('value'),
  ],
  ['$$KEEP outside $redact', [{ $project: { r: '$$KEEP' } }], inProject('KEEP')],
  [
    "a $lookup's let after the $lookup",
    [{ $lookup: { from: 'other', let: { k: '$_id' }, pipeline: [], as: 'r' } }, { $project: { z: '$$k' } }],
    inProject('k'),
  ],
  [
    'a variable in a $lookup sub-pipeline',
    [{ $lookup: { from: 'other', pipeline: [{ $match: { $expr: '$$k' } }], as: 'r' } }],
    undefinedVariable('k'),
  ],
  [
    'a variable in $setWindowFields',
    [
      {
        $setWindowFields: {
          sortBy: { a: 1 },
          output: { s: { $sum: '$$w', window: { documents: [-1, 0] } } },
        },
      },
    ],
    undefinedVariable('w'),
  ],
  [
    'a variable in a $bucket groupBy',
    [{ $bucket: { groupBy: '$$g', boundaries: [0, 10] } }],
    undefinedVariable('g'),
  ],
  [
    'a variable in a nested $expr',
    [{ $match: { $or: [{ a: 1 }, { $expr: '$$x' }] } }],
    undefinedVariable('x'),
  ],
];

describe.each(drivers)('undefined variables ($name)', (driver) => {
  const t = connect(driver, 'undefined_variables');
  const empty = () => t.db.collection<any>('empty');

  async function one() {
    const coll = t.db.collection<any>('one');
    if ((await coll.countDocuments()) === 0) await coll.insertOne({ _id: 1, a: 5, xs: [1, 2] });
    return coll;
  }

  it.each(refused)('refuses %s, even on an empty collection', async (_name, pipeline, message) => {
    const error = await failure(() => empty().aggregate(pipeline).toArray());
    expect(error['code']).toBe(17276);
    expect(error['message']).toBe(message);
  });

  // The same scopes accept the reads they define: $let in its in, $map/$filter as (default this),
  // $reduce's this and value, $redact's DESCEND/PRUNE/KEEP, a $lookup's let in its (nested) pipelines.
  it('accepts variables where they are defined', async () => {
    const coll = await one();
    const [doc] = await coll
      .aggregate([
        {
          $project: {
            l: { $let: { vars: { a: 2 }, in: { $multiply: ['$$a', '$a'] } } },
            m: { $map: { input: '$xs', in: { $add: ['$$this', 1] } } },
            f: { $filter: { input: '$xs', as: 'x', cond: { $gt: ['$$x', 1] } } },
            r: { $reduce: { input: '$xs', initialValue: 0, in: { $add: ['$$value', '$$this'] } } },
          },
        },
        { $redact: { $cond: [true, '$$DESCEND', '$$PRUNE'] } },
        {
          $lookup: {
            from: 'one',
            let: { k: '$_id' },
            pipeline: [
              { $match: { $expr: { $eq: ['$_id', '$$k'] } } },
              { $lookup: { from: 'one', pipeline: [{ $project: { k: '$$k' } }], as: 'inner' } },
              { $project: { _id: 0, k: '$$k', inner: 1 } },
            ],
            as: 'j',
          },
        },
      ])
      .toArray();
    expect(doc).toEqual({ _id: 1, l: 10, m: [2, 3], f: [2], r: 3, j: [{ k: 1, inner: [{ _id: 1, k: 1 }] }] });
  });

  // variables.cpp: ROOT, CURRENT, REMOVE, NOW, CLUSTER_TIME, SEARCH_META and USER_ROLES are builtin names;
  // NOW is a date and CLUSTER_TIME a timestamp (manual, "Variables in Aggregation Expressions"), REMOVE and
  // an unset SEARCH_META are missing. USER_ROLES holds the authenticated user's roles (SERVER-72836); this
  // server has no users, so none.
  it('accepts the system variables', async () => {
    const coll = await one();
    const [doc] = await coll
      .aggregate([
        {
          $project: {
            root: '$$ROOT.a',
            current: '$$CURRENT.a',
            removed: '$$REMOVE',
            now: { $type: '$$NOW' },
            clusterTime: { $type: '$$CLUSTER_TIME' },
            searchMeta: '$$SEARCH_META',
            roles: '$$USER_ROLES',
          },
        },
      ])
      .toArray();
    expect(doc).toEqual({ _id: 1, root: 5, current: 5, now: 'date', clusterTime: 'timestamp', roles: [] });
  });

  // variables.cpp: JS_SCOPE and IS_MR are builtin names (parsed), without a value outside mapReduce, which
  // Variables::getValue refuses with 51144 once a document reads them.
  it('parses $$JS_SCOPE and refuses its value with 51144', async () => {
    expect(
      await empty()
        .aggregate([{ $project: { s: '$$JS_SCOPE' } }])
        .toArray(),
    ).toEqual([]);
    const coll = await one();
    const error = await failure(() => coll.aggregate([{ $project: { s: '$$JS_SCOPE' } }]).toArray());
    expect(error['code']).toBe(51144);
    expect(error['message']).toBe("Builtin variable '$$JS_SCOPE' is not available");
  });

  // A command's let defines its names for the whole pipeline, sub-pipelines included
  // (seedVariablesWithLetParameters defines them in the expression context every stage parses with).
  it("sees the command's let in every sub-pipeline", async () => {
    const coll = await one();
    const out = await coll
      .aggregate(
        [
          { $facet: { f: [{ $project: { _id: 0, v: '$$x' } }] } },
          { $lookup: { from: 'one', pipeline: [{ $project: { _id: 0, v: '$$x' } }], as: 'l' } },
          { $unionWith: { coll: 'one', pipeline: [{ $project: { _id: 0, u: '$$x' } }] } },
        ],
        { let: { x: 7 } },
      )
      .toArray();
    expect(out).toEqual([{ f: [{ v: 7 }], l: [{ v: 7 }] }, { u: 7 }]);
  });

  // seedVariablesWithLetParameters: each let value is parsed with the names defined before it.
  it('lets a command let value read the ones before it, not after', async () => {
    const coll = await one();
    const [doc] = await coll
      .aggregate([{ $project: { _id: 0, y: '$$y' } }], { let: { x: 1, y: { $add: ['$$x', 1] } } })
      .toArray();
    expect(doc).toEqual({ y: 2 });
    const error = await failure(() =>
      empty()
        .aggregate([{ $project: { y: '$$y' } }], { let: { y: '$$x', x: 1 } })
        .toArray(),
    );
    expect(error['code']).toBe(17276);
    expect(error['message']).toBe(undefinedVariable('x'));
  });

  // seedVariablesWithLetParameters (variables.cpp): a let value that reads the document is refused with
  // 4890500, on aggregate and find alike (message built from the source; it lacks a space after "because").
  it('refuses a command let value that reads a field or the document', async () => {
    const message = 'Command let Expression tried to access a field';
    for (const value of ['$a', '$$ROOT', { $add: ['$a', 1] }, '$$CURRENT.a']) {
      const aggregate = await failure(() =>
        empty()
          .aggregate([], { let: { x: value } })
          .toArray(),
      );
      expect(aggregate['code']).toBe(4890500);
      expect(aggregate['message']).toContain(message);
    }
    const coll = await one();
    const find = await failure(() => coll.find({}, { let: { x: '$a' } }).toArray());
    expect(find['code']).toBe(4890500);
    expect(find['message']).toContain(message);
    // A variable's path and `$literal` read no document.
    const [doc] = await coll
      .aggregate([{ $project: { _id: 0, v: '$$y', w: '$$z' } }], {
        let: { x: { o: 3 }, y: '$$x.o', z: { $literal: '$a' } },
      })
      .toArray();
    expect(doc).toEqual({ v: 3, w: '$a' });
  });

  // document_source_lookup.cpp checks each let name with validateNameForUserWrite, which fails with
  // FailedToParse (9) and this message (variable_validation.cpp, isValidName).
  it('refuses a $lookup let name MongoDB refuses', async () => {
    const error = await failure(() =>
      empty()
        .aggregate([{ $lookup: { from: 'other', let: { Bad: 1 }, pipeline: [], as: 'r' } }])
        .toArray(),
    );
    expect(error['code']).toBe(9);
    expect(error['message']).toBe("'Bad' starts with an invalid character for a user variable name");
  });
});
