import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** Writes a JSON error as a whole HTTP/1.1 response on `socket` and closes it. */
function endWithError(socket: Duplex, status: string, error: Record<string, unknown>): void {
  const body = JSON.stringify(error);
  socket.end(
    `HTTP/1.1 ${status}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `connection: close\r\n\r\n${body}`,
  );
}

/**
 * Requests Node's HTTP parser refuses (headers over 16 KiB, bytes that are not HTTP) are answered by
 * Node itself, before plume runs, with a bare status line. This answers them with a JSON error like
 * every other error of the API: 431 for headers that are too large, 400 otherwise. Two more never
 * reach plume: a `CONNECT` (a proxy tunnel, which this API is not), whose connection Node would
 * close without an answer, gets a 405; an `Expect` other than `100-continue` a 417.
 */
export function answerClientErrors(server: Server): void {
  // An `Expect` other than 100-continue: Node answers 417 itself, with no body, unless this listens.
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const body = JSON.stringify({
      name: 'ExpectationFailed',
      message: `Expect: ${String(request.headers.expect).slice(0, 100)} is not supported`,
      code: 417,
      className: 'expectation-failed',
    });
    response.writeHead(417, { 'content-type': 'application/json', connection: 'close' }).end(body);
  });
  server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    endWithError(socket, '405 Method Not Allowed', {
      name: 'MethodNotAllowed',
      message: `Method ${request.method} is not allowed`,
      code: 405,
      className: 'method-not-allowed',
    });
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    if (error.code === 'HPE_HEADER_OVERFLOW')
      endWithError(socket, '431 Request Header Fields Too Large', {
        name: 'RequestHeaderFieldsTooLarge',
        message: 'The request line or headers are larger than the server accepts',
        code: 431,
        className: 'request-header-fields-too-large',
      });
    else
      endWithError(socket, '400 Bad Request', {
        name: 'BadRequest',
        message: 'Malformed HTTP request',
        code: 400,
        className: 'bad-request',
      });
  });
}
