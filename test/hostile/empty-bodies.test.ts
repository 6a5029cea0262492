import { describe, expect, it } from 'vitest';
import { expectError, ITEM_ID, useItemsServer } from './items.js';
import { hostileTransports } from './servers.js';

/**
 * An empty body sent chunked (no `Content-Length: 0`): Express' body-parser parsed it as `{}` for JSON
 * and forms, and the Web Standard handler did so for forms, so a `PUT` replaced the record with an
 * empty one (200) and a `POST` created an empty record (201). It is now the 400 of a missing body on
 * both transports, as `Content-Length: 0` already was.
 */
const chunkedEmpty = (method: string, path: string, contentType: string): string =>
  `${method} ${path} HTTP/1.1\r\nContent-Type: ${contentType}\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`;

const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';

describe.each(hostileTransports)('empty request bodies ($name)', (transport) => {
  const server = useItemsServer(transport);

  it.each([
    ['PUT', JSON_TYPE],
    ['PATCH', JSON_TYPE],
    ['PUT', FORM_TYPE],
    ['PATCH', FORM_TYPE],
  ])('a chunked empty %s (%s) is a 400 and leaves the record as it was', async (method, type) => {
    const answer = await server().send({ raw: chunkedEmpty(method, `/items/${ITEM_ID}`, type) });
    expectError(answer, 400, new RegExp(`^A request body is required for ${method} requests$`));
  });

  it.each([JSON_TYPE, FORM_TYPE])('a chunked empty POST (%s) is a 400 and creates nothing', async (type) => {
    const answer = await server().send({ raw: chunkedEmpty('POST', '/items', type) });
    expectError(answer, 400, /^A request body is required for POST requests$/);
  });

  it('a chunked body with data is still read (the same framing, one chunk)', async () => {
    const body = '{"text":"changed"}';
    const raw =
      `PUT /items/${ITEM_ID} HTTP/1.1\r\nContent-Type: ${JSON_TYPE}\r\nTransfer-Encoding: chunked\r\n\r\n` +
      `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
    const answer = await server().send({ raw });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json).toEqual({ _id: ITEM_ID, text: 'changed' });
    // Put the record back for the afterEach check.
    await server().items.updateOne({ text: 'changed' }, { $set: { text: 'original' } });
  });
});
