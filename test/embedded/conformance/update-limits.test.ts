/**
 * Updates MongoDB 7.0 refuses or allows on what they would build: an array padded past 1,500,000 nulls,
 * `$`-prefixed field names, and `$pull` conditions using query features banned there. Each expected
 * answer cites its source: MongoDB's server source (src/mongo/db/update/…, src/mongo/db/matcher/…), its
 * jstests, or the MongoDB manual.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

type Doc = Record<string, any>;

/** path_support.cpp, maybePadTo: CannotBackfillArray when more than kMaxPaddingAllowed nulls are needed. */
const BACKFILL = { code: 34, message: "can't backfill more than 1500000 elements" };

/** storage_validation.cpp, validateDollarPrefixElement (the message is built there, not recorded). */
const dollarField = (name: string): string =>
  `The dollar ($) prefixed field '${name}' in '${name}' is not allowed in the context of an update's replacement document`;

describe.each(drivers)('update limits ($name)', (driver) => {
  const t = connect(driver, 'update_limits');
  const coll = (name: string) => t.db.collection<any>(name);

  describe('padding an array by index', () => {
    // Each would pad `arr` with ~100 million nulls; refused before any is added, so the test is quick.
    const far = 'arr.99999999';
    const creating: [string, Doc][] = [
      ['$set', { $set: { [far]: 1 } }],
      ['$inc', { $inc: { [far]: 1 } }],
      ['$mul', { $mul: { [far]: 2 } }],
      ['$min', { $min: { [far]: 1 } }],
      ['$max', { $max: { [far]: 1 } }],
      ['$currentDate', { $currentDate: { [far]: true } }],
      ['$bit', { $bit: { [far]: { or: 1 } } }],
      ['$push to a field of the new element', { $push: { [`${far}.x`]: 1 } }],
      ['$addToSet', { $addToSet: { [far]: 1 } }],
      ['$set through $[]', { $set: { 'nested.$[].99999999': 1 } }],
      ['$inc through $[]', { $inc: { 'nested.$[].99999999': 1 } }],
    ];

    it.each(creating)('%s is refused and the document is unchanged', async (name, update) => {
      const c = coll('pad_ops');
      const doc = { _id: name, arr: [1, 2], nested: [[1]] };
      await c.insertOne(doc);
      const error = await failure(() => c.updateOne({ _id: name }, update));
      expect(error.code).toBe(BACKFILL.code);
      expect(error.message).toBe(BACKFILL.message);
      expect(await c.findOne({ _id: name })).toEqual(doc);
    });

    it('refuses one null past the limit and pads below it', async () => {
      const c = coll('pad_bounds');
      await c.insertOne({ _id: 1, arr: [1, 2] });
      // Index 1500003 of a 2-element array needs 1,500,001 nulls: one more than kMaxPaddingAllowed.
      const error = await failure(() => c.updateOne({ _id: 1 }, { $set: { 'arr.1500003': 1 } }));
      expect(error.code).toBe(BACKFILL.code);
      // path_support.cpp pads the missing indexes with nulls (path_support_test.cpp: {b: [{c:1},null,…,1]}).
      await c.updateOne({ _id: 1 }, { $set: { 'arr.4': 1 } });
      expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, arr: [1, 2, null, null, 1] });
    });

    it('refuses it in an upsert, which inserts nothing', async () => {
      const c = coll('pad_upsert');
      // The upserted document starts from the filter's equalities, so `arr` is an array there.
      const error = await failure(() =>
        c.updateOne({ _id: 'u', arr: [1, 2] }, { $setOnInsert: { [`arr.99999999`]: 1 } }, { upsert: true }),
      );
      expect(error.code).toBe(BACKFILL.code);
      expect(await c.countDocuments({})).toBe(0);
    });

    it('ignores $setOnInsert when the update matches a document (modifier_node.cpp: kInsertOnly)', async () => {
      const c = coll('pad_on_insert');
      await c.insertOne({ _id: 1, arr: [1, 2] });
      const result = await c.updateOne({ _id: 1 }, { $setOnInsert: { 'arr.99999999': 1 } }, { upsert: true });
      expect(result.modifiedCount).toBe(0);
      expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, arr: [1, 2] });
    });

    it('refuses it in findAndModify, with and without upsert', async () => {
      const c = coll('pad_fam');
      await c.insertOne({ _id: 1, arr: [1, 2] });
      const update = { $set: { 'arr.99999999': 1 } };
      const error = await failure(() => c.findOneAndUpdate({ _id: 1 }, update));
      expect(error.code).toBe(BACKFILL.code);
      expect(error.message).toBe(BACKFILL.message);
      const upsert = await failure(() =>
        c.findOneAndUpdate({ _id: 2, arr: [1] }, update, { upsert: true, returnDocument: 'after' }),
      );
      expect(upsert.code).toBe(BACKFILL.code);
      expect(await c.find().toArray()).toEqual([{ _id: 1, arr: [1, 2] }]);
    });

    it('stops a multi-document update at the document that would pad, leaving it and later ones', async () => {
      const c = coll('pad_multi');
      // On documents 1 and 3 `arr` is a document, so `arr.99999999` is a field name; only 2 would pad.
      await c.insertMany([
        { _id: 1, arr: {} },
        { _id: 2, arr: [1] },
        { _id: 3, arr: {} },
      ]);
      const error = await failure(() => c.updateMany({}, { $set: { 'arr.99999999': 1 } }));
      expect(error.code).toBe(BACKFILL.code);
      // MongoDB's multi-update runs without a transaction and stops at the failing document; what it
      // left in document 1 is not checked here (see docs/embedded.md, "Known differences").
      expect(await c.findOne({ _id: 2 })).toEqual({ _id: 2, arr: [1] });
      expect(await c.findOne({ _id: 3 })).toEqual({ _id: 3, arr: {} });
    });
  });

  describe('$-prefixed field names', () => {
    const stored = { _id: 0, n: 0, pricing: { sale: true, $discount: 60 }, $bin: 200, $box: {} };
    const fresh = async (name: string) => {
      const c = coll(name);
      await c.deleteMany({});
      await c.insertOne(stored);
      return c;
    };

    // jstests/core/write/update/updateh.js: "Allow $ in nested field names" and "Fields that are not at
    // the top-level are allowed to have $-prefixes".
    it.each([
      ['a.$b', { a: { $b: 1 } }],
      ['sneaky.$x', { sneaky: { $x: 1 } }],
      ['secret.agent$.$x', { secret: { agent$: { $x: 1 } } }],
      ['ke$sha', { ke$sha: 1 }],
    ])('$set of %s below the top level is stored', async (path, added) => {
      const c = await fresh('dollar_nested');
      await c.updateOne({ n: 0 }, { $set: { [path]: 1 } });
      expect(await c.findOne({ _id: 0 })).toEqual({ ...stored, ...added });
    });

    it('updates a nested $-prefixed field with any operator', async () => {
      // The manual (core/dot-dollar-considerations/dollar-prefix): findAndModify with
      // {$inc: {"pricing.$discount": 10}} on {pricing: {sale: true, "$discount": 60}}.
      const c = await fresh('dollar_inc');
      const after = await c.findOneAndUpdate(
        { _id: 0 },
        { $inc: { 'pricing.$discount': 10 } },
        { returnDocument: 'after' },
      );
      expect(after).toEqual({ ...stored, pricing: { sale: true, $discount: 70 } });
    });

    // updateh.js: "Disallow $ in field names at the top-level" (assert.writeError); the code and message
    // are storage_validation.cpp's, which checks the top-level element an update creates or changes.
    it.each([
      ['$set of $z', { $set: { $z: 1 } }, '$z'],
      ['$inc of $z', { $inc: { $z: 1 } }, '$z'],
      ['$set of $secret.agent.x', { $set: { '$secret.agent.x': 1 } }, '$secret'],
      ['$set of $reffoo (SERVER-11241)', { $set: { $reffoo: 1 } }, '$reffoo'],
      ['$set changing the top-level $bin', { $set: { $bin: 201 } }, '$bin'],
      ['$rename to $moved', { $rename: { n: '$moved' } }, '$moved'],
    ])('%s at the top level is refused', async (_name, update, field) => {
      const c = await fresh('dollar_top');
      const error = await failure(() => c.updateOne({ n: 0 }, update));
      expect(error.code).toBe(52);
      expect(error.message).toContain(dollarField(field));
      expect(await c.findOne({ _id: 0 })).toEqual(stored);
    });

    it('allows a no-op on a top-level $ field and changes inside an existing one', async () => {
      const c = await fresh('dollar_noop');
      // modifier_node.cpp, applyToExistingElement: a no-op returns before validateUpdate.
      const noop = await c.updateOne({ n: 0 }, { $set: { $bin: 200 } });
      expect(noop.modifiedCount).toBe(0);
      // applyToNonexistentElement validates the created element at its depth (2 here), not the top level.
      await c.updateOne({ n: 0 }, { $set: { '$box.y': 1 } });
      expect(await c.findOne({ _id: 0 })).toEqual({ ...stored, $box: { y: 1 } });
    });

    it('refuses a top-level DBRef field out of place (storage_validation.cpp)', async () => {
      const c = await fresh('dollar_dbref');
      const error = await failure(() => c.updateOne({ n: 0 }, { $set: { $ref: 'x' } }));
      expect(error.code).toBe(55);
      expect(error.message).toContain('The DBRef $ref field must be followed by a $id field');
      // updateh.js: "'$id', '$db', and '$ref' are acceptable field names in the correct case (subdoc)".
      await c.updateOne({ n: 0 }, { $set: { x: { $ref: '1', $id: 1, $db: '1' } } });
      const { x } = (await c.findOne({ _id: 0 })) as Doc; // the driver reads it back as a DBRef
      expect({ collection: x.collection, oid: x.oid, db: x.db }).toEqual({
        collection: '1',
        oid: 1,
        db: '1',
      });
    });

    it('lets an upsert insert a top-level $ field, but not update one (the manual)', async () => {
      // core/dot-dollar-considerations/dollar-prefix: the $hotel example; upsert_stage.cpp validates the
      // new document with allowTopLevelDollarPrefixes.
      const c = coll('dollar_upsert');
      const update = { $set: { phone: 25.17, $hotel: 320.1 } };
      await c.updateOne({ date: '2021-07-07' }, update, { upsert: true });
      expect(await c.findOne({ date: '2021-07-07' }, { projection: { _id: 0 } })).toEqual({
        date: '2021-07-07',
        phone: 25.17,
        $hotel: 320.1,
      });
      // "If this sample code matches an existing document, the update will fail".
      const error = await failure(() =>
        c.updateOne({ date: '2021-07-07' }, { $set: { $hotel: 1 } }, { upsert: true }),
      );
      expect(error.code).toBe(52);
    });
  });

  describe('$pull conditions', () => {
    // pull_node.cpp parses a condition with MatchExpressionParser::kBanAllSpecialFeatures; the codes are
    // pull_node_test.cpp's (InitWithExprElemFails …), the messages expression_parser.cpp's.
    const banned: [string, Doc, number, string][] = [
      ['$expr', { $expr: { $eq: ['$a', 1] } }, 224, '$expr is not allowed in this context'],
      ['$expr in $or', { $or: [{ a: 1 }, { $expr: true }] }, 224, '$expr is not allowed in this context'],
      ['$jsonSchema', { $jsonSchema: {} }, 224, '$jsonSchema is not allowed in this context'],
      ['$where', { $where: 'true' }, 2, '$where is not allowed in this context'],
      ['$text', { $text: { $search: 'a' } }, 2, '$text is not allowed in this context'],
      [
        '$expr in $elemMatch',
        { $elemMatch: { $expr: true } },
        2,
        '$expr can only be applied to the top-level document',
      ],
      // PullNode::init asks parsePathAcceptingKeyword about the first field: `$not` is none of the
      // parser's path keywords, so the condition is a query on the elements, where `$not` cannot stand.
      [
        '$not',
        { $not: { $gt: 5 } },
        2,
        'unknown top level operator: $not. If you are trying to negate an entire expression, use $nor.',
      ],
      [
        'an unknown operator',
        { a: 1, $foo: 1 },
        2,
        "unknown top level operator: $foo. If you have a field name that starts with a '$' symbol, consider using $getField or $setField.",
      ],
      [
        '$near',
        { $near: [0, 0] },
        5626500,
        '$geoNear, $near, and $nearSphere are not allowed in this context',
      ],
      [
        '$nearSphere on a field',
        { loc: { $nearSphere: [0, 0] } },
        5626500,
        '$geoNear, $near, and $nearSphere are not allowed in this context',
      ],
    ];

    it.each(banned)('%s is refused, even when nothing matches', async (_name, condition, code, message) => {
      const c = coll('pull_banned');
      await c.deleteMany({});
      await c.insertOne({ _id: 1, tags: ['a', { a: 1 }] });
      const update: Doc = { $pull: { tags: condition } };
      for (const filter of [{ _id: 1 }, { _id: 'none' }]) {
        const error = await failure(() => c.updateOne(filter, update));
        expect(error.code).toBe(code);
        expect(error.message).toContain(message);
      }
      const fam = await failure(() => c.findOneAndUpdate({ _id: 1 }, update));
      expect(fam.code).toBe(code);
      expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, tags: ['a', { a: 1 }] });
    });

    it('still pulls with ordinary conditions', async () => {
      const c = coll('pull_ok');
      await c.insertOne({ _id: 1, tags: ['a', 'b', { a: 1 }, { a: 2 }] });
      const pulls: Doc[] = [{ $pull: { tags: { $in: ['a'] } } }, { $pull: { tags: { a: { $gt: 1 } } } }];
      for (const update of pulls) await c.updateOne({ _id: 1 }, update);
      expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, tags: ['b', { a: 1 }] });
    });
  });
});
