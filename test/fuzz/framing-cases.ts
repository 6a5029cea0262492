/**
 * HTTP fuzz cases about how a request arrives rather than what it says: bodies (chunked or not) cut
 * into writes at odd points, clients that leave mid-body or mid-event-stream, pipelined requests,
 * header values with obsolete line folding, NUL, bare CR or lines near Node's header size limit, and
 * query strings with deep or unclosed brackets and huge array indexes. cases.ts holds the others.
 */
import type { Case, Random } from './cases.js';
import { sendRaw } from './wire.js';

const BODY = '{"text":"split body"}';

/** `body` in chunked framing, cut into chunks of random sizes, sometimes with extensions. */
function chunkedBody(random: Random, body: string): string {
  let out = '';
  for (let at = 0; at < body.length;) {
    const size = Math.min(body.length - at, 1 + random.int(8));
    out += `${size.toString(16)}${random.chance(0.2) ? ';ext=1' : ''}\r\n${body.slice(at, at + size)}\r\n`;
    at += size;
  }
  return `${out}0\r\n\r\n`;
}

/** Random cut points inside `length` bytes (the head included: a cut may fall mid-line or mid-CRLF). */
function cuts(random: Random, length: number): number[] {
  return Array.from({ length: 1 + random.int(6) }, () => 1 + random.int(length - 1)).sort((a, b) => a - b);
}

/** A POST whose head and body (chunked or with a length) arrive in many writes, cut anywhere. */
function splitWrites(random: Random): Case {
  const chunked = random.chance(0.6);
  const path = random.pick(['/messages', '/authentication', '/users']);
  const body =
    path === '/messages'
      ? BODY
      : '{"strategy":"local","email":"fuzz@example.com","password":"correct horse"}';
  const framing = chunked
    ? 'Transfer-Encoding: chunked\r\n'
    : `Content-Length: ${Buffer.byteLength(body)}\r\n`;
  return {
    category: 'split writes',
    label: `POST ${path} ${chunked ? 'chunked' : 'length'} in pieces`,
    send(target) {
      const request =
        `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${target.token}\r\n` +
        `Content-Type: application/json\r\n${framing}Connection: close\r\n\r\n` +
        (chunked ? chunkedBody(random, body) : body);
      return sendRaw(target.url, request, { splitAt: cuts(random, request.length), timeoutMs: 10_000 });
    },
  };
}

/** A client that sends part of a request (head or body) and then resets the connection. */
function aborts(random: Random): Case {
  const chunked = random.chance(0.5);
  const body = chunked ? chunkedBody(random, BODY) : BODY;
  return {
    category: 'aborted requests',
    label: `POST /messages ${chunked ? 'chunked' : 'length'}, left mid-request`,
    mayDrop: true,
    async send(target) {
      const request =
        `POST /messages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${target.token}\r\n` +
        `Content-Type: application/json\r\n` +
        (chunked ? 'Transfer-Encoding: chunked\r\n' : `Content-Length: ${BODY.length + 50}\r\n`) +
        `\r\n${body}`;
      const cut = 1 + random.int(request.length - 1);
      await sendRaw(target.url, request.slice(0, cut), {
        splitAt: cuts(random, cut),
        abort: true,
        timeoutMs: 1_000,
      });
      // What the fuzzer checks is the server afterwards: it must still answer.
      return sendRaw(target.url, 'GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    },
  };
}

const PIPELINED = [
  'GET /messages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer TOKEN\r\n\r\n',
  'GET /health HTTP/1.1\r\nHost: x\r\n\r\n',
  'GET /nope HTTP/1.1\r\nHost: x\r\n\r\n',
  `POST /messages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer TOKEN\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`,
  `POST /messages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer TOKEN\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${BODY.length.toString(16)}\r\n${BODY}\r\n0\r\n\r\n`,
  'POST /messages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer TOKEN\r\nContent-Type: application/json\r\nContent-Length: 9\r\n\r\n{"text":1',
  'PATCH /messages/MESSAGE HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer TOKEN\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
  'GET /messages?$limit=x HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer TOKEN\r\n\r\n',
  'HEAD /messages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer TOKEN\r\n\r\n',
  'OPTIONS /messages HTTP/1.1\r\nHost: x\r\nOrigin: https://app.example.com\r\nAccess-Control-Request-Method: POST\r\n\r\n',
];

/** Several requests in one write (or cut anywhere), the last closing: every one gets its answer, in order. */
function pipelined(random: Random): Case {
  const picks = Array.from({ length: 2 + random.int(5) }, () => random.pick(PIPELINED));
  return {
    category: 'pipelined requests',
    label: `${picks.length} pipelined: ${picks.map((p) => p.slice(0, p.indexOf(' HTTP'))).join(', ')}`,
    async send(target) {
      const requests = [...picks, 'GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'].map((p) =>
        p.replaceAll('TOKEN', target.token).replace('MESSAGE', target.messageId),
      );
      const bytes = requests.join('');
      const reply = await sendRaw(target.url, bytes, {
        untilClose: true,
        splitAt: random.chance(0.5) ? cuts(random, bytes.length) : [],
        timeoutMs: 10_000,
      });
      // HEAD answers have no body, so a length-framed HEAD followed by more answers parses fine.
      if (!reply.hung && reply.answers !== requests.length)
        return {
          ...reply,
          status: 599,
          // JSON, so that the only finding is this status.
          text: JSON.stringify({
            code: 599,
            message: `${reply.answers} answers to ${requests.length} pipelined requests`,
          }),
        };
      return reply;
    },
  };
}

const HEADER_NAMES = [
  'Authorization',
  'Content-Type',
  'Accept',
  'X-Service-Method',
  'Origin',
  'Cookie',
  'X-A',
];

/** A header value with obsolete folding, NUL, bare CR, DEL, 8-bit bytes, or a line near 16 KiB. */
function headerValue(random: Random, token: string): string {
  switch (random.int(7)) {
    case 0:
      return `Bearer ${token}\r\n ${random.pick(['x', '', '\t'])}`;
    case 1:
      return `a\u0000b`;
    case 2:
      return `a\rb`;
    case 3:
      return `a\u007fb\u00ff`;
    case 4:
      return 'v'.repeat(random.pick([8000, 16_000, 16_300, 16_384, 16_385, 40_000]));
    case 5:
      return `\t ${random.pick(['application/json', token])} \t`;
    default:
      return `Bearer ${token}${random.pick(['\u0000', '\u000b', '\u001f', ''])}`;
  }
}

/** Requests whose header lines hold what RFC 9110 §5.5 forbids or Node's limits are near. */
function headerValues(random: Random): Case {
  const name = random.pick(HEADER_NAMES);
  const method = random.pick(['GET', 'POST']);
  return {
    category: 'header values',
    label: `${method} /messages ${name} odd value`,
    mayDrop: true,
    send(target) {
      const value = headerValue(random, target.token);
      const body = method === 'POST' ? BODY : '';
      return sendRaw(
        target.url,
        `${method} /messages HTTP/1.1\r\nHost: x\r\n${name}: ${value}\r\n` +
          (name === 'Authorization' ? '' : `Authorization: Bearer ${target.token}\r\n`) +
          (name === 'Content-Type' ? '' : 'Content-Type: application/json\r\n') +
          `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
  };
}

/** One query-string key with deep, unclosed or odd brackets, or an index past 2³² or 2⁵³. */
function bracketKey(random: Random): string {
  const field = random.pick(['text', '$or', '$and', '$sort', '$select', 'userId', '$limit', 'createdAt']);
  switch (random.int(8)) {
    case 0:
      return `${field}${'[]'.repeat(random.pick([2, 50, 2000]))}`;
    case 1:
      return `${field}${'['.repeat(random.pick([1, 50, 5000]))}`;
    case 2:
      return `${field}${']'.repeat(random.pick([1, 50]))}[x]`;
    case 3:
      return `${field}[${random.pick(['4294967295', '4294967296', '9007199254740993', '1e21', '00', '-0', '0.5', '１'])}]`;
    case 4:
      return `${field}[0]${'[0]'.repeat(random.pick([10, 200, 3000]))}`;
    case 5:
      return `${field}[${'a'.repeat(random.pick([100, 10_000]))}]`;
    case 6:
      return `${field}[%5B][%5D]${random.pick(['[__proto__]', '[constructor][prototype]', ''])}`;
    default:
      return `[${field}][$in][]`;
  }
}

/** Query strings of bracket keys the query parser must refuse or bound, never crash on. */
function brackets(random: Random): Case {
  const pairs = Array.from(
    { length: 1 + random.int(3) },
    () => `${bracketKey(random)}=${random.pick(['1', 'a', '', '%00'])}`,
  ).join('&');
  const path = random.pick(['/messages', '/users', '/messages/MESSAGE']);
  const method = random.pick(['GET', 'GET', 'DELETE', 'PATCH']);
  return {
    category: 'query brackets',
    label: `${method} ${path}?${pairs}`,
    send(target) {
      const body = method === 'PATCH' ? '{"text":"q"}' : '';
      return sendRaw(
        target.url,
        `${method} ${path.replace('MESSAGE', target.messageId)}?${pairs} HTTP/1.1\r\nHost: x\r\n` +
          `Authorization: Bearer ${target.token}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
  };
}

/** An event stream the client resets at a random moment, right after a write on another connection. */
function streamAborts(random: Random): Case {
  const leaveMs = random.pick([1, 20, 100, 300]);
  return {
    category: 'event streams left mid-event',
    label: `stream left after ${leaveMs} ms${random.chance(0.5) ? ' (gzip)' : ''}`,
    stream: true,
    mayDrop: true,
    send(target) {
      const head =
        'GET /messages/stream HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n' +
        `Authorization: Bearer ${target.token}\r\n${random.chance(0.5) ? 'Accept-Encoding: gzip\r\n' : ''}\r\n`;
      return sendRaw(target.url, head, { leaveAfterHeadMs: leaveMs, splitAt: cuts(random, head.length) });
    },
  };
}

/** The generators of this file. */
export const FRAMING_GENERATORS: ((random: Random) => Case)[] = [
  splitWrites,
  aborts,
  pipelined,
  headerValues,
  brackets,
  streamAborts,
];
