/**
 * The examples of docs/client.md, type-checked and run by test/docs/examples.test.ts.
 * Keep each function identical to the snippet in the page it comes from.
 */
import { createApp, type Params } from 'plume';
import {
  createClient,
  withAuthentication,
  type ClientMiddleware,
  type Paginate,
  type Paginated,
} from 'plume/client';
import { BadRequest, NotFound, Timeout } from 'plume/errors';

/** "Creating a client". */
export function connect(url: string) {
  const client = createClient(url, {
    timeout: 10_000, // ms without an answer before a call fails with Timeout (default 30 000)
    headers: { 'x-client': 'docs' }, // sent with every call
  });
  return client;
}

/** "Calling services": the REST mapping, queries, placeholders and custom methods. */
export async function callServices(url: string, userId: string) {
  const client = createClient(url);
  const messages = client.service('messages');
  const page = await messages.find({ query: { text: { $regex: '^hello' }, $limit: 5 } });
  const one = await messages.get('6560f0c2a1b2c3d4e5f60718').catch((error: unknown) => error);
  const theirs = await client.service('users/:userId/messages').find({ route: { userId } });
  const stats = await client.service('messages').stats!({});
  return { page, one, theirs, stats };
}

/** "Errors". */
export async function handleErrors(url: string) {
  const client = createClient(url);
  try {
    await client.service('users').create({ email: 'not an email' });
  } catch (error) {
    if (error instanceof BadRequest) return { message: error.message, errors: error.errors };
    if (error instanceof NotFound || error instanceof Timeout) return { message: error.message };
    throw error;
  }
  return null;
}

/** "Timeouts and aborting". */
export async function abortable(url: string) {
  const client = createClient(url);
  const abort = new AbortController();
  const call = client.service('messages').find({ signal: abort.signal, timeout: 2000 });
  abort.abort(); // the call rejects with an AbortError
  return call.catch((error: unknown) => (error as Error).name);
}

/** "Authentication". */
export async function logIn(url: string, storage: Storage) {
  const client = withAuthentication(createClient(url), { storage }); // e.g. localStorage
  await client.authenticate({ strategy: 'local', email: 'ada@example.com', password: 'correct horse' });
  await client.service('messages').create({ text: 'Sent with Authorization: Bearer <token>' });

  const later = withAuthentication(createClient(url), { storage });
  const { user } = await later.reAuthenticate(); // NotAuthenticated when the token is missing or expired
  await later.logout();
  return user;
}

/** "Server-Sent Events". */
export async function readEvents(url: string, onMessage: (message: unknown) => Promise<boolean>) {
  const client = createClient(url);
  const messages = await client.events('messages/stream');
  for await (const message of messages) {
    const more = await onMessage(message);
    if (!more) break; // leaving the loop closes the connection
  }
}

/** "Middleware". */
export const requestId: ClientMiddleware = async (request, next) => {
  request.headers['x-request-id'] = crypto.randomUUID();
  return next();
};

export function withRequestIds(url: string) {
  return createClient(url).use(requestId);
}

/** "Types": a service map the server declares, shared with the client. */
interface Message {
  _id: string;
  text: string;
}

export type ServiceTypes = {
  messages: Paginate<{
    get(id: string, params?: Params): Promise<Message>;
    create(data: { text: string }, params?: Params): Promise<Message>;
    stats(data: object, params?: Params): Promise<{ total: number }>;
  }>;
};

export const app = createApp<ServiceTypes>(); // the server's app

export async function typed(url: string) {
  const client = createClient<typeof app>(url); // or createClient<ServiceTypes>(url)
  const page: Paginated<Message> = await client.service('messages').find({ query: { $limit: 5 } });
  const { total } = await client.service('messages').stats({});
  return { page, total };
}
