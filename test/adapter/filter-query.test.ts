import { describe, expect, it } from 'vitest';
import { coerceQuery, filterQuery, getLimit } from 'plume/adapter';
import { BadRequest } from 'plume/errors';
import fc from 'fast-check';

function badRequest(fn: () => unknown): BadRequest {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequest);
    return error as BadRequest;
  }
  throw new Error('expected a BadRequest');
}

describe('filterQuery', () => {
  it('splits $limit, $skip, $sort and $select from the query and normalises them', () => {
    const result = filterQuery({
      name: 'Ada',
      age: { $gt: 20 },
      $limit: '5',
      $skip: '10',
      $sort: { name: '1', age: 'desc', x: -1, y: 'asc' },
      $select: 'name, age',
    });
    expect(result.filters).toEqual({
      $limit: 5,
      $skip: 10,
      $sort: { name: 1, age: -1, x: -1, y: 1 },
      $select: ['name', 'age'],
    });
    expect(result.query).toEqual({ name: 'Ada', age: { $gt: 20 } });
  });

  it('accepts every standard operator, nested in $or and $and', () => {
    const query = {
      a: { $in: [1], $nin: [2], $lt: 3, $lte: 4, $gt: 0, $gte: 1, $ne: 5 },
      $or: [{ b: 1 }, { $and: [{ c: { $ne: 2 } }, { d: 3 }] }],
    };
    expect(filterQuery(query).query).toEqual(query);
  });

  it.each([
    [{ $regex: 'x' }, '$regex'],
    [{ name: { $regex: 'x' } }, '$regex'],
    [{ $or: [{ name: { $exists: true } }] }, '$exists'],
    [{ $and: [{ $nor: [{ a: 1 }] }] }, '$nor'],
    [{ tags: { $in: [{ $foo: 1 }] } }, '$foo'],
    [{ a: [[{ $bar: 1 }]] }, '$bar'],
    [{ $pipeline: [] }, '$pipeline'],
  ])('rejects an operator outside the allow-list (%j) with a 400 naming it', (query, key) => {
    expect(badRequest(() => filterQuery(query)).message).toContain(key);
  });

  it('accepts operators from the allow-list anywhere', () => {
    const query = { name: { $regex: '^a', $options: 'i' }, $or: [{ title: { $regex: 'b' } }] };
    expect(filterQuery(query, { operators: ['$regex', '$options'] }).query).toEqual(query);
  });

  it.each(['$where', '$function', '$accumulator', '$expr'])(
    'never accepts %s, even when listed or trusted',
    (op) => {
      expect(badRequest(() => filterQuery({ [op]: 'x' }, { operators: [op] })).message).toContain(op);
      expect(badRequest(() => filterQuery({ a: { [op]: 1 } }, { operators: [op] })).message).toContain(op);
      expect(badRequest(() => filterQuery({ $or: [{ [op]: 1 }] }, { operators: 'all' })).message).toContain(
        op,
      );
    },
  );

  it.each([
    [{ $limit: 'abc' }, '$limit'],
    // Decimal digits only, as the schema validators read numbers: not Number()'s hex, exponent or spaces.
    [{ $limit: '0x10' }, '$limit'],
    [{ $limit: ' 5 ' }, '$limit'],
    [{ $skip: '1e1' }, '$skip'],
    [{ $limit: -1 }, '$limit'],
    [{ $limit: 1.5 }, '$limit'],
    [{ $skip: '-3' }, '$skip'],
    [{ $skip: { a: 1 } }, '$skip'],
    [{ $sort: { name: 'up' } }, "'name'"],
    [{ $sort: 'name' }, '$sort'],
    [{ $sort: Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`f${i}`, 1])) }, '32'],
    [{ $select: Array.from({ length: 201 }, (_, i) => `f${i}`) }, '200'],
    [{ $sort: { name: 'constructor' } }, "'name'"],
    [{ $select: { a: 1 } }, '$select'],
    [{ $select: ['$where'] }, '$where'],
    // Paths the database refuses in a projection or sort (FieldPath codes 15998, 40353, 16410).
    [{ $select: ['a..b'] }, "'a..b'"],
    [{ $select: 'a.' }, "'a.'"],
    [{ $select: ['a.$b'] }, "'a.$b'"],
    [{ $sort: { 'a..b': 1 } }, "'a..b'"],
    [{ a: { $in: 'x' } }, '$in'],
    [{ $or: {} }, '$or'],
    [{ $or: [] }, '$or'],
  ])('rejects a malformed filter or operator value (%j) with a 400', (query, text) => {
    expect(badRequest(() => filterQuery(query)).message).toContain(text);
  });

  it('rejects a non-object query', () => {
    badRequest(() => filterQuery('name=x'));
    badRequest(() => filterQuery([1, 2]));
  });

  it('rejects queries nested deeper than 10 levels without overflowing the stack', () => {
    let deep: Record<string, unknown> = { a: 1 };
    for (let i = 0; i < 100_000; i++) deep = { $or: [deep] };
    expect(badRequest(() => filterQuery(deep)).message).toContain('nested too deeply');
    let nine: Record<string, unknown> = { a: 1 };
    for (let i = 0; i < 4; i++) nine = { $or: [nine] };
    expect(() => filterQuery(nine)).not.toThrow();
  });

  it('rejects queries with too many keys and items', () => {
    const query = { a: { $in: Array.from({ length: 6000 }, (_, i) => i) } };
    expect(badRequest(() => filterQuery(query)).message).toContain('too large');
    expect(() => filterQuery(query, { maxItems: 10_000 })).not.toThrow();
  });

  it('applies pagination to $limit: default when absent, capped at max, 0 kept', () => {
    const paginate = { default: 10, max: 50 };
    expect(filterQuery({}, { paginate }).filters.$limit).toBe(10);
    expect(filterQuery({ $limit: 500 }, { paginate }).filters.$limit).toBe(50);
    expect(filterQuery({ $limit: '0' }, { paginate }).filters.$limit).toBe(0);
    expect(filterQuery({}, {}).filters.$limit).toBeUndefined();
    expect(getLimit(undefined, { max: 5 })).toBe(5);
  });

  it('keeps extra filters from the filters option out of the query', () => {
    const result = filterQuery(
      { $populate: 'user', a: 1 },
      { filters: { $populate: (v) => String(v).toUpperCase() } },
    );
    expect(result.filters.$populate).toBe('USER');
    expect(result.query).toEqual({ a: 1 });
  });

  it('allows any non-forbidden operator, top level included, in trusted mode', () => {
    const query = { $text: { $search: 'x' }, tags: { $elemMatch: { $exists: true } } };
    expect(filterQuery(query, { operators: 'all' }).query).toEqual(query);
  });
});

describe('coerceQuery', () => {
  const convert = coerceQuery({ age: 'number', count: 'integer', active: 'boolean' });

  it('turns URL strings into numbers and booleans for the listed fields', () => {
    expect(
      convert({
        age: { $gt: '20', $in: ['1', '2'], $ne: 3 },
        count: '4',
        active: 'true',
        name: '5',
        $or: [{ age: '7' }, { active: 'false' }],
      }),
    ).toEqual({
      age: { $gt: 20, $in: [1, 2], $ne: 3 },
      count: 4,
      active: true,
      name: '5',
      $or: [{ age: 7 }, { active: false }],
    });
  });

  it('rejects strings that do not convert with a 400 naming the field', () => {
    expect(badRequest(() => convert({ age: { $gt: 'abc' } })).message).toContain("'age'");
    expect(badRequest(() => convert({ count: '1.5' })).message).toContain("'count'");
    expect(badRequest(() => convert({ active: 'yes' })).message).toContain("'active'");
    expect(badRequest(() => convert({ age: '' })).message).toContain("'age'");
  });

  it('reads numbers in decimal digits only: 0x10, 1e1, spaces, + and Infinity are a 400 naming the field', () => {
    expect(convert({ age: '-1.25', count: '007' })).toEqual({ age: -1.25, count: 7 });
    for (const text of ['0x10', '1e1', ' 5', '+5', '.5', 'Infinity', '0b1']) {
      expect(badRequest(() => convert({ age: { $in: [text] } })).message, text).toContain("'age'");
    }
    expect(badRequest(() => convert({ active: ' true' })).message).toContain("'active'");
  });
});

describe('filterQuery on arbitrary input', () => {
  it('either accepts a query or throws a BadRequest, never anything else', () => {
    const key = fc.oneof(
      fc.constantFrom(
        '$limit',
        '$skip',
        '$sort',
        '$select',
        '$or',
        '$and',
        '$in',
        '$gt',
        '$regex',
        '$where',
        'a',
        'b',
      ),
      fc.string({ maxLength: 6 }),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue({ maxDepth: 2 }),
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(key, tie('node'), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 6 }), (query) => {
        try {
          filterQuery(query, { paginate: { default: 10, max: 20 } });
        } catch (error) {
          expect(error).toBeInstanceOf(BadRequest);
        }
      }),
      { numRuns: 500 },
    );
  });
});
