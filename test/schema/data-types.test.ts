import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Application } from 'plume';
import {
  createDataValidator,
  createQueryValidator,
  createValidator,
  getValidator,
  querySyntax,
  Type,
  validateData,
  validateQuery,
} from 'plume/schema';
import { captureLogger, hostileTransports, type ServedApp } from '../hostile/servers.js';

const itemSchema = Type.Object(
  { text: Type.String(), n: Type.Optional(Type.Number()), done: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

/** `items` stores nothing and answers the data its hooks let through; `forms` coerces on purpose. */
function register(app: Application): void {
  const echo = { create: (data: unknown) => Promise.resolve(data), find: () => Promise.resolve([]) };
  app.use('items', { ...echo });
  app.service('items').hooks({
    before: {
      find: [validateQuery(getValidator(querySyntax(itemSchema), createQueryValidator()))],
      create: [validateData(getValidator(itemSchema, createDataValidator()))],
    },
  });
  app.use('forms', { ...echo });
  app.service('forms').hooks({
    before: { create: [validateData(getValidator(itemSchema, createDataValidator({ coerceTypes: true })))] },
  });
}

describe.each(hostileTransports)('data keeps the types the client sent ($name)', (transport) => {
  let served: ServedApp;
  beforeAll(async () => {
    served = await transport.serve(register, captureLogger());
  });
  afterAll(async () => {
    await served.close();
  });

  const post = async (path: string, body: string, contentType: string) => {
    const response = await fetch(served.url + path, {
      method: 'POST',
      body,
      headers: { 'content-type': contentType, accept: 'application/json' },
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const postJson = (path: string, value: unknown) => post(path, JSON.stringify(value), 'application/json');
  const postForm = (path: string, form: string) => post(path, form, 'application/x-www-form-urlencoded');

  it('JSON data is not coerced: a wrong type is a 400 naming the field', async () => {
    for (const [data, message] of [
      [{ text: 12345 }, 'Invalid data: /text must be string'],
      [{ text: 'a', n: null }, 'Invalid data: /n must be number'],
      [{ text: 'a', n: true }, 'Invalid data: /n must be number'],
      [{ text: 'a', n: '5' }, 'Invalid data: /n must be number'],
      [{ text: 'a', done: 'true' }, 'Invalid data: /done must be boolean'],
      [{ text: 'a', done: 0 }, 'Invalid data: /done must be boolean'],
    ] as const) {
      const answer = await postJson('/items', data);
      expect(answer.status, JSON.stringify(data)).toBe(400);
      expect(answer.body.message).toBe(message);
    }
    expect(await postJson('/items', { text: 'a', n: 5, done: true })).toEqual({
      status: 201,
      body: { text: 'a', n: 5, done: true },
    });
  });

  it('query strings are still coerced', async () => {
    expect((await fetch(`${served.url}/items?n[$gt]=5&done=true`)).status).toBe(200);
    expect((await fetch(`${served.url}/items?n[$gt]=abc`)).status).toBe(400);
  });

  it('form fields are strings: validated as they are, or coerced where the app asked for it', async () => {
    expect(await postForm('/items', 'text=hi')).toEqual({ status: 201, body: { text: 'hi' } });
    const typed = await postForm('/items', 'text=hi&n=5');
    expect(typed.status).toBe(400);
    expect(typed.body.message).toBe('Invalid data: /n must be number');
    expect(await postForm('/forms', 'text=hi&n=5&done=true')).toEqual({
      status: 201,
      body: { text: 'hi', n: 5, done: true },
    });
    // Coercion asked for still reads numbers only in decimal digits.
    const hex = await postForm('/forms', 'text=hi&n=0x10');
    expect(hex.status).toBe(400);
    expect(hex.body.message).toBe("Invalid data: /n must be a number in decimal digits, not '0x10'");
  });
});

describe('validateData and coercing validators', () => {
  it('refuses at once a validator compiled with an AJV that coerces types', () => {
    for (const ajv of [createValidator(), createQueryValidator(), new Ajv({ coerceTypes: true })]) {
      const validator = getValidator(Type.Object({ n: Type.Number() }), ajv);
      expect(() => validateData(validator)).toThrow(TypeError);
      expect(() => validateData({ create: validator })).toThrow(
        /Compile data schemas with createDataValidator/,
      );
    }
  });

  it('accepts a createDataValidator AJV (coercing on request), a non-coercing AJV and own functions', () => {
    for (const ajv of [
      createDataValidator(),
      createDataValidator({ coerceTypes: true }),
      createValidator({ coerceTypes: false }),
      new Ajv(),
    ]) {
      expect(() => validateData(getValidator(Type.Object({}), ajv))).not.toThrow();
    }
    expect(() => validateData((data) => data)).not.toThrow();
  });
});
