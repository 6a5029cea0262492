import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Requests Node's HTTP parser refuses (headers over 16 KiB, bytes that are not HTTP) are answered by
 * Node itself, before plume runs, with a bare status line. This answers them with a JSON error like
 * every other error of the API: 431 for headers that are too large, 400 otherwise.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const body = JSON.stringify(
      tooLarge
        ? {
            name: 'RequestHeaderFieldsTooLarge',
            message: 'The request line or headers are larger than the server accepts',
            code: 431,
            className: 'request-header-fields-too-large',
          }
        : { name: 'BadRequest', message: 'Malformed HTTP request', code: 400, className: 'bad-request' },
    );
    socket.end(
      `HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\n` +
        `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
        `connection: close\r\n\r\n${body}`,
    );
  });
}
