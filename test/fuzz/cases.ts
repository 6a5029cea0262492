import { SignJWT } from 'jose';
import { FORBIDDEN_OPERATORS, STANDARD_OPERATORS } from 'plume/adapter';
import { sendFetch, sendRaw, type Reply } from './wire.js';

/** A seeded pseudo-random source (mulberry32), so a run can be repeated with `--seed`. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(max: number): number {
    return Math.floor(this.next() * max);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** What the fuzzer knows about the running example: its URL, a user, a token, a message. */
export interface Target {
  url: string;
  secret: string;
  userId: string;
  token: string;
  messageId: string;
}

/** One generated request and how it may legitimately end. */
export interface Case {
  category: string;
  /** Short description for the report (truncated). */
  label: string;
  send(target: Target): Promise<Reply>;
  /** The server may close the connection without an answer (the request itself was cut off). */
  mayDrop?: boolean;
  /** The client asked for HTML, so an HTML error page is an acceptable error body. */
  acceptsHtml?: boolean;
  /** The request opens an event stream that the client leaves: a 200 without a complete body is fine. */
  stream?: boolean;
  /** A known problem left unfixed (why): reported apart, it does not fail the run. */
  known?: string;
}

const SERVICES = [
  '/users',
  '/messages',
  '/messages/stream',
  '/health',
  '/health/ready',
  '/authentication',
  '/openapi.json',
  '/docs',
];
const HOSTILE_SEGMENTS = [
  '',
  '.',
  '..',
  '%2e%2e',
  '%',
  '%ZZ',
  '%00',
  '%C0%AF',
  '%FF',
  '%E0%A4%A',
  '%F0%9F%92%A9',
  '%2F',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '0123456789abcdef01234567',
  'ffffffffffffffffffffffff',
  '-1',
  '1e999',
  'null',
  'undefined',
  '[object Object]',
  ':userId',
  '%3Auserid',
  '😀',
  ';',
  '$where',
];

function segment(random: Random, target: Target): string {
  switch (random.int(5)) {
    case 0:
      return random.pick([target.messageId, target.userId]);
    case 1:
      return 'x'.repeat(random.pick([100, 1000, 8000, 20_000]));
    case 2:
      return Array.from({ length: random.int(12) }, () => String.fromCharCode(0x21 + random.int(0x5e))).join(
        '',
      );
    default:
      return random.pick(HOSTILE_SEGMENTS);
  }
}

/** Random, overlong and percent-broken paths, and the `users/:userId/messages` placeholder. */
function paths(random: Random): Case {
  const method = random.pick(['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'HEAD']);
  const shape = random.int(4);
  return {
    category: 'paths',
    label: `${method} shape ${shape}`,
    mayDrop: false,
    send(target) {
      let path: string;
      if (shape === 0) path = `/users/${segment(random, target)}/messages`;
      else if (shape === 1) path = `${random.pick(SERVICES)}/${segment(random, target)}`;
      else if (shape === 2)
        path = `/${Array.from({ length: 1 + random.int(6) }, () => segment(random, target)).join('/')}`;
      else path = `/messages/${segment(random, target)}/${segment(random, target)}`;
      // fetch would normalise '..' and refuse some bytes; raw keeps the path as is.
      const body = method === 'GET' || method === 'HEAD' || method === 'DELETE' ? '' : '{"text":"p"}';
      return sendRaw(
        target.url,
        `${method} ${path} HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nAuthorization: Bearer ${target.token}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
  };
}

const FIELDS = ['text', 'userId', 'createdAt', '_id', 'email', 'name', 'password', 'user.email', 'a.b'];
/** Every operator a client may send, the forbidden ones, and some the adapter does not know. */
const OPERATORS = [
  ...STANDARD_OPERATORS,
  ...FORBIDDEN_OPERATORS,
  '$eq',
  '$regex',
  '$options',
  '$exists',
  '$elemMatch',
  '$not',
  '$text',
  '$all',
  '$size',
  '$type',
  '$mod',
];
const TOP_LEVEL = ['$limit', '$skip', '$sort', '$select', '$or', '$and', '$nor', '$populate', '$search'];
const VALUES = [
  '',
  'a',
  '1',
  '-1',
  '0',
  'true',
  'null',
  '1e309',
  '-1e309',
  'NaN',
  'Infinity',
  '99999999999999999999999999',
  '9007199254740993',
  '0x10',
  '0123456789abcdef01234567',
  '(a+)+$',
  '.*'.repeat(60),
  '%00',
  '%ZZ',
  '%F0%9F',
  'x'.repeat(5000),
];
const PROTO = ['__proto__', 'constructor', 'prototype'];

function value(random: Random): string {
  return encodeURIComponent(random.pick(VALUES)).replace(/%25/g, random.chance(0.3) ? '%' : '%25');
}

/** A `key=value` pair of a query string made of operators, fields and prototype keys in any shape. */
function queryPair(random: Random): string {
  const field = random.pick(FIELDS);
  switch (random.int(9)) {
    case 0: // operator with a scalar / array / object where another shape is expected
      return `${field}[${random.pick(OPERATORS)}]${random.pick(['', '[]', '[0]', '[a]', '[$in]'])}=${value(random)}`;
    case 1:
      return `${random.pick(TOP_LEVEL)}${random.pick(['', '[]', '[0]', `[${field}]`, '[a][b]', '[$or]'])}=${value(random)}`;
    case 2: // prototype keys anywhere
      return `${random.pick([...PROTO, field, '$sort', '$select', '$or'])}[${random.pick(PROTO)}]${random.pick(['', `[${random.pick(PROTO)}]`, '[x]'])}=${value(random)}`;
    case 3: // deep nesting
      return `${field}${'[a]'.repeat(random.pick([5, 20, 100, 1000]))}=1`;
    case 4: // nested $or
      return `${'$or[0]'.repeat(1)}${'[$or][0]'.repeat(random.pick([2, 10, 100, 1000]))}[text]=a`;
    case 5:
      return `${field}[]=${value(random)}&${field}[]=${value(random)}&${field}[x]=${value(random)}`;
    case 6:
      return `${random.pick(['include', 'ignoreCase', 'access_token', '$limit', '$skip'])}${random.pick(['', '[]', '[x]'])}=${value(random)}`;
    case 7: // many parameters / huge array indices
      return `${field}[${random.pick(['99999999', '21', '-1', '1e3', '0x1'])}]=1`;
    default:
      return `${field}=${value(random)}`;
  }
}

/** Query strings with every operator in wrong shapes, prototype keys, huge numbers and deep nesting. */
function queries(random: Random): Case {
  const path = random.pick(['/messages', '/users', '/users/USER/messages', '/messages/MESSAGE', '/health']);
  const method = random.pick(['GET', 'GET', 'GET', 'PATCH', 'DELETE']);
  const count = 1 + random.int(random.chance(0.05) ? 2000 : 6);
  const pairs = Array.from({ length: count }, () => queryPair(random)).join('&');
  return {
    category: 'queries',
    label: `${method} ${path}?${pairs}`,
    send(target) {
      const resolved = path.replace('USER', target.userId).replace('MESSAGE', target.messageId);
      const body = method === 'PATCH' ? '{"text":"q"}' : '';
      return sendRaw(
        target.url,
        `${method} ${resolved}?${pairs} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${target.token}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
  };
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16le',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/json; charset=bogus',
  'application/json; charset=',
  'application/json; charset="utf-8',
  'application/merge-patch+json',
  'application/vnd.api+json',
  'text/plain',
  'text/json',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=utf-16',
  'multipart/form-data; boundary=x',
  'multipart/form-data',
  'application/octet-stream',
  '*/*',
  '',
  'application/json, text/plain',
  ';;;',
  'application/json; q=1; q=2; charset=utf-8; charset=latin1',
];

function deepJson(depth: number, open: string, close: string, leaf: string): string {
  return open.repeat(depth) + leaf + close.repeat(depth);
}

const BODIES: ((random: Random) => string | Buffer)[] = [
  () => '{"text":"hello"}',
  () => '{"text":',
  () => '',
  () => 'null',
  () => '[]',
  () => '[{"text":"a"},{"text":"b"}]',
  () => '"text"',
  () => '1e999',
  () => 'true',
  () => '{"text":"a","text":"b"}',
  () => '{"__proto__":{"isAdmin":true},"text":"a"}',
  () => '{"constructor":{"prototype":{"isAdmin":true}},"text":"a"}',
  () => '{"text":{"$gt":""}}',
  () => '{"text":["a"]}',
  () => '{"text":1e400}',
  () => '{"text":"\\ud800"}',
  () => '{"text":"a\\u0000b"}',
  () => '{"text":"a","userId":"0123456789abcdef01234567","createdAt":-1,"_id":"x"}',
  (random) => `{"text":${deepJson(random.pick([100, 1000, 10_000, 100_000]), '[', ']', '1')}}`,
  (random) => deepJson(random.pick([100, 1000, 10_000, 100_000]), '{"a":', '}', '1'),
  (random) => `{"text":"${'x'.repeat(random.pick([2001, 100_000, 900_000]))}"}`,
  (random) => `[${Array.from({ length: random.pick([100, 10_000]) }, () => '{"text":"a"}').join(',')}]`,
  () => Buffer.from([0xef, 0xbb, 0xbf, ...Buffer.from('{"text":"bom"}')]),
  () => Buffer.from([0xff, 0xfe, ...Buffer.from('{"text":"x"}', 'utf16le')]),
  () => Buffer.from([0x7b, 0x22, 0x74, 0x65, 0x78, 0x74, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xff, 0x22, 0x7d]),
  () => 'text=a&text[$gt]=&__proto__[x]=1',
  () => `text=${'a'.repeat(3000)}&${'b[c]'.repeat(200)}=1`,
  () => '--x\r\nContent-Disposition: form-data; name="text"\r\n\r\nhi\r\n--x--',
  () => '{"email":"A@B.C","password":"correct horse"}',
  () => '{"email":{"$ne":null},"password":"correct horse"}',
  () => '{"password":["a","b"],"email":"x@y.z"}',
  () => '{"name":{"__proto__":{"a":1}}}',
  (random) => `{"email":"${'a'.repeat(random.pick([300, 70_000]))}@x.io","password":"correct horse"}`,
];

/** Bodies of every shape with wrong, broken or missing content types and charsets. */
function bodies(random: Random): Case {
  const method = random.pick(['POST', 'PATCH', 'PUT']);
  const path = random.pick(['/messages', '/messages/MESSAGE', '/users', '/users/USER', '/authentication']);
  const contentType = random.pick(CONTENT_TYPES);
  const body = random.pick(BODIES)(random);
  const serviceMethod = random.chance(0.1) ? random.pick(['stats', 'create', 'nope']) : undefined;
  return {
    category: 'bodies',
    label: `${method} ${path} [${contentType}] ${String(body).slice(0, 60)}`,
    send(target) {
      const resolved = path.replace('USER', target.userId).replace('MESSAGE', target.messageId);
      const head =
        `${method} ${resolved} HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\n` +
        `Authorization: Bearer ${target.token}\r\n` +
        (contentType === '' ? '' : `Content-Type: ${contentType}\r\n`) +
        (serviceMethod === undefined ? '' : `X-Service-Method: ${serviceMethod}\r\n`) +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`;
      return sendRaw(target.url, Buffer.concat([Buffer.from(head), Buffer.from(body)]), {
        timeoutMs: 15_000,
      });
    },
  };
}

/** Truncated and oversized bodies: Content-Length that lies, then the client half-closes. */
function truncated(random: Random): Case {
  const path = random.pick(['/messages', '/users', '/authentication']);
  const sent = '{"text":"a'.slice(0, random.int(11));
  const claimed = random.pick([sent.length + 1, sent.length + 100, 5_000_000, 1e15]);
  return {
    category: 'truncated bodies',
    label: `POST ${path} Content-Length ${claimed}, ${sent.length} bytes sent`,
    mayDrop: true,
    send(target) {
      return sendRaw(
        target.url,
        `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${target.token}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${claimed}\r\n\r\n${sent}`,
        { end: true },
      );
    },
  };
}

const CHUNKED: ((random: Random) => { head: string; body: string; end: boolean })[] = [
  () => ({ head: '', body: 'zz\r\n{}\r\n0\r\n\r\n', end: false }),
  () => ({ head: '', body: 'ffffffffffffffff\r\n{}\r\n0\r\n\r\n', end: true }),
  () => ({ head: '', body: '2\r\n{}\r\n', end: true }), // no last chunk
  () => ({ head: '', body: '2;ext=1;x\r\n{}\r\n0\r\n\r\n', end: false }),
  () => ({ head: '', body: `2;${'e'.repeat(20_000)}\r\n{}\r\n0\r\n\r\n`, end: false }),
  () => ({ head: '', body: '2\r\n{}\r\n0\r\nX-Trailer: 1\r\n\r\n', end: false }),
  () => ({ head: '', body: '1\r\n{\r\n1\r\n}\r\n0\r\n\r\n', end: false }),
  () => ({ head: '', body: '5\r\n{}\r\n0\r\n\r\n', end: true }), // size larger than data
  () => ({ head: '', body: '-1\r\n{}\r\n0\r\n\r\n', end: false }),
  () => ({ head: '', body: '2\n{}\n0\n\n', end: true }),
  () => ({ head: 'Content-Length: 2\r\n', body: '2\r\n{}\r\n0\r\n\r\n', end: false }),
  (random) => ({
    head: '',
    body: `${Array.from({ length: random.pick([10, 1000]) }, () => '1\r\n \r\n').join('')}2\r\n{}\r\n0\r\n\r\n`,
    end: false,
  }),
  (random) => {
    const big = `{"text":"${'y'.repeat(random.pick([1000, 2_000_000]))}"}`;
    return { head: '', body: `${big.length.toString(16)}\r\n${big}\r\n0\r\n\r\n`, end: false };
  },
];
const TRANSFER_ENCODINGS = [
  'chunked',
  'Chunked',
  'chunked, chunked',
  'gzip, chunked',
  'chunked, identity',
  'identity',
  'chunked\r\nTransfer-Encoding: chunked',
  ' chunked',
];

/** Chunked-encoding abuse: bad sizes, missing terminator, extensions, trailers, both framings. */
function chunked(random: Random): Case {
  const shape = random.pick(CHUNKED)(random);
  const encoding = random.chance(0.7) ? 'chunked' : random.pick(TRANSFER_ENCODINGS);
  const path = random.pick(['/messages', '/users', '/authentication', '/health']);
  return {
    category: 'chunked encoding',
    label: `POST ${path} TE ${encoding} ${shape.body.slice(0, 40)}`,
    mayDrop: true,
    send(target) {
      return sendRaw(
        target.url,
        `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${target.token}\r\nContent-Type: application/json\r\n` +
          `Transfer-Encoding: ${encoding}\r\n${shape.head}Connection: close\r\n\r\n${shape.body}`,
        { end: shape.end, timeoutMs: 15_000 },
      );
    },
  };
}

const DUPLICATES = [
  ['Content-Type', 'application/json', 'text/plain'],
  ['Content-Type', 'application/json', 'application/json'],
  ['Authorization', 'Bearer TOKEN', 'Bearer x'],
  ['Authorization', 'Bearer TOKEN', 'Bearer TOKEN'],
  ['Content-Length', '2', '3'],
  ['Content-Length', '2', '2'],
  ['Host', 'a', 'b'],
  ['X-Service-Method', 'stats', 'create'],
  ['X-Service-Method', 'stats', 'stats'],
  ['X-API-Key', 'a', 'b'],
  ['Last-Event-ID', 'abc', 'def'],
  ['Accept', 'text/html', 'application/json'],
  ['Accept-Encoding', 'gzip', 'br'],
  ['Origin', 'https://app.example.com', 'https://evil.example'],
  ['Cookie', 'a=1', 'b=2'],
  ['Content-Encoding', 'gzip', 'identity'],
  ['X-HTTP-Method-Override', 'DELETE', 'PATCH'],
] as const;

/** The same header twice, with equal or different values. */
function duplicates(random: Random): Case {
  const [name, first, second] = random.pick(DUPLICATES);
  const method = random.pick(['GET', 'POST', 'PATCH', 'DELETE']);
  const path = random.pick([
    '/messages',
    '/messages/MESSAGE',
    '/users',
    '/messages/stream',
    '/authentication',
  ]);
  return {
    category: 'duplicate headers',
    label: `${method} ${path} ${name}: ${first} / ${second}`,
    mayDrop: false,
    acceptsHtml: name === 'Accept',
    stream: path === '/messages/stream',
    send(target) {
      const resolved = path.replace('MESSAGE', target.messageId);
      const body = method === 'GET' || method === 'DELETE' ? '' : '{}';
      const headers = [
        ['Host', 'x'],
        ['Authorization', `Bearer ${target.token}`],
        ['Content-Type', 'application/json'],
        ['Content-Length', String(body.length)],
      ].filter(([header]) => header !== name);
      headers.push(
        [name, first.replace('TOKEN', target.token)],
        [name, second.replace('TOKEN', target.token)],
      );
      const head = headers.map(([header, text]) => `${header}: ${text}\r\n`).join('');
      return sendRaw(
        target.url,
        `${method} ${resolved} HTTP/1.1\r\n${head}Connection: close\r\n\r\n${body}`,
        {
          leaveAfterHeadMs: path === '/messages/stream' ? 50 : undefined,
        },
      );
    },
  };
}

const METHODS = [
  'FOO',
  'PROPFIND',
  'MKCOL',
  'PURGE',
  'M-SEARCH',
  'TRACE',
  'CONNECT',
  'OPTIONS',
  'get',
  'Get',
  'SEARCH',
  'QUERY',
  'LINK',
  'SOURCE',
  'G\u00c9T',
  'G ET',
  '',
  'POST\u0000',
  'A'.repeat(100),
];
const OVERRIDES = [
  'DELETE',
  'PATCH',
  'PUT',
  'GET',
  'FOO',
  '',
  'delete',
  '__proto__',
  'constructor',
  'setup',
  'teardown',
  '_find',
  '_patch',
  'stats',
  'create',
  'update',
  'find',
  'remove',
  'hooks',
  'toString',
  'stats\u00a0',
  'x'.repeat(5000),
];

/** Unknown and odd methods, and method overrides (`X-HTTP-Method-Override`, `X-Service-Method`). */
function methods(random: Random): Case {
  const method = random.chance(0.5)
    ? random.pick(METHODS)
    : random.pick(['GET', 'POST', 'PATCH', 'PUT', 'DELETE']);
  const path = random.pick([
    '/messages',
    '/messages/MESSAGE',
    '/users',
    '/users/USER',
    '/health',
    '/authentication',
    '*',
  ]);
  const header = random.pick([
    'X-HTTP-Method-Override',
    'X-Service-Method',
    'X-HTTP-Method',
    'X-Method-Override',
  ]);
  const override = random.pick(OVERRIDES);
  return {
    category: 'methods and overrides',
    label: `${JSON.stringify(method)} ${path} ${header}: ${override.slice(0, 30)}`,
    mayDrop: false,
    send(target) {
      const resolved = path.replace('MESSAGE', target.messageId).replace('USER', target.userId);
      const body = '{"text":"m"}';
      return sendRaw(
        target.url,
        `${method} ${resolved} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${target.token}\r\nAccept: application/json\r\n` +
          `Content-Type: application/json\r\n${header}: ${override}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
  };
}

function base64url(text: string): string {
  return Buffer.from(text).toString('base64url');
}

async function token(random: Random, target: Target): Promise<string> {
  const key = new TextEncoder().encode(target.secret);
  const now = Math.floor(Date.now() / 1000);
  switch (random.int(12)) {
    case 0:
      return `${base64url('{"alg":"none","typ":"access"}')}.${base64url(JSON.stringify({ sub: target.userId, exp: now + 60 }))}.`;
    case 1: // expired, correctly signed
      return new SignJWT({ sub: target.userId })
        .setProtectedHeader({ alg: 'HS256', typ: 'access' })
        .setIssuedAt(now - 100)
        .setExpirationTime(now - 50)
        .setAudience('plume-example')
        .setIssuer('plume-example')
        .sign(key);
    case 2: // wrong secret
      return new SignJWT({ sub: target.userId })
        .setProtectedHeader({ alg: 'HS256', typ: 'access' })
        .setExpirationTime(now + 60)
        .sign(new TextEncoder().encode('not the secret of the server, 32+ chars'));
    case 3:
      return `${'a'.repeat(random.pick([1000, 15_000, 200_000]))}.b.c`;
    case 4:
      return random.pick(['', 'a', 'a.b', 'a.b.c', '..', 'x.y.z.w', '%00', '\u00e9\u00ff', 'null']);
    case 5: // alg switched
      return `${base64url('{"alg":"HS512","typ":"access"}')}.${base64url('{}')}.${'A'.repeat(86)}`;
    case 6: // header that is not JSON, or JSON of the wrong type
      return `${base64url(random.pick(['[', '[]', '1', 'null', '{"alg":["HS256"]}', '{"alg":{"__proto__":1}}']))}.${base64url('{}')}.sig`;
    case 7:
      return target.token;
    default: {
      // correctly signed tokens whose subject is odd: a server-side bug must still not be a 5xx
      const sub = random.pick(['0123456789abcdef01234567', 'not-an-id', '', '__proto__', 'x'.repeat(3000)]);
      return new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', typ: 'access' })
        .setSubject(sub)
        .setExpirationTime(now + 60)
        .setAudience('plume-example')
        .setIssuer('plume-example')
        .sign(key);
    }
  }
}

const STRATEGIES: unknown[] = [
  undefined,
  'local',
  'jwt',
  'api-key',
  'nope',
  '',
  null,
  ['local'],
  { local: 1 },
  1,
  '__proto__',
  'constructor',
  'toString',
  'LOCAL',
];
const PASSWORDS: unknown[] = [
  'correct horse',
  '',
  1,
  null,
  true,
  ['correct horse'],
  { $ne: null },
  { $gt: '' },
  'x'.repeat(73),
  'x'.repeat(200_000),
  '\u0000',
  '\ud800',
];
const EMAILS: unknown[] = [
  'fuzz@example.com',
  'FUZZ@EXAMPLE.COM',
  'nobody@example.com',
  { $ne: null },
  { $regex: '.*' },
  ['fuzz@example.com'],
  '',
  null,
  `${'a'.repeat(100_000)}@x.io`,
];

/** Hostile logins and tokens: strategy missing/unknown/array, non-string passwords, bad JWTs. */
function auth(random: Random): Case {
  const kind = random.int(4);
  return {
    category: 'authentication',
    label: `kind ${kind}`,
    async send(target) {
      if (kind === 0) {
        const body: Record<string, unknown> = {};
        const strategy = random.pick(STRATEGIES);
        if (strategy !== undefined) body.strategy = strategy;
        if (random.chance(0.8)) body.email = random.pick(EMAILS);
        if (random.chance(0.8)) body.password = random.pick(PASSWORDS);
        if (random.chance(0.3))
          body.accessToken = random.chance(0.5) ? await token(random, target) : random.pick(PASSWORDS);
        if (random.chance(0.1)) body.apiKey = random.pick(PASSWORDS);
        return sendFetch(target.url, {
          method: 'POST',
          path: '/authentication',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(body),
        });
      }
      const bearer = await token(random, target);
      const scheme = random.pick(['Bearer ', 'bearer ', 'Basic ', '', 'Bearer  ', 'JWT ']);
      const path = random.pick([
        '/messages',
        '/users',
        `/users/${target.userId}`,
        '/authentication',
        `/authentication/${encodeURIComponent(bearer)}`,
        `/messages?access_token=${encodeURIComponent(bearer)}`,
        `/messages?access_token[]=${encodeURIComponent(bearer)}&access_token[]=x`,
        `/messages/stream?access_token[x]=1`,
      ]);
      const method = kind === 1 ? 'GET' : kind === 2 ? 'DELETE' : random.pick(['POST', 'PATCH']);
      const headers: Record<string, string> = {
        accept: 'application/json',
        'content-type': 'application/json',
      };
      if (random.chance(0.8)) headers.authorization = scheme + bearer;
      if (random.chance(0.2)) headers['x-api-key'] = random.pick(['', 'x', 'k'.repeat(10_000), bearer]);
      const stream = path.startsWith('/messages/stream');
      if (stream) {
        const head = Object.entries(headers)
          .map(([name, text]) => `${name}: ${text}\r\n`)
          .join('');
        return sendRaw(target.url, `GET ${path} HTTP/1.1\r\nHost: x\r\n${head}\r\n`, {
          leaveAfterHeadMs: 20,
        });
      }
      return sendFetch(target.url, {
        method,
        path,
        headers,
        body: method === 'POST' || method === 'PATCH' ? '{"text":"a"}' : undefined,
      });
    },
  };
}

/** Event-stream clients that leave mid-stream, with hostile `Last-Event-ID`s. */
function streams(random: Random): Case {
  const lastEventId = random.chance(0.5)
    ? undefined
    : random.pick(['', 'zz', '0', 'f'.repeat(512), 'f'.repeat(513), '__proto__', '8263'.repeat(20), '%00']);
  const leaveMs = random.pick([0, 5, 50, 200]);
  return {
    category: 'event streams',
    label: `Last-Event-ID ${String(lastEventId).slice(0, 20)}, leave after ${leaveMs} ms`,
    stream: true,
    mayDrop: leaveMs === 0,
    async send(target) {
      const head =
        `GET /messages/stream HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n` +
        (random.chance(0.3) ? 'Accept-Encoding: gzip\r\n' : '') +
        (lastEventId === undefined ? '' : `Last-Event-ID: ${lastEventId}\r\n`) +
        '\r\n';
      if (leaveMs === 0) {
        // leave before the answer: write the request and reset the connection at once
        const reply = sendRaw(target.url, head, { timeoutMs: 1 });
        return reply.then((r) => ({ ...r, hung: false, dropped: true }));
      }
      return sendRaw(target.url, head, { leaveAfterHeadMs: leaveMs });
    },
  };
}

const PROTOCOL: ((target: Target) => string)[] = [
  () => 'GET /messages HTTP/1.1\r\n\r\n', // no Host
  () => 'GET /messages HTTP/1.0\r\n\r\n',
  () => 'GET http://evil.example/messages HTTP/1.1\r\nHost: x\r\n\r\n',
  () => 'OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n',
  () => 'GET * HTTP/1.1\r\nHost: x\r\n\r\n',
  () => 'GET /messages HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n',
  () => 'GET /messages HTTP/1.1\r\nHost: x\r\nUpgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\n\r\n',
  () => 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
  () => 'GET /messages HTTP/9.9\r\nHost: x\r\n\r\n',
  () => 'GET /messages\r\n\r\n',
  () => 'GET  /messages  HTTP/1.1\r\nHost: x\r\n\r\n',
  () => 'GET /messages HTTP/1.1\nHost: x\n\n',
  () => 'GET /messages HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n', // obsolete line folding
  () => 'GET /messages HTTP/1.1\r\nHost: x\r\nX-A: \u0000\r\n\r\n',
  () => 'GET /messages HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n',
  () => 'GET /messages HTTP/1.1\r\nHost: x\r\n: empty\r\n\r\n',
  () => `GET /messages HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
  () => `GET /messages HTTP/1.1\r\nHost: x\r\n${'X-H: 1\r\n'.repeat(3000)}\r\n`,
  () => `GET /messages?${'a=1&'.repeat(3000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
  () => 'GET /messages HTTP/1.1\r\nHost: [::1\r\n\r\n',
  () => 'GET /messages HTTP/1.1\r\nHost: x/../admin\r\n\r\n',
  () => 'GET /messages HTTP/1.1\r\nHost: x:99999\r\n\r\n',
  () => 'GET /messages HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n\r\n',
  () =>
    'POST /messages HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
  () => 'GET /messages HTTP/1.1\r\nHost: x\r\nExpect: 999-nope\r\n\r\n',
  () => 'GET /messages HTTP/1.1\r\nHost: x\r\nOrigin: null\r\n\r\n',
  () =>
    'OPTIONS /messages HTTP/1.1\r\nHost: x\r\nOrigin: https://evil.example\r\nAccess-Control-Request-Method: DELETE\r\n\r\n',
  () => 'GET /messages HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip;q=x, br;q=2, *;q=-1\r\n\r\n',
  () => 'GET /messages HTTP/1.1\r\nHost: x\r\nAccept: text/html\r\n\r\nGET /nope HTTP/1.1\r\nHost: x\r\n\r\n',
  (target) =>
    `GET /messages HTTP/1.1\r\nHost: x\r\n\r\nDELETE /messages/${target.messageId} HTTP/1.1\r\nHost: x\r\n\r\n`,
  () =>
    'POST /messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: 4\r\n\r\nnope',
  () =>
    'POST /messages HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Encoding: br, gzip, deflate\r\nContent-Length: 2\r\n\r\n{}',
  () => 'GET /messages HTTP/1.1\r\nHost: x\r\nRange: bytes=0-1\r\nIf-None-Match: *\r\n\r\n',
  () => 'GET /openapi.json HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n',
  () => 'GET /docs HTTP/1.1\r\nHost: x\r\nAccept: text/html\r\n\r\n',
];

/** Protocol-level oddities: no Host, old and unknown versions, absolute and asterisk targets, upgrades, pipelining. */
function protocol(random: Random): Case {
  const index = random.int(PROTOCOL.length);
  return {
    category: 'protocol',
    label: `protocol case ${index}: ${JSON.stringify(
      PROTOCOL[index]!.toString()
        .replace(/^\([^)]*\)\s*=>\s*/, '')
        .slice(0, 70),
    )}`,
    acceptsHtml: true,
    known:
      index === 0
        ? "Node's http server answers an HTTP/1.1 request without Host with a bare 400 before any listener runs"
        : undefined,
    send(target) {
      const request = PROTOCOL[index]!(target);
      // No half-close: Node's server drops a request whose client half-closed before the answer.
      return sendRaw(target.url, request);
    },
  };
}

/** The generators, by category. */
export const GENERATORS: ((random: Random) => Case)[] = [
  paths,
  queries,
  bodies,
  truncated,
  chunked,
  duplicates,
  methods,
  auth,
  streams,
  protocol,
];
