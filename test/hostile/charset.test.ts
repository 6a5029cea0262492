import { describe, expect, it } from 'vitest';
import type { HostileRequest } from './http.js';
import { expectError, useItemsServer } from './items.js';
import { hostileTransports } from './servers.js';

const [webStandard] = hostileTransports as [(typeof hostileTransports)[number]];

/**
 * The `charset` of a parsed body. The Web Standard handler read every body as UTF-8 whatever its
 * charset said: Latin-1 `Ã©` (bytes C3 A9) was stored as `é`, with a 201. Express' body-parser read
 * any `utf-*` charset iconv knows (UTF-7, UTF-32, UTF-16 guessing its byte order), kept the lone
 * surrogates of UTF-16 bytes (stored as U+FFFD), and refused the rest with its own wording. Both now
 * decode the same charsets (JSON: UTF-8, UTF-16LE, UTF-16BE; forms: UTF-8, ISO-8859-1) and answer
 * the same 415 naming any other.
 */
const post = (contentType: string, body: string | Uint8Array): HostileRequest => ({
  method: 'POST',
  path: '/items',
  body,
  headers: { 'content-type': contentType, accept: 'application/json' },
});

const latin1 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'latin1'));
const utf16le = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'utf16le'));
const utf16be = (text: string): Uint8Array => utf16le(text).map((_byte, i, bytes) => bytes[i ^ 1] as number);

describe.each(hostileTransports)('the charset of request bodies ($name)', (transport) => {
  const server = useItemsServer(transport);

  it.each([
    // Read as UTF-8, these Latin-1 bytes are a valid `é`: the data would change without an error.
    ['application/json; charset=latin1', '{"text":"Ã©"}', 'latin1'],
    ['application/json; charset=ISO-8859-1', '{"text":"Ã©"}', 'iso-8859-1'],
    ['application/json;charset="windows-1252"', '{"text":"x"}', 'windows-1252'],
    // body-parser reads these (any `utf-*` iconv knows); neither transport does now.
    ['application/json; charset=utf-7', '{"text":"x"}', 'utf-7'],
    ['application/json; charset=utf-32', '{"text":"x"}', 'utf-32'],
    ['application/json; charset=utf-16', '{"text":"x"}', 'utf-16'],
    ['application/x-www-form-urlencoded; charset=windows-1252', 'text=x', 'windows-1252'],
  ])('%s is a 415 naming the charset, and nothing is stored', async (contentType, body, charset) => {
    const answer = await server().send(post(contentType, latin1(body)));
    expectError(
      answer,
      415,
      new RegExp(`^Unsupported charset '${charset}' for .* request bodies: send utf-8`),
    );
    expect(answer.json).toMatchObject({ name: 'UnsupportedMediaType', data: { charset } });
  });

  it.each([
    ['utf-16le', utf16le],
    ['UTF-16BE', utf16be],
  ])('JSON in %s is decoded, every character kept', async (charset, encode) => {
    const text = `café ${charset} 😀`;
    const answer = await server().send(
      post(`application/json; charset=${charset}`, encode(`{"text":"${text}"}`)),
    );
    expect(answer.status, answer.text).toBe(201);
    expect(answer.json).toMatchObject({ text });
    expect(await server().items.countDocuments({ text })).toBe(1);
    await server().items.deleteOne({ text });
  });

  it('UTF-16 bytes that are not UTF-16 (a lone surrogate) are a 400, not stored as U+FFFD', async () => {
    const body = utf16le('{"text":"ab"}');
    // The `a` becomes the high surrogate D800 with no low one after it.
    body.set([0x00, 0xd8], 18);
    expectError(await server().send(post('application/json; charset=utf-16le', body)), 400);
  });

  it('an ISO-8859-1 form is decoded as ISO-8859-1, raw and percent-encoded bytes alike', async () => {
    const answer = await server().send(
      post('application/x-www-form-urlencoded; charset=iso-8859-1', latin1('text=caf%E9+cr\xe8me')),
    );
    expect(answer.status, answer.text).toBe(201);
    expect(answer.json).toMatchObject({ text: 'café crème' });
    await server().items.deleteOne({ text: 'café crème' });
  });

  // RFC 9110 §5.6.6: a parameter value is a token or a quoted-string, in which `\\` escapes the next
  // character (§5.6.4) and a `;` is part of the value. The charset was read by splitting at every `;`
  // and dropping the quotes without reading escapes: both bodies below were a 415.
  it.each([
    ['application/json; charset="utf\\-8"', 'an escaped charset'],
    ['application/json; note="a;charset=latin1"; charset=utf-8', "another parameter's quoted ;"],
  ])('%s is UTF-8 (%s)', async (contentType) => {
    const text = `quoted ${contentType}`;
    const answer = await server().send(post(contentType, JSON.stringify({ text })));
    expect(answer.status, answer.text).toBe(201);
    expect(answer.json).toMatchObject({ text });
    await server().items.deleteOne({ text });
  });

  it('a quoted, upper-case UTF-8 charset is UTF-8', async () => {
    const answer = await server().send(post('application/json; Charset="UTF-8"', '{"text":"naïve"}'));
    expect(answer.status, answer.text).toBe(201);
    await server().items.deleteOne({ text: 'naïve' });
  });
});

/**
 * A multipart body with one field `text` holding `value` (bytes as they are sent), its parts
 * separated by `boundary`. `parameters` follow the media type: `; boundary=b0undary` unless given.
 */
function multipart(
  value: Uint8Array,
  parameters = '; boundary=b0undary',
  boundary = 'b0undary',
): HostileRequest {
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="text"\r\n\r\n`;
  const body = Buffer.concat([Buffer.from(head), value, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return post(`multipart/form-data${parameters}`, new Uint8Array(body));
}

/** A multipart body with a file `upload` (named `fileName`, holding `file`) and then a field `text`. */
function multipartWithFile(file: Uint8Array, text: Uint8Array, fileName = 'a.bin'): HostileRequest {
  const body = Buffer.concat([
    Buffer.from(
      `--b0undary\r\nContent-Disposition: form-data; name="upload"; filename="${fileName}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    file,
    Buffer.from('\r\n--b0undary\r\nContent-Disposition: form-data; name="text"\r\n\r\n'),
    text,
    Buffer.from('\r\n--b0undary--\r\n'),
  ]);
  return post('multipart/form-data; boundary=b0undary', new Uint8Array(body));
}

const REPLACEMENT_BYTES = new Uint8Array([0xef, 0xbf, 0xbd]);

// Multipart bodies are the Web Standard handler's alone (Express reads them only with a parser added).
describe('the charset of multipart bodies (web standard handler)', () => {
  const server = useItemsServer(webStandard);

  it('a multipart body with a charset other than UTF-8 is a 415 naming it', async () => {
    const answer = await server().send(multipart(latin1('caf\xe9'), '; boundary=b0undary; charset=latin1'));
    expectError(answer, 415, /^Unsupported charset 'latin1' for multipart\/form-data request bodies/);
  });

  it('a field that is not UTF-8 is a 400, not stored with U+FFFD (formData() decodes it without an error)', async () => {
    expectError(
      await server().send(multipart(latin1('caf\xe9'))),
      400,
      /a field name or value is not valid UTF-8/,
    );
  });

  it('a U+FFFD the client sent is stored as sent', async () => {
    const text = 'broken \uFFFD glyph';
    const answer = await server().send(
      multipart(new Uint8Array(Buffer.from(text)), '; boundary=b0undary; charset=UTF-8'),
    );
    expect(answer.status, answer.text).toBe(201);
    expect(answer.json).toMatchObject({ text });
    await server().items.deleteOne({ text });
  });

  // The boundary is read as RFC 9110 §5.6.6 reads a parameter (see above), both to find the charset
  // and to match each U+FFFD with the part that sent it.
  it.each([
    ['; boundary="b0un;charset=latin1"', 'b0un;charset=latin1'],
    ['; boundary="b0\\un;dary"; charset=utf-8', 'b0un;dary'],
    ['; note="; boundary=other"; BOUNDARY=b0undary', 'b0undary'],
  ])(
    'a quoted or escaped boundary (%s) is read whole: a U+FFFD sent is stored',
    async (parameters, boundary) => {
      // Not the boundary itself: Node 20's formData() fails on a value holding it.
      const text = `sent \uFFFD, boundary ${boundary.length} long`;
      const answer = await server().send(multipart(new Uint8Array(Buffer.from(text)), parameters, boundary));
      expect(answer.status, answer.text).toBe(201);
      expect(answer.json).toMatchObject({ text });
      await server().items.deleteOne({ text });
    },
  );

  // The bytes of U+FFFD in a file vouched for a replacement in a field: the body held as many EF BF BD
  // as its text held U+FFFD, so the field was stored with U+FFFD in place of the byte E9.
  it('a field that is not UTF-8 is a 400 also when a file holds the bytes of U+FFFD', async () => {
    const answer = await server().send(multipartWithFile(REPLACEMENT_BYTES, latin1('caf\xe9')));
    expectError(answer, 400, /a field name or value is not valid UTF-8/);
  });

  it('a field name that is not UTF-8 is a 400 also when a file holds the bytes of U+FFFD', async () => {
    const head = Buffer.from(
      '--b0undary\r\nContent-Disposition: form-data; name="caf\xe9"\r\n\r\nx',
      'latin1',
    );
    const file = multipartWithFile(REPLACEMENT_BYTES, latin1('y')).body as Uint8Array;
    // The field named `caf\xe9` first, then the file and the field `text` of multipartWithFile.
    const body = new Uint8Array(Buffer.concat([head, Buffer.from('\r\n'), file]));
    const answer = await server().send(post('multipart/form-data; boundary=b0undary', body));
    expectError(answer, 400, /a field name or value is not valid UTF-8/);
  });

  it('U+FFFD sent in a field and a file name, next to a file holding its bytes, is stored as sent', async () => {
    const text = 'sent \uFFFD as is';
    const answer = await server().send(
      multipartWithFile(REPLACEMENT_BYTES, new Uint8Array(Buffer.from(text)), '\uFFFD.bin'),
    );
    expect(answer.status, answer.text).toBe(201);
    expect(answer.json).toMatchObject({ text });
    await server().items.deleteOne({ text });
  });
});
