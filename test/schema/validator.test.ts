import { createApp } from 'plume';
import { BadRequest } from 'plume/errors';
import {
  createDataValidator,
  createQueryValidator,
  createValidator,
  getValidator,
  Type,
  validateData,
  validateQuery,
  querySyntax,
} from 'plume/schema';
import { describe, expect, it } from 'vitest';

describe('createValidator and getValidator', () => {
  const ajv = createValidator();

  it('fills defaults, coerces types and checks formats', () => {
    const validate = getValidator(
      Type.Object({
        role: Type.String({ default: 'user' }),
        age: Type.Integer(),
        email: Type.String({ format: 'email' }),
      }),
      ajv,
    );
    expect(validate({ age: '7', email: 'a@example.com' })).toEqual({
      role: 'user',
      age: 7,
      email: 'a@example.com',
    });
    expect(() => validate({ age: 1, email: 'nope' })).toThrow(
      'Invalid data: /email must match format "email"',
    );
  });

  it('coerces a string to a number only when it is written in decimal digits', async () => {
    const query = querySyntax(
      Type.Object({ age: Type.Integer(), score: Type.Number(), code: Type.String() }),
    );
    const validate = getValidator(query, ajv);
    expect(validate({ $limit: '20', age: { $gt: '-3' }, score: '1.50', code: '0x10' }, 'query')).toEqual({
      $limit: 20,
      age: { $gt: -3 },
      score: 1.5,
      code: '0x10', // a string where the schema says string: left alone
    });
    for (const [value, path] of [
      [{ $limit: '0x10' }, '/$limit'],
      [{ $skip: '1e1' }, '/$skip'],
      [{ age: ' 5 ' }, '/age'],
      [{ score: { $in: ['1', '+2'] } }, '/score/$in/1'],
      [{ $or: [{ score: 'Infinity' }] }, '/$or/0/score'],
      [{ score: '0b11' }, '/score'],
    ] as const) {
      expect(() => validate(structuredClone(value), 'query'), path).toThrow(
        `Invalid query: ${path} must be a number in decimal digits, not '`,
      );
    }
    // Decimal, but Infinity as a number: the record would hold something the client never sent.
    expect(() => validate({ score: `1${'0'.repeat(400)}` }, 'query')).toThrow(
      "Invalid query: /score must be a number small enough to store, not '1000",
    );
    // Past 2^53 a double skips integers: the query would mean 9007199254740992. A fraction is fine.
    expect(() => validate({ age: { $in: ['9007199254740993'] } }, 'query')).toThrow(
      "Invalid query: /age/$in/0 must be an integer a number holds exactly (it would be 9007199254740992), not '9007199254740993'",
    );
    expect(validate({ age: '9007199254740992', score: '9007199254740993.5' }, 'query')).toEqual({
      age: 9007199254740992,
      score: 9007199254740994,
    });
    const asyncValidate = getValidator(
      { $async: true, type: 'object', properties: { n: { type: 'number' } } },
      ajv,
    );
    await expect(asyncValidate({ n: '0x1' })).rejects.toThrow(
      "Invalid data: /n must be a number in decimal digits, not '0x1'",
    );
  });

  it('puts the label and AJV errors into the 400', () => {
    const validate = getValidator(Type.Object({ n: Type.Integer() }), ajv);
    try {
      void validate({}, 'query');
      expect.unreachable();
    } catch (error: unknown) {
      expect(error).toBeInstanceOf(BadRequest);
      const bad = error as BadRequest;
      expect(bad.message).toBe("Invalid query: must have required property 'n'");
      expect(bad.toJSON()).toMatchObject({ code: 400, errors: [{ keyword: 'required', instancePath: '' }] });
    }
  });

  it('reuses a schema with an $id and supports $async schemas', async () => {
    const schema = {
      $id: 'plume-test-thing',
      type: 'object',
      properties: { n: { type: 'integer' } },
      required: ['n'],
    };
    getValidator(schema, ajv);
    expect(getValidator(schema, ajv)({ n: '2' })).toEqual({ n: 2 });
    const asyncValidate = getValidator({ $async: true, type: 'object', required: ['n'] }, ajv);
    await expect(asyncValidate({ n: 1 })).resolves.toEqual({ n: 1 });
    await expect(asyncValidate({}, 'data')).rejects.toThrow("Invalid data: must have required property 'n'");
  });
});

describe('validation hooks leave the caller’s objects alone', () => {
  it('does not coerce the caller’s query or data in place', async () => {
    const app = createApp();
    const seen: unknown[] = [];
    app.use('things', {
      find: (params?: { query?: unknown }) => {
        seen.push(params?.query);
        return Promise.resolve([]);
      },
      create: (data: unknown) => Promise.resolve(data),
    });
    app.service('things').hooks({
      before: {
        find: [
          validateQuery(getValidator(querySyntax(Type.Object({ n: Type.Number() })), createQueryValidator())),
        ],
        create: [
          validateData(
            getValidator(
              Type.Object({ n: Type.Number(), m: Type.Number({ default: 0 }) }),
              createDataValidator(),
            ),
          ),
        ],
      },
    });
    const query = { n: { $gt: '1' } };
    await app.service('things').find({ query });
    expect(query).toEqual({ n: { $gt: '1' } });
    expect(seen[0]).toEqual({ n: { $gt: 1 } });
    const data = { n: 3 };
    await expect(app.service('things').create(data)).resolves.toEqual({ n: 3, m: 0 });
    expect(data).toEqual({ n: 3 });
  });

  it('rejects an own __proto__ key from JSON instead of following it', async () => {
    const app = createApp();
    app.use('things', { create: (data: unknown) => Promise.resolve(data) });
    const schema = Type.Object({ n: Type.Number() }, { additionalProperties: false });
    app
      .service('things')
      .hooks({ before: { create: [validateData(getValidator(schema, createDataValidator()))] } });
    const data: unknown = JSON.parse('{"n":1,"__proto__":{"admin":true}}');
    await expect(app.service('things').create(data)).rejects.toThrow("additional property '__proto__'");
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});
