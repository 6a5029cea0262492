// The README's client example, kept identical by test/example/readme.test.ts (run it while `npm start` runs).
import { createClient, withAuthentication } from 'plume/client';

const client = withAuthentication(createClient('http://127.0.0.1:3030'));
const ada = { email: 'ada@example.com', password: 'correct horse' };
const signup = client.service('users').create(ada);
await signup.catch((error: Error) => console.log(error.name)); // Conflict when run twice
await client.authenticate({ strategy: 'local', ...ada });
await client.service('messages').create({ text: 'Hello from plume/client' });
console.log(await client.service('messages').find({ query: { $sort: { createdAt: -1 }, $limit: 5 } }));
for await (const message of await client.events('messages/stream')) console.log('new message', message);
