// A plain ESM consumer of the installed tarball (test/package/pack.test.ts copies it into a fresh
// project that installed only `plume` and `mongodb`). It loads every subpath of package.json
// `exports`, then serves one app on the embedded database over real HTTP on both transports.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { MongoClient } from 'mongodb';
import { createApp } from 'plume';
import { coerceQuery } from 'plume/adapter';
import {
  AuthenticationService,
  JWTStrategy,
  LocalStrategy,
  authenticate,
  hashPassword,
  parseAuthenticationMiddleware,
  protect,
} from 'plume/authentication';
import { DocDbService } from 'plume/docdb';
import { startEmbeddedServer } from 'plume/embedded';
import { NotFound } from 'plume/errors';
import * as express from 'plume/express';
import { bodyParser, createHandler, errorHandler, queryParser, toRuntimeHandler } from 'plume/http';
import { Type, createDataValidator, getValidator, validateData } from 'plume/schema';

function check(condition, message) {
  if (!condition) throw new Error(`consumer.mjs: ${message}`);
}

const pkg = JSON.parse(readFileSync(new URL('./node_modules/plume/package.json', import.meta.url), 'utf8'));
for (const subpath of Object.keys(pkg.exports)) {
  const specifier = subpath === '.' ? 'plume' : `plume/${subpath.slice(2)}`;
  const module = await import(specifier);
  check(Object.keys(module).length > 0, `${specifier} exports nothing`);
}

const database = await startEmbeddedServer({ port: 0 });
const client = await MongoClient.connect(database.uri);

const ajv = createDataValidator();
const messageSchema = Type.Object(
  { text: Type.String({ minLength: 1 }), n: Type.Integer() },
  { additionalProperties: false },
);

function configure(app, name) {
  const db = client.db(name);
  app.use('users', new DocDbService({ Model: db.collection('users') }));
  app.service('users').hooks({
    around: { all: [protect('password')] },
    before: { create: [hashPassword('password')] },
  });
  const auth = new AuthenticationService(app, {
    secret: 'a secret long enough for HS256 tokens',
    entity: 'user',
    service: 'users',
    authStrategies: ['jwt', 'local'],
  });
  auth.register('jwt', new JWTStrategy());
  auth.register('local', new LocalStrategy());
  app.use('authentication', auth);
  app.use(
    'messages',
    new DocDbService({ Model: db.collection('messages'), converter: coerceQuery({ n: 'integer' }) }),
  );
  app.service('messages').hooks({
    before: { create: [authenticate('jwt'), validateData(getValidator(messageSchema, ajv))] },
  });
  app.use('missing', {
    async get(id) {
      throw new NotFound(`no thing ${id}`);
    },
  });
  return app;
}

async function exercise(url) {
  const post = (path, body, headers = {}) =>
    fetch(`${url}/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const user = await post('users', { email: 'ada@example.com', password: 'correct horse' });
  check(user.status === 201, `signup answered ${user.status}`);
  check(!('password' in (await user.json())), 'the password hash was sent');
  const login = await post('authentication', {
    strategy: 'local',
    email: 'ada@example.com',
    password: 'correct horse',
  });
  check(login.status === 201, `login answered ${login.status}`);
  const { accessToken } = await login.json();
  const authorization = { authorization: `Bearer ${accessToken}` };
  check((await post('messages', { text: 'hi', n: 1 })).status === 401, 'create without a token was not 401');
  check(
    (await post('messages', { text: '', n: 1 }, authorization)).status === 400,
    'invalid data was not 400',
  );
  for (const n of [1, 2, 3]) {
    const created = await post('messages', { text: `m${n}`, n }, authorization);
    check(created.status === 201, `create answered ${created.status}`);
  }
  const found = await (await fetch(`${url}/messages?n[$gt]=1&$sort[n]=1`)).json();
  check(JSON.stringify(found.map((m) => m.text)) === '["m2","m3"]', `find gave ${JSON.stringify(found)}`);
  const missing = await fetch(`${url}/missing/7`, { headers: { accept: 'application/json' } });
  const error = await missing.json();
  check(missing.status === 404 && error.name === 'NotFound', `missing answered ${missing.status}`);
}

const web = configure(createApp(), 'web');
const webServer = createServer(
  toRuntimeHandler(
    createHandler(web, [errorHandler(), queryParser(), bodyParser(), parseAuthenticationMiddleware()]),
  ),
);
await new Promise((resolve) => webServer.listen(0, '127.0.0.1', resolve));
await web.setup(webServer);
await exercise(`http://127.0.0.1:${webServer.address().port}`);

const app = express.serverFramework(createApp());
app.use(express.json());
app.configure(express.rest());
configure(app, 'express');
app.use(express.notFound());
app.use(express.errorHandler({ logger: false }));
const expressServer = await app.listen(0, '127.0.0.1');
await exercise(`http://127.0.0.1:${expressServer.address().port}`);

for (const server of [webServer, expressServer]) {
  await new Promise((resolve) => server.close(resolve));
}
await web.teardown();
await client.close();
await database.stop();
console.log('consumer.mjs: ok');
