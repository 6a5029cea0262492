import { Ajv } from 'ajv';
import { ObjectId } from 'mongodb';
import { ObjectId as ObjectId6 } from 'mongodb6';
import { BadRequest } from 'plume/errors';
import {
  createValidator,
  getValidator,
  keywordObjectId,
  ObjectIdSchema,
  resolveObjectId,
  resolveQueryObjectId,
  Type,
} from 'plume/schema';
import { describe, expect, it } from 'vitest';

const hex = '5f1e3c6a9d0b4a2c8e7f6a5b';

describe('keywordObjectId', () => {
  const ajv = new Ajv();
  ajv.addKeyword(keywordObjectId);
  const validate = ajv.compile({
    type: 'object',
    properties: { userId: { objectid: true } },
  });

  it('converts a 24-character hex string to an ObjectId in place', () => {
    const data: Record<string, unknown> = { userId: hex };
    expect(validate(data)).toBe(true);
    expect(data.userId).toBeInstanceOf(ObjectId);
    expect(String(data.userId)).toBe(hex);
  });

  it('converts ids inside arrays', () => {
    const validateList = ajv.compile({ type: 'array', items: { objectid: true } });
    const data: unknown[] = [hex, hex.toUpperCase()];
    expect(validateList(data)).toBe(true);
    expect(data.every((id) => id instanceof ObjectId)).toBe(true);
  });

  it('accepts an existing ObjectId and a copy from another bson version unchanged', () => {
    const id = new ObjectId();
    const data: Record<string, unknown> = { userId: id };
    expect(validate(data)).toBe(true);
    expect(data.userId).toBe(id);
    const foreign = new ObjectId6();
    const other: Record<string, unknown> = { userId: foreign };
    expect(validate(other)).toBe(true);
    expect(other.userId).toBe(foreign);
  });

  it.each([
    ['a 12-character string', 'abcdefghijkl'],
    ['a 23-character hex string', hex.slice(1)],
    ['a non-hex 24-character string', 'zzzzzzzzzzzzzzzzzzzzzzzz'],
    ['a number', 12],
    ['null', null],
    ['a plain object', { id: hex }],
  ])('rejects %s with an objectid error instead of throwing', (_name, value) => {
    const data = { userId: value };
    expect(validate(data)).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ keyword: 'objectid', instancePath: '/userId' });
    expect(data.userId).toBe(value);
  });

  it('checks nothing with objectid: false', () => {
    const loose = ajv.compile({ type: 'object', properties: { userId: { objectid: false } } });
    expect(loose({ userId: 'whatever' })).toBe(true);
  });
});

describe('ObjectIdSchema', () => {
  const schema = Type.Object({ _id: ObjectIdSchema(), name: Type.String() });

  it('accepts an ObjectId or converts a string when the keyword is registered', async () => {
    const validate = getValidator(schema, createValidator());
    const converted = (await validate({ _id: hex, name: 'a' })) as { _id: unknown };
    expect(converted._id).toBeInstanceOf(ObjectId);
    const id = new ObjectId();
    expect(((await validate({ _id: id, name: 'a' })) as { _id: unknown })._id).toBe(id);
  });

  it('rejects invalid ids and other objects with 400', () => {
    const validate = getValidator(schema, createValidator());
    expect(() => validate({ _id: 'abcdefghijkl', name: 'a' })).toThrow(BadRequest);
    expect(() => validate({ _id: { nope: true }, name: 'a' })).toThrow(/\/_id/);
  });

  it('cannot be compiled by an AJV instance without the keyword', () => {
    expect(() => new Ajv().compile(schema)).toThrow(/objectid/);
  });
});

describe('resolveObjectId', () => {
  it('converts strings and passes ObjectIds through', () => {
    expect(resolveObjectId(hex)).toEqual(new ObjectId(hex));
    const id = new ObjectId();
    expect(resolveObjectId(id)).toBe(id);
    expect(resolveObjectId(undefined)).toBeUndefined();
  });

  it.each([['abcdefghijkl'], [''], [42], [null], [{}]])('rejects %j with 400 naming the value', (value) => {
    expect(() => resolveObjectId(value)).toThrow(BadRequest);
    expect(() => resolveObjectId(value)).toThrow(/Invalid id/);
  });

  it('names the value in the message', () => {
    expect(() => resolveObjectId('abcdefghijkl')).toThrow(`Invalid id '"abcdefghijkl"'`);
  });
});

describe('resolveQueryObjectId', () => {
  const other = '6a1e3c6a9d0b4a2c8e7f6a5c';

  it('converts a direct value', () => {
    expect(resolveQueryObjectId(hex)).toEqual(new ObjectId(hex));
  });

  it('converts values in $in, $nin and $ne and keeps other operators', () => {
    expect(resolveQueryObjectId({ $in: [hex, other], $nin: [other], $ne: hex, $exists: true })).toEqual({
      $in: [new ObjectId(hex), new ObjectId(other)],
      $nin: [new ObjectId(other)],
      $ne: new ObjectId(hex),
      $exists: true,
    });
  });

  it('gives undefined for falsy values', () => {
    for (const value of [undefined, null, '', 0]) expect(resolveQueryObjectId(value)).toBeUndefined();
  });

  it('rejects invalid ids inside operators and a non-array $in with 400', () => {
    expect(() => resolveQueryObjectId({ $in: [hex, 'abcdefghijkl'] })).toThrow(/abcdefghijkl/);
    expect(() => resolveQueryObjectId({ $nin: hex })).toThrow(BadRequest);
    expect(() => resolveQueryObjectId({ $ne: 'nope' })).toThrow(BadRequest);
  });
});
