/**
 * The `_id` index of a collection with a default collation carries that collation, and listIndexes and
 * listCollections (its `idIndex`) show it: MongoDB builds the `_id` index spec from the collection's
 * default collator (src/mongo/db/catalog/index_catalog_impl.cpp getDefaultIdIndexSpec: "collation" is
 * appended when the collection has a default collator), as jstests/core/collation.js checks with
 * getIndexes. A collection without one lists the plain `{ v: 2, key: { _id: 1 }, name: '_id_' }`.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers } from '../helpers.js';

const FRENCH = {
  locale: 'fr',
  caseLevel: false,
  caseFirst: 'off',
  strength: 2,
  numericOrdering: false,
  alternate: 'non-ignorable',
  maxVariable: 'punct',
  normalization: false,
  backwards: false,
  version: '57.1',
};

describe.each(drivers)('the _id index of a collated collection ($name)', (driver) => {
  const t = connect(driver, 'id_index_collation');

  it('lists the collection default collation on the _id index', async () => {
    await t.db.dropCollection('collated').catch(() => undefined);
    const coll = await t.db.createCollection('collated', { collation: { locale: 'fr', strength: 2 } });
    const idIndex = { v: 2, key: { _id: 1 }, name: '_id_', collation: FRENCH };
    const [info] = await t.db.listCollections({ name: 'collated' }, { nameOnly: false }).toArray();
    expect(info?.idIndex).toEqual(idIndex);
    expect(info?.options).toEqual({ collation: FRENCH });
    const [id] = await coll.listIndexes().toArray();
    expect(id).toEqual(idIndex);
  });

  it('lists a plain _id index without a default collation', async () => {
    await t.db.dropCollection('plain').catch(() => undefined);
    const coll = await t.db.createCollection('plain');
    const idIndex = { v: 2, key: { _id: 1 }, name: '_id_' };
    const [info] = await t.db.listCollections({ name: 'plain' }, { nameOnly: false }).toArray();
    expect(info?.idIndex).toEqual(idIndex);
    expect(await coll.listIndexes().toArray()).toEqual([idIndex]);
  });
});
