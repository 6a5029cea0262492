import { BadRequest } from 'plume/errors';
import { createValidator, getValidator, querySyntax, Type } from 'plume/schema';
import { describe, expect, it } from 'vitest';

const user = Type.Object({
  name: Type.String(),
  age: Type.Number(),
  text: Type.Optional(Type.String()),
});
const ajv = createValidator();
const validate = getValidator(
  querySyntax(user, { text: { $regex: Type.String(), $options: Type.String() } }),
  ajv,
);

function rejection(query: unknown): BadRequest {
  try {
    void validate(query, 'query');
  } catch (error: unknown) {
    if (error instanceof BadRequest) return error;
    throw error;
  }
  throw new Error('query was accepted');
}

describe('querySyntax', () => {
  it('accepts filters, operators and $limit/$skip/$sort/$select/$or/$and', () => {
    const query = {
      name: 'Ada',
      age: { $gte: 18, $lt: 99, $ne: 30, $in: [20, 21], $nin: [40] },
      text: { $regex: '^hi', $options: 'i' },
      $limit: 10,
      $skip: 0,
      $sort: { age: -1, name: 1 },
      $select: ['name', 'age'],
      $or: [{ name: 'Bob' }, { age: { $gt: 60 } }],
      $and: [{ age: { $gt: 1 } }, { $or: [{ name: 'a' }, { name: 'b' }] }],
    };
    expect(validate(query)).toEqual(query);
  });

  it('coerces URL strings to numbers where the schema says number', () => {
    const query = validate({
      age: { $gt: '20', $in: ['1', '2'] },
      $limit: '5',
      $skip: '10',
      $sort: { age: '-1' },
    });
    expect(query).toEqual({ age: { $gt: 20, $in: [1, 2] }, $limit: 5, $skip: 10, $sort: { age: -1 } });
  });

  it('rejects an unknown operator with 400 naming it', () => {
    const error = rejection({ age: { $where: 'x' } });
    expect(error.code).toBe(400);
    expect(error.message).toBe("Invalid query: /age must NOT have additional property '$where'");
    expect(error.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ keyword: 'additionalProperties', instancePath: '/age' }),
      ]),
    );
  });

  it('rejects an extension operator on another property', () => {
    expect(rejection({ name: { $regex: 'a' } }).message).toContain("'$regex'");
  });

  it('rejects unknown properties and top-level operators', () => {
    expect(rejection({ password: 'x' }).message).toBe(
      "Invalid query: must NOT have additional property 'password'",
    );
    expect(rejection({ $populate: 'x' }).message).toContain("'$populate'");
    expect(rejection({ $or: [{ secret: 1 }] }).message).toContain("'secret'");
  });

  it('rejects bad values with the most specific path', () => {
    expect(rejection({ age: { $gt: 'abc' } }).message).toBe('Invalid query: /age/$gt must be number');
    expect(rejection({ $limit: -1 }).message).toBe('Invalid query: /$limit must be >= 0');
    expect(rejection({ $limit: '1.5' }).message).toBe('Invalid query: /$limit must be integer');
    expect(rejection({ $sort: { age: 2 } }).message).toContain('/$sort/age');
    expect(rejection({ $sort: { nope: 1 } }).message).toContain("'nope'");
    expect(rejection({ $select: ['password'] }).message).toContain('/$select/0');
  });

  it('accepts the properties of a TypeBox object as well as the object', () => {
    const fromProperties = getValidator(querySyntax(user.properties), ajv);
    expect(fromProperties({ age: { $lte: '3' } })).toEqual({ age: { $lte: 3 } });
  });

  it('refuses extensions for properties it does not know', () => {
    expect(() => querySyntax(user, { nope: { $regex: Type.String() } })).toThrow(/'nope'/);
  });
});
