import { describe, expect, it } from 'vitest';
import type { HostileRequest } from './http.js';
import { expectError, ITEM_ID, useItemsServer } from './items.js';
import { hostileTransports } from './servers.js';

/**
 * Bodies that parse but hold text the database cannot store as sent: a JSON string escape of a lone
 * UTF-16 surrogate (`"\ud800"`, valid JSON, e.g. an emoji cut in half), or a form's percent-encoded
 * bytes that are not UTF-8 (`%FF`). Both were answered 201/200 and stored with U+FFFD in place of
 * what was sent, on both transports (forms on the Web Standard handler); the same 400 as for raw bytes
 * that are not UTF-8 now.
 */
const json = (method: string, path: string, body: string): HostileRequest => ({
  method,
  path,
  body,
  headers: { 'content-type': 'application/json', accept: 'application/json' },
});
const form = (body: string): HostileRequest => ({
  method: 'POST',
  path: '/items',
  body,
  headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
});

describe.each(hostileTransports)('text that cannot be stored as sent ($name)', (transport) => {
  const server = useItemsServer(transport);

  it.each([
    ['a lone high surrogate', json('POST', '/items', '{"text":"\\ud800"}')],
    ['a lone low surrogate in a key', json('POST', '/items', '{"\\udc00":"k"}')],
    ['a high surrogate cut from its pair', json('POST', '/items', '{"text":"\\ud83dx\\ude00"}')],
    ['a lone surrogate in an update', json('PUT', `/items/${ITEM_ID}`, '{"text":"a\\uDBFF"}')],
    ['a lone surrogate in a patch', json('PATCH', `/items/${ITEM_ID}`, '{"$set":{"text":"\\udfff"}}')],
  ])('JSON with %s is a 400 and nothing is written', async (_name, request) => {
    expectError(
      await server().send(request),
      400,
      /^Invalid application\/json request body: a string holds a lone UTF-16 surrogate/,
    );
  });

  it.each([
    ['%FF', 'text=%FF'],
    ['an encoded surrogate', 'text=%ED%A0%80'],
    ['a cut sequence', 'text=%E2%82&more=1'],
    ['a bad key', '%C0%AF=x'],
  ])('a form with %s is a 400 and nothing is written', async (_name, body) => {
    expectError(
      await server().send(form(body)),
      400,
      /^Invalid application\/x-www-form-urlencoded request body: percent-encoded bytes that are not UTF-8$/,
    );
  });

  // JSON.parse reads these as Infinity: the record held Infinity (or "Infinity" once coerced to a string).
  it.each([
    ['an exponent', '{"text":1e400}'],
    ['a negative one', '{"n":-2.5E+999}'],
    ['309 digits', `{"n":[1,${'9'.repeat(309)}]}`],
    ['5,000 arrays deep', `{"n":${'['.repeat(5000)}1e400${']'.repeat(5000)}}`],
    [
      'after many fields',
      `{${Array.from({ length: 50 }, (_, i) => `"f${i}":${i}`).join(',')},"last":{"n":1E400}}`,
    ],
  ])(
    'JSON with a number too large for a double (%s) is a 400 and nothing is written',
    async (_name, body) => {
      expectError(
        await server().send(json('POST', '/items', body)),
        400,
        /^Invalid application\/json request body: a number is too large to store \(it would be Infinity\)$/,
      );
    },
  );

  // JSON.parse rounds these to the nearest double: the record held 9007199254740992 for …993 (RFC 8259
  // §6: only integers within ±(2^53 − 1) are interoperable).
  it.each([
    ['2^53 + 1', '{"text":"x","n":9007199254740993}', '9007199254740993', '9007199254740992'],
    ['a negative one', '{"text":"x","n":[1,-9007199254740995]}', '-9007199254740995', '-9007199254740996'],
    ['a snowflake id', '{"text":"x","id":1234567890123456789}', '1234567890123456789', '1234567890123456768'],
    ['written with .0', '{"text":"x","n":12345678901234567.0}', '12345678901234567.0', '12345678901234568'],
    [
      'after a string that looks like one',
      '{"text":"9007199254740993","n":{"m":9007199254740993}}',
      '9007199254740993',
      '9007199254740992',
    ],
  ])(
    'JSON with an integer a double cannot hold (%s) is a 400 naming it, and nothing is written',
    async (_name, body, literal, rounded) => {
      const answer = await server().send(json('POST', '/items', body));
      expectError(answer, 400);
      expect((answer.json as { message: string }).message).toBe(
        `Invalid application/json request body: the integer ${literal} cannot be stored exactly (a number holds ${rounded}); send it as a string`,
      );
    },
  );

  it('well-formed text is stored exactly as sent', async () => {
    const stored = async (request: HostileRequest): Promise<unknown> => {
      const answer = await server().send(request);
      expect(answer.status, answer.text).toBe(201);
      const { _id: id, ...rest } = answer.json as { _id: string };
      await server().items.deleteOne({ text: (rest as { text: unknown }).text });
      expect(id).toMatch(/^[0-9a-f]{24}$/);
      return rest;
    };
    // A surrogate pair, an escaped backslash before the letters `ud800`, and other escapes.
    expect(await stored(json('POST', '/items', '{"text":"\\ud83d\\ude00 \\\\ud800 \\u00e9"}'))).toEqual({
      text: '😀 \\ud800 é',
    });
    // The largest double, exponents in strings and keys, and a long run of digits in a string are fine;
    // so are integers beyond 2^53 that a double holds as written, and ones written with an exponent
    // (the nearest double is what an exponent means).
    expect(
      await stored(
        json(
          'POST',
          '/items',
          `{"text":"e123 ${'7'.repeat(400)}","max":1.7976931348623157e308,"e999":1,"big":9007199254740992,"exp":9007199254740993e0,"ok":-9007199254740991}`,
        ),
      ),
    ).toEqual({
      text: `e123 ${'7'.repeat(400)}`,
      max: 1.7976931348623157e308,
      e999: 1,
      big: 9007199254740992,
      exp: 9007199254740992,
      ok: -9007199254740991,
    });
    // Valid percent-encoded UTF-8, and a literal `%` that starts no escape (in a field of its own:
    // Express' `qs` leaves a whole value undecoded when it holds one).
    expect(await stored(form('text=%C3%A9%E2%82%AC+x&note=100%'))).toEqual({ text: 'é€ x', note: '100%' });
  });
});
