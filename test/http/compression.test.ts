import { get as httpGet, type IncomingMessage } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from 'plume';
import type { RuntimeHandlerOptions } from 'plume/http';
import type { RunningServer } from '../transports/servers.js';
import { serve } from './helpers.js';

// Issue 14 item 8: optional response compression of the Web Standard handler on Node.js.
const big = Array.from({ length: 100 }, (_, i) => ({ id: i, text: `message number ${i}` }));

async function start(options: RuntimeHandlerOptions): Promise<RunningServer> {
  const app = createApp();
  app.use('items', {
    async find() {
      return big;
    },
    async get(id: string) {
      if (id === 'small') return { id };
      if (id === 'page')
        return new Response('<p>hello</p>'.repeat(200), { headers: { 'content-type': 'text/html' } });
      if (id === 'raw') {
        return new Response('x'.repeat(5000), {
          headers: { 'content-type': 'application/json', 'cache-control': 'no-transform' },
        });
      }
      return { id };
    },
  });
  app.use('events', {
    async find() {
      return (async function* () {
        yield { text: 'x'.repeat(2000) };
        await new Promise(() => undefined); // stays open: the first event must arrive anyway
      })();
    },
  });
  return serve(app, undefined, options);
}

/** GET with raw bytes (fetch would decompress on its own). */
function getRaw(url: string, acceptEncoding?: string): Promise<{ response: IncomingMessage; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (acceptEncoding !== undefined) headers['accept-encoding'] = acceptEncoding;
    httpGet(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ response, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

describe('toRuntimeHandler compression', () => {
  let on: RunningServer;
  let off: RunningServer;
  beforeAll(async () => {
    on = await start({ compression: true });
    off = await start({});
  });
  afterAll(async () => {
    await on.close();
    await off.close();
  });

  it('is off by default', async () => {
    const { response, body } = await getRaw(`${off.url}/items`, 'gzip, br');
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(body.toString('utf8'))).toEqual(big);
  });

  it('gzips JSON of 1 KiB or more for gzip clients, with Vary and the compressed Content-Length', async () => {
    const { response, body } = await getRaw(`${on.url}/items`, 'gzip');
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers.vary).toBe('Accept-Encoding');
    expect(Number(response.headers['content-length'])).toBe(body.byteLength);
    expect(JSON.parse(gunzipSync(body).toString('utf8'))).toEqual(big);
  });

  it('prefers Brotli when the client accepts it, and honours q=0', async () => {
    const br = await getRaw(`${on.url}/items`, 'gzip, deflate, br');
    expect(br.response.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.body).toString('utf8'))).toEqual(big);
    const noBr = await getRaw(`${on.url}/items`, 'br;q=0, gzip;q=0.5');
    expect(noBr.response.headers['content-encoding']).toBe('gzip');
  });

  it('sends small bodies, clients without Accept-Encoding and no-transform responses as they are', async () => {
    expect(
      (await getRaw(`${on.url}/items/small`, 'gzip')).response.headers['content-encoding'],
    ).toBeUndefined();
    const plain = await getRaw(`${on.url}/items`);
    expect(plain.response.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body.toString('utf8'))).toEqual(big);
    const raw = await getRaw(`${on.url}/items/raw`, 'gzip');
    expect(raw.response.headers['content-encoding']).toBeUndefined();
    expect(raw.body.toString('utf8')).toBe('x'.repeat(5000));
  });

  it('compresses a streamed Response of unknown length', async () => {
    const { response, body } = await getRaw(`${on.url}/items/page`, 'gzip');
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers['content-type']).toBe('text/html');
    expect(gunzipSync(body).toString('utf8')).toBe('<p>hello</p>'.repeat(200));
  });

  it('never compresses text/event-stream: the first event arrives while the stream stays open', async () => {
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      httpGet(`${on.url}/events`, { headers: { 'accept-encoding': 'gzip, br' } }, resolve).on(
        'error',
        reject,
      );
    });
    try {
      expect(response.headers['content-encoding']).toBeUndefined();
      const first = await new Promise<string>((resolve) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
          if (text.includes('\n\n')) resolve(text);
        });
      });
      expect(first).toBe(`data: ${JSON.stringify({ text: 'x'.repeat(2000) })}\n\n`);
    } finally {
      response.destroy();
    }
  });

  it('refuses malformed options', async () => {
    await expect(start({ compression: { threshold: -1 } })).rejects.toThrow(TypeError);
    await expect(start({ compression: { encodings: [] } })).rejects.toThrow(/encodings/);
  });
});
