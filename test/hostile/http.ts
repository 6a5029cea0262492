import { connect } from 'node:net';

/** What came back for one hostile request. */
export interface Answer {
  status: number;
  contentType: string;
  text: string;
  /** The body parsed as JSON, or `undefined` when it is not JSON. */
  json: unknown;
}

/** A request the table sends: through `fetch`, or as raw bytes on a socket when `fetch` cannot say it. */
export interface HostileRequest {
  method?: string;
  /** Path and query, sent as given (percent-encoding untouched). */
  path?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array | (() => ReadableStream<Uint8Array>);
  /** Raw HTTP/1.1 request text or bytes (`Host` and the rest included); replaces method/path/headers/body. */
  raw?: string | Buffer;
}

/** A request not answered within this long counts as a hang. */
export const HANG_MS = 10_000;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Sends raw bytes on a new connection and reads the answer until the server closes it or it is complete. */
function sendRaw(url: string, bytes: string | Buffer): Promise<Answer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let done = false;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${HANG_MS} ms`));
    }, HANG_MS);
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      const response = Buffer.concat(chunks).toString('latin1');
      const end = response.indexOf('\r\n\r\n');
      const head = end === -1 ? response : response.slice(0, end);
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
      const contentType = /\r\ncontent-type: *([^\r]*)/i.exec(head)?.[1] ?? '';
      let text = end === -1 ? '' : Buffer.from(response.slice(end + 4), 'latin1').toString('utf8');
      if (/\r\ntransfer-encoding: *chunked/i.test(head)) text = dechunk(text);
      resolve({ status, contentType, text, json: parseJson(text) });
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // Complete once a Content-Length body has fully arrived (keep-alive servers do not close).
      const response = Buffer.concat(chunks).toString('latin1');
      const end = response.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(response.slice(0, end))?.[1];
      if (
        end !== -1 &&
        length !== undefined &&
        Buffer.byteLength(response.slice(end + 4), 'latin1') >= Number(length)
      ) {
        socket.destroy();
        finish();
      }
    });
    socket.on('close', finish);
    socket.on('error', () => undefined);
    socket.write(bytes);
  });
}

function dechunk(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const line = rest.indexOf('\r\n');
    if (line === -1) return out;
    const size = parseInt(rest.slice(0, line), 16);
    if (!(size > 0)) return out;
    out += rest.slice(line + 2, line + 2 + size);
    rest = rest.slice(line + 2 + size + 2);
  }
}

/** Sends one hostile request to `url` (the server's base URL) and returns what came back. */
export async function sendHostile(url: string, request: HostileRequest): Promise<Answer> {
  if (request.raw !== undefined) return sendRaw(url, request.raw);
  const body = typeof request.body === 'function' ? request.body() : request.body;
  const response = await fetch(url + (request.path ?? '/'), {
    method: request.method ?? 'GET',
    headers: request.headers,
    body,
    ...(typeof request.body === 'function' ? { duplex: 'half' } : {}),
    signal: AbortSignal.timeout(HANG_MS),
  } as RequestInit);
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    text,
    json: parseJson(text),
  };
}
