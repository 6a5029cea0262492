import { connect, type Socket } from 'node:net';

/** What came back for one request sent by the fuzzer. */
export interface Reply {
  /** HTTP status; 0 when the connection closed without a status line. */
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The server closed (or reset) the connection without an answer. */
  dropped: boolean;
  /** No complete answer within the time limit. */
  hung: boolean;
  /** With `untilClose`: how many status lines (final answers) came back on the connection. */
  answers?: number;
}

/** A request not answered within this long is a hang (brief: 5 s). */
export const HANG_MS = 5_000;

/** Splits a raw HTTP/1.1 response into status, headers and body; `complete` once the body is all there. */
function parseResponse(bytes: Buffer): { reply: Omit<Reply, 'dropped' | 'hung'>; complete: boolean } | null {
  // Interim answers (100 Continue) come before the real one.
  while (/^HTTP\/1\.[01] 1\d\d /.test(bytes.subarray(0, 13).toString('latin1'))) {
    const interim = bytes.indexOf('\r\n\r\n');
    if (interim === -1) return null;
    bytes = bytes.subarray(interim + 4);
  }
  const end = bytes.indexOf('\r\n\r\n');
  if (end === -1) return null;
  const lines = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = bytes.subarray(end + 4);
  if (headers['transfer-encoding']?.includes('chunked')) {
    const decoded = dechunk(body);
    return { reply: { status, headers, text: decoded.text }, complete: decoded.complete };
  }
  const length = headers['content-length'];
  const complete =
    status === 204 || status === 304 || (length !== undefined && body.length >= Number(length));
  // Only this answer's body: pipelined answers may follow it.
  const own = length === undefined ? body : body.subarray(0, Number(length));
  return { reply: { status, headers, text: own.toString('utf8') }, complete };
}

function dechunk(body: Buffer): { text: string; complete: boolean } {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const line = body.indexOf('\r\n', at);
    if (line === -1) return { text: Buffer.concat(parts).toString('utf8'), complete: false };
    const size = parseInt(body.subarray(at, line).toString('latin1'), 16);
    if (!(size > 0)) return { text: Buffer.concat(parts).toString('utf8'), complete: true };
    parts.push(body.subarray(line + 2, line + 2 + size));
    at = line + 2 + size + 2;
  }
}

/** What `sendRaw` does with the socket once the request bytes are written. */
export interface RawOptions {
  /** Half-close after writing (the client sends nothing more). Default false. */
  end?: boolean;
  /** Destroy the socket this many ms after the response head arrives (a client leaving mid-stream). */
  leaveAfterHeadMs?: number;
  /** Milliseconds to wait for an answer; default `HANG_MS`. */
  timeoutMs?: number;
  /** Byte offsets at which the request is cut into separate writes, a few ms apart. */
  splitAt?: number[];
  /** Destroy the socket right after the last write (a client that leaves mid-request). */
  abort?: boolean;
  /** Read until the server closes the connection (pipelined requests), not just one answer. */
  untilClose?: boolean;
}

/** Sends `bytes` on a new TCP connection to `url`'s host and reads one answer. */
export function sendRaw(url: string, bytes: string | Buffer, options: RawOptions = {}): Promise<Reply> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let settled = false;
    let leaving: NodeJS.Timeout | undefined;
    const settle = (extra: { dropped: boolean; hung: boolean }): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(leaving);
      socket.destroy();
      const all = Buffer.concat(chunks);
      const parsed = parseResponse(all);
      const answers = options.untilClose === true ? countAnswers(all) : undefined;
      resolve({ ...(parsed?.reply ?? { status: 0, headers: {}, text: '' }), ...extra, answers });
    };
    const timer = setTimeout(() => settle({ dropped: false, hung: true }), options.timeoutMs ?? HANG_MS);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const parsed = parseResponse(Buffer.concat(chunks));
      if (parsed === null) return;
      if (options.leaveAfterHeadMs !== undefined) {
        leaving ??= setTimeout(() => settle({ dropped: false, hung: false }), options.leaveAfterHeadMs);
        return;
      }
      if (parsed.complete && options.untilClose !== true) settle({ dropped: false, hung: false });
    });
    socket.on('close', () => settle({ dropped: parseResponse(Buffer.concat(chunks)) === null, hung: false }));
    socket.on('error', () => undefined);
    void writePieces(socket, typeof bytes === 'string' ? Buffer.from(bytes) : bytes, options);
  });
}

/** Writes `bytes`, cut at `options.splitAt`, then half-closes or destroys the socket as asked. */
async function writePieces(socket: Socket, bytes: Buffer, options: RawOptions): Promise<void> {
  let from = 0;
  for (const at of [...(options.splitAt ?? []), bytes.length]) {
    if (at <= from || at > bytes.length) continue;
    if (from > 0) await new Promise((resolve) => setTimeout(resolve, 2));
    if (socket.destroyed) return;
    socket.write(bytes.subarray(from, at));
    from = at;
  }
  if (options.abort === true) socket.destroy();
  else if (options.end === true) socket.end();
}

/** The final (non-1xx) status lines in a run of pipelined answers (one starts where a body ends). */
function countAnswers(bytes: Buffer): number {
  return (bytes.toString('latin1').match(/HTTP\/1\.[01] [2-5]\d\d [^\r\n]*\r\n/g) ?? []).length;
}

/** A request sent with `fetch`. */
export interface FetchRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** Sends one request with `fetch`; a hang or a dropped connection is reported, not thrown. */
export async function sendFetch(url: string, request: FetchRequest): Promise<Reply> {
  try {
    const response = await fetch(url + request.path, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(HANG_MS),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: Object.fromEntries(response.headers),
      text,
      dropped: false,
      hung: false,
    };
  } catch (error: unknown) {
    const name = (error as { name?: string }).name;
    const hung = name === 'TimeoutError' || name === 'AbortError';
    return { status: 0, headers: {}, text: String(error), dropped: !hung, hung };
  }
}
