/**
 * RFC 9112 §3.2 (https://www.rfc-editor.org/rfc/rfc9112#section-3.2): "A server MUST respond with a
 * 400 (Bad Request) status code to any HTTP/1.1 request message that lacks a Host header field and to
 * any request message that contains more than one Host header field line". Node.js keeps the first
 * Host and drops the others; fetch sends one Host, so these requests go over a raw socket.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transports, type RunningServer } from './servers.js';

/** Sends `head` (a request without body, `Connection: close`) and reads the answer to the end. */
function send(url: string, head: string): Promise<{ status: string; type: string; json: unknown }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ port: Number(port), host: '127.0.0.1' });
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const [top = '', body = ''] = answer.split('\r\n\r\n');
      const lines = top.split('\r\n');
      const type =
        lines
          .find((line) => /^content-type:/i.test(line))
          ?.slice(13)
          .trim() ?? '';
      // Whatever the framing (a length or one chunk), the body is one JSON object.
      const json: unknown = JSON.parse(body.slice(body.indexOf('{'), body.lastIndexOf('}') + 1));
      resolve({ status: lines[0] ?? '', type, json });
    });
    socket.write(head);
  });
}

describe.each(transports)('the Host header on the $name', (transport) => {
  let running: RunningServer;
  beforeAll(async () => {
    const app = transport.createApp();
    app.use('notes', {
      async get(id: string) {
        return { id };
      },
    });
    running = await transport.start(app);
  });
  afterAll(() => running?.close());

  it('answers a request with two Host lines 400 with the JSON error, whatever their case or values', async () => {
    for (const hosts of ['Host: localhost\r\nHost: localhost', 'Host: a.example\r\nhost: b.example']) {
      const answer = await send(
        running.url,
        `GET /notes/1 HTTP/1.1\r\n${hosts}\r\nAccept: application/json\r\nConnection: close\r\n\r\n`,
      );
      expect(answer).toEqual({
        status: 'HTTP/1.1 400 Bad Request',
        type: expect.stringMatching(/^application\/json/),
        json: {
          name: 'BadRequest',
          message: 'A request must have one Host header, not several (RFC 9112 §3.2)',
          code: 400,
          className: 'bad-request',
        },
      });
    }
  });

  it('serves a request with one Host line among other headers', async () => {
    const answer = await send(
      running.url,
      'GET /notes/1 HTTP/1.1\r\nAccept: application/json\r\nHOST: localhost\r\nX-Host: other\r\nConnection: close\r\n\r\n',
    );
    expect(answer).toMatchObject({ status: 'HTTP/1.1 200 OK', json: { id: '1' } });
  });
});
