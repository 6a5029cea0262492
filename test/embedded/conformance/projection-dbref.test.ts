/**
 * Projections that name a DBRef's fields, in find and in `$project`, as MongoDB 7.0 runs them: a path
 * part may be `$id`, `$ref` or `$db` (FieldPath::uassertValidFieldName allows exactly these DBRef names,
 * src/mongo/db/pipeline/field_path.cpp), and a one-field `{ $id: … }` that is no expression is a
 * sub-projection (parseSubObject, src/mongo/db/query/projection_parser.cpp); any other `$` name stays
 * refused (16410, or 31325 for an unknown one-field operator).
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

/** [case, projection, the projected `d`] */
const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
  ["{ 'd.$id': 1 }", { 'd.$id': 1 }, { $id: 5 }],
  ["{ 'd.$ref': 0 }", { 'd.$ref': 0 }, { $id: 5, $db: 'other', note: 'n' }],
  ['{ d: { $id: 0 } }', { d: { $id: 0 } }, { $ref: 'targets', $db: 'other', note: 'n' }],
  ['{ d: { $ref: 1, $id: 1 } }', { d: { $ref: 1, $id: 1 } }, { $ref: 'targets', $id: 5 }],
  ['{ d: { $db: 1, note: 1 } }', { d: { $db: 1, note: 1 } }, { $db: 'other', note: 'n' }],
];

describe.each(drivers)('projections of DBRef fields ($name)', (driver) => {
  const target = connect(driver, 'projection_dbref');

  const coll = async () => {
    const c = target.db.collection<any>('refs');
    await c.deleteMany({});
    await c.insertOne({ _id: 1, d: { $ref: 'targets', $id: 5, $db: 'other', note: 'n' } });
    return c;
  };

  // The driver turns a returned document holding $ref and $id back into a DBRef; compare plain fields.
  const plain = (d: any): Record<string, unknown> =>
    d?._bsontype === 'DBRef'
      ? {
          $ref: d.collection,
          $id: d.oid,
          ...(d.db ? { $db: d.db } : {}),
          ...d.fields,
        }
      : { ...d };

  it.each(cases)('find with %s', async (_name, projection, expected) => {
    const c = await coll();
    const [row] = await c.find({}, { projection }).toArray();
    expect(row._id).toBe(1);
    expect(plain(row.d)).toEqual(expected);
  });

  it.each(cases)('$project with %s', async (_name, projection, expected) => {
    const c = await coll();
    const [row] = await c.aggregate([{ $project: projection }]).toArray();
    expect(row!._id).toBe(1);
    expect(plain(row!.d)).toEqual(expected);
  });

  it('other $ names stay refused', async () => {
    const c = await coll();
    const dotted = await failure(() => c.aggregate([{ $project: { 'd.$foo': 1 } }]).toArray());
    expect(dotted.code).toBe(16410);
    const unknown = await failure(() => c.aggregate([{ $project: { d: { $foo: 1 } } }]).toArray());
    expect(unknown.code).toBe(31325);
  });
});
