import { describe, expect, it } from 'vitest';
import type { HostileRequest } from './http.js';
import { expectError, useItemsServer } from './items.js';
import { hostileTransports } from './servers.js';

/**
 * A urlencoded body of more than 1000 parameters is 413 "too many parameters" on both transports:
 * Express' parser (body-parser) refuses it by its default `parameterLimit`, and the Web Standard
 * handler stored every field (a 1 MiB form holds about 150,000).
 */
const form = (body: string, charset = 'utf-8'): HostileRequest => ({
  method: 'POST',
  path: '/items',
  body,
  headers: {
    'content-type': `application/x-www-form-urlencoded; charset=${charset}`,
    accept: 'application/json',
  },
});
const fields = (count: number): string => Array.from({ length: count }, (_, i) => `f${i}=${i}`).join('&');

describe.each(hostileTransports)('form parameter count ($name)', (transport) => {
  const server = useItemsServer(transport);

  it.each([
    ['1001 fields', `text=x&${fields(1000)}`, 'utf-8'],
    ['1001 fields in ISO-8859-1', `text=x&${fields(1000)}`, 'iso-8859-1'],
    ['1001 parameters, most of them empty', `text=x${'&'.repeat(1000)}`, 'utf-8'],
  ])('%s is 413 "too many parameters" and nothing is written', async (_name, body, charset) => {
    const before = await server().items.countDocuments();
    expectError(await server().send(form(body, charset)), 413, /^too many parameters$/);
    expect(await server().items.countDocuments()).toBe(before);
  });

  it('1000 parameters are stored', async () => {
    const answer = await server().send(form(`text=x&${fields(999)}`));
    expect(answer.status, answer.text.slice(0, 200)).toBe(201);
    const stored = answer.json as Record<string, string>;
    expect(Object.keys(stored)).toHaveLength(1001); // the 1000 fields and _id
    await server().items.deleteOne({ text: 'x', f998: '998' });
  });
});
