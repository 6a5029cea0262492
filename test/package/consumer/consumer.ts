// A strict TypeScript consumer of the installed tarball (strict, nodenext, no skipLibCheck):
// test/package/pack.test.ts type-checks it with tsc in a fresh project, then runs the output.
import type { AddressInfo } from 'node:net';
import { MongoClient, ObjectId } from 'mongodb';
import { createApp, type HookContext } from 'plume';
import { DocDbService } from 'plume/docdb';
import { startEmbeddedServer } from 'plume/embedded';
import { BadRequest } from 'plume/errors';
import * as express from 'plume/express';

interface Message {
  _id?: ObjectId;
  text: string;
  likes: number;
}

/** `true` only when T is `any`: a declaration that lost its types would make these checks pass. */
type IsAny<T> = 0 extends 1 & T ? true : false;
const requestIsTyped: IsAny<express.Request> = false;
const responseIsTyped: IsAny<express.Response> = false;
const messageIsTyped: IsAny<Message> = false;

const database = await startEmbeddedServer({ port: 0 });
const client = await MongoClient.connect(database.uri);
const db = client.db('typed');

const app = express.serverFramework(createApp());
app.use(express.json());
app.use((request: express.Request, response: express.Response, next: express.NextFunction) => {
  response.setHeader('x-path', request.path);
  next();
});
app.configure(express.rest());
const messages = new DocDbService<Message>({ Model: db.collection<Message>('messages') });
const later = new DocDbService<Message>({ Model: Promise.resolve(db.collection<Message>('later')) });
app.use('messages', messages);
app.service('messages').hooks({
  before: {
    create: [
      async (context: HookContext) => {
        if (typeof (context.data as Partial<Message>).text !== 'string')
          throw new BadRequest('text is required');
      },
    ],
  },
});
app.use(express.notFound());
app.use(express.errorHandler({ logger: false }));

const created: Message = await messages.create({ text: 'typed', likes: 2 });
const likes: number = created.likes;
const page = await later.find({ paginate: false });
const texts: string[] = page.map((message) => message.text);

const server = await app.listen(0, '127.0.0.1');
const { port } = server.address() as AddressInfo;
const response = await fetch(`http://127.0.0.1:${port}/messages`);
const body = (await response.json()) as Message[];
if (response.status !== 200 || body[0]?.text !== 'typed' || response.headers.get('x-path') !== '/messages') {
  throw new Error(`consumer.ts: GET /messages answered ${response.status} ${JSON.stringify(body)}`);
}
await new Promise((resolve) => server.close(resolve));
await client.close();
await database.stop();
console.log('consumer.ts: ok', requestIsTyped, responseIsTyped, messageIsTyped, likes, texts.length);
