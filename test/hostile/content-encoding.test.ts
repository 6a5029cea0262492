import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { expectError, useItemsServer } from './items.js';
import { hostileTransports } from './servers.js';

/**
 * `Content-Encoding` on a JSON body. Express' body-parser decompresses gzip, deflate and Brotli and
 * answers 415 for other codings. The Web Standard handler decompresses nothing, and ignored the header:
 * a gzip body was a misleading 400 ("not valid UTF-8"), and a plain body labelled `br` was stored as
 * if unlabelled. It now answers 415 for any coding but `identity`, as RFC 9110 §8.4.1 says.
 */
const post = (body: string | Uint8Array, coding: string) => ({
  method: 'POST',
  path: '/items',
  body,
  headers: { 'content-type': 'application/json', accept: 'application/json', 'content-encoding': coding },
});

describe.each(hostileTransports)('Content-Encoding of request bodies ($name)', (transport) => {
  const server = useItemsServer(transport);
  const web = transport.name !== 'express';

  it('a gzip body is decompressed (Express) or refused with 415 (Web Standard), never misread', async () => {
    const answer = await server().send(post(new Uint8Array(gzipSync('{"text":"zipped"}')), 'gzip'));
    if (web) {
      expectError(answer, 415, /^Content-Encoding 'gzip' is not supported for application\/json bodies/);
      return;
    }
    expect(answer.status, answer.text).toBe(201);
    expect(answer.json).toMatchObject({ text: 'zipped' });
    await server().items.deleteOne({ text: 'zipped' });
  });

  it('a coding neither transport knows is a 415, and nothing is stored', async () => {
    expectError(await server().send(post('{"text":"x"}', 'x-unknown')), 415);
  });

  it('a plain body labelled as Brotli is refused, not stored as if unlabelled', async () => {
    // Express tries to decompress it (400); the Web Standard handler does not decompress (415).
    expectError(await server().send(post('{"text":"x"}', 'br')), web ? 415 : 400);
  });

  it('identity is no coding at all', async () => {
    const answer = await server().send(post('{"text":"plain"}', 'identity'));
    expect(answer.status, answer.text).toBe(201);
    await server().items.deleteOne({ text: 'plain' });
  });
});
