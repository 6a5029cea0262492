/**
 * Where an update puts the fields it creates. MongoDB 7.0 applies an operator update's paths as one
 * tree whose children are sorted by field name, whatever the order of the operators and of their
 * fields in the update document (src/mongo/db/update/update_object_node.h: `_children` ordered by
 * `pathsupport::cmpPathsAndArrayIndexes`, src/mongo/db/update/path_support.h; the manual's "Update
 * Operators" page, Behavior: "Starting in MongoDB 5.0, update operators process document fields with
 * string-based names in lexicographic order. Fields with numeric names are processed in numeric
 * order."). A created field is appended to its document; the fields already there keep their places.
 * The embedded database created them in the update's order, so the stored document disagreed both with
 * MongoDB and with the change event it announced (whose `updatedFields` came in MongoDB's order).
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers } from '../helpers.js';

describe.each(drivers)('the order of the fields an update creates ($name)', (driver) => {
  const t = connect(driver, 'update_field_order');

  async function keysAfter(doc: object, update: object, path: string[] = []): Promise<string[]> {
    const coll = t.db.collection<any>('order');
    await coll.deleteMany({});
    await coll.insertOne({ _id: 1, ...doc });
    await coll.updateOne({ _id: 1 }, update);
    let value: any = await coll.findOne({ _id: 1 });
    for (const part of path) value = value[part];
    return Object.keys(value);
  }

  it('appends created fields sorted by name, across operators, after the existing ones', async () => {
    expect(await keysAfter({}, { $set: { z: 1, k: 1 } })).toEqual(['_id', 'k', 'z']);
    expect(await keysAfter({ m: 1 }, { $inc: { z: 2, k: -1 } })).toEqual(['_id', 'm', 'k', 'z']);
    expect(await keysAfter({ y: 0 }, { $set: { z: 1 }, $inc: { a: 1 }, $max: { y: 5 } })).toEqual([
      '_id',
      'y',
      'a',
      'z',
    ]);
    // An existing field keeps its place, a new one goes last in order.
    expect(await keysAfter({ z: 1, b: 1 }, { $set: { a: 1, z: 2 } })).toEqual(['_id', 'z', 'b', 'a']);
  });

  it('orders the fields of an embedded document the update creates or extends, not the values it sets', async () => {
    expect(await keysAfter({}, { $set: { 'n.z': 1, 'n.b': 1 } }, ['n'])).toEqual(['b', 'z']);
    expect(await keysAfter({ n: { q: 1 } }, { $set: { 'n.z': 1, 'n.b': 1 } }, ['n'])).toEqual([
      'q',
      'b',
      'z',
    ]);
    // A document given as a value is stored as given.
    expect(await keysAfter({}, { $set: { n: { z: 1, b: 1 } } }, ['n'])).toEqual(['z', 'b']);
    // Names that start with a digit sort as numbers among themselves: 9 before 10 (JavaScript objects
    // list such keys first and in numeric order anyway, so this checks the names around them).
    expect(await keysAfter({ n: { x: 1 } }, { $set: { 'n.b10': 1, 'n.b9': 1, 'n.A': 1 } }, ['n'])).toEqual([
      'x',
      'A',
      'b10',
      'b9',
    ]);
  });

  it('orders fields created in array elements, through $[] and $[x] too, and by $rename', async () => {
    const coll = t.db.collection<any>('order');
    await coll.deleteMany({});
    await coll.insertOne({ _id: 1, arr: [{ id: 0 }, { id: 1 }], o: 1 });
    await coll.updateOne({ _id: 1 }, { $set: { 'arr.1.z': 1, 'arr.1.c': 2, 'arr.0.m': 3 } });
    const doc: any = await coll.findOne({ _id: 1 });
    expect(doc.arr.map((e: object) => Object.keys(e))).toEqual([
      ['id', 'm'],
      ['id', 'c', 'z'],
    ]);
    await coll.updateOne(
      { _id: 1 },
      { $set: { 'arr.$[].y': 1, 'arr.$[e].b': 2 } },
      { arrayFilters: [{ 'e.id': 1 }] },
    );
    const again: any = await coll.findOne({ _id: 1 });
    expect(again.arr.map((e: object) => Object.keys(e))).toEqual([
      ['id', 'm', 'y'],
      ['id', 'c', 'z', 'b', 'y'],
    ]);
    expect(await keysAfter({ a: 1, m: 1 }, { $rename: { a: 'zz' }, $set: { b: 1 } })).toEqual([
      '_id',
      'm',
      'b',
      'zz',
    ]);
  });

  it('orders the fields an upsert adds after those of the query', async () => {
    const coll = t.db.collection<any>('order');
    await coll.deleteMany({});
    await coll.updateOne(
      { _id: 7, q: 1 },
      { $set: { z: 1, k: 1 }, $setOnInsert: { c: 1 } },
      { upsert: true },
    );
    expect(Object.keys(await coll.findOne({ _id: 7 }))).toEqual(['_id', 'q', 'c', 'k', 'z']);
  });

  it('stores what its change event describes', async () => {
    const coll = t.db.collection<any>('order');
    await coll.deleteMany({});
    await coll.insertOne({ _id: 1, m: 1 });
    const stream = coll.watch();
    await stream.tryNext();
    await coll.updateOne({ _id: 1 }, { $set: { z: 1 }, $inc: { k: 1 } });
    const event: any = await stream.next();
    await stream.close();
    expect(Object.keys(event.updateDescription.updatedFields)).toEqual(['k', 'z']);
    expect(Object.keys(await coll.findOne({ _id: 1 }))).toEqual(['_id', 'm', 'k', 'z']);
  });
});
