import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthenticationService } from 'plume/authentication';
import {
  createClient,
  memoryStorage,
  withAuthentication,
  type AuthenticatedClient,
  type Paginated,
  type TokenStorage,
} from 'plume/client';
import { BadRequest, Conflict, NotAuthenticated, NotFound, PlumeError } from 'plume/errors';
import { connectDatabase, type Database } from '../../examples/api/database.js';
import { startServer, type RunningServer } from '../../examples/api/server.js';

// plume/client against the example API, over real HTTP, on both transports.
interface Message {
  _id: string;
  text: string;
  userId: string;
  createdAt: number;
  user?: { email: string; password?: string };
}

describe.each(['web', 'express'] as const)(
  'plume/client against examples/api on the %s transport',
  (transport) => {
    let database: Database;
    let running: RunningServer;
    let client: AuthenticatedClient<Record<string, unknown>>;
    let storage: TokenStorage;
    let alice: { _id: string };

    beforeAll(async () => {
      database = await connectDatabase('', `plume_client_${randomBytes(4).toString('hex')}`);
      running = await startServer({ port: 0, transport, database, hashCost: 4 });
      storage = memoryStorage();
      client = withAuthentication(createClient(running.url), { storage });
      alice = (await client
        .service('users')
        .create({ email: 'alice@example.com', password: 'correct horse' })) as {
        _id: string;
      };
    });

    afterAll(async () => {
      await running?.close();
      await database?.db.dropDatabase().catch(() => undefined);
      await database?.close();
    });

    it('signs up (never seeing the password) and a second signup is a Conflict naming the field', async () => {
      expect(alice).toEqual({ _id: expect.any(String), email: 'alice@example.com' });
      const again = client.service('users').create({ email: 'alice@example.com', password: 'correct horse' });
      await expect(again).rejects.toBeInstanceOf(Conflict);
      await expect(again).rejects.toMatchObject({ code: 409, data: { fields: ['email'] } });
    });

    it('rebuilds validation errors as BadRequest with their errors', async () => {
      const error = await client
        .service('users')
        .create({ email: 'not an email', password: 'x' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BadRequest);
      expect((error as BadRequest).errors).toEqual(
        expect.arrayContaining([expect.objectContaining({ instancePath: '/email' })]),
      );
    });

    it('logs in with the local strategy, sends the token with every call, and logs out', async () => {
      await expect(client.service('users').find()).rejects.toBeInstanceOf(NotAuthenticated);
      const wrong = client.authenticate({
        strategy: 'local',
        email: 'alice@example.com',
        password: 'wrong password',
      });
      await expect(wrong).rejects.toBeInstanceOf(NotAuthenticated);
      expect(await client.getAccessToken()).toBeNull();

      const login = await client.authenticate({
        strategy: 'local',
        email: 'alice@example.com',
        password: 'correct horse',
      });
      expect(login).toMatchObject({
        accessToken: expect.any(String),
        user: { _id: alice._id, email: 'alice@example.com' },
      });
      expect(await storage.getItem('plume-jwt')).toBe(login.accessToken);
      const users = (await client.service('users').find()) as Paginated<{ email: string }>;
      expect(users.data.map((user) => user.email)).toEqual(['alice@example.com']);

      // A new client with the same storage picks the login up (as a page reload with localStorage would).
      const reloaded = withAuthentication(createClient(running.url), { storage });
      expect(await reloaded.reAuthenticate()).toMatchObject({ user: { _id: alice._id } });

      expect(await reloaded.logout()).toMatchObject({ accessToken: login.accessToken });
      expect(await storage.getItem('plume-jwt')).toBeNull();
      await expect(reloaded.service('users').find()).rejects.toBeInstanceOf(NotAuthenticated);
      await expect(reloaded.reAuthenticate()).rejects.toBeInstanceOf(NotAuthenticated);
      expect(await reloaded.logout()).toBeNull();
    });

    it('clears an expired token with a NotAuthenticated error', async () => {
      const auth = running.app.service('authentication') as unknown as AuthenticationService;
      const expired = await auth.createAccessToken({ sub: alice._id }, { expiresIn: -60 });
      const expiredStorage = memoryStorage();
      await expiredStorage.setItem('plume-jwt', expired);
      const stale = withAuthentication(createClient(running.url), { storage: expiredStorage });
      const error = await stale
        .service('users')
        .get(alice._id)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotAuthenticated);
      expect((error as Error).message).toMatch(/expired/);
      expect(await stale.getAccessToken()).toBeNull();

      await expiredStorage.setItem('plume-jwt', expired);
      await expect(stale.reAuthenticate()).rejects.toBeInstanceOf(NotAuthenticated);
      expect(await stale.getAccessToken()).toBeNull();
    });

    describe('logged in', () => {
      let created: Message[];
      beforeAll(async () => {
        await client.authenticate({
          strategy: 'local',
          email: 'alice@example.com',
          password: 'correct horse',
        });
        const messages = client.service('messages');
        created = [];
        for (const text of ['Hello world', 'hello plume', 'Bonjour', 'apple pie']) {
          created.push((await messages.create({ text })) as Message);
        }
      });

      it('runs CRUD with queries in nested-bracket form', async () => {
        const messages = client.service('messages');
        const page = (await messages.find({
          query: {
            text: { $regex: '^hello', $options: 'i' },
            $sort: { text: 1 },
            $limit: 1,
            include: 'user',
          },
        })) as Paginated<Message>;
        expect(page).toMatchObject({ total: 2, limit: 1, skip: 0 });
        expect(page.data.map((m) => m.text)).toEqual(['Hello world']);
        expect(page.data[0]!.user).toEqual({ _id: alice._id, email: 'alice@example.com' });

        const some = (await messages.find({
          query: { _id: { $in: [created[0]!._id, created[3]!._id] }, $select: ['text'] },
        })) as Paginated<Message>;
        expect(some.data.map((m) => m.text).sort()).toEqual(['Hello world', 'apple pie']);

        const one = created[2]!;
        expect(await messages.get(one._id)).toEqual(one);
        expect(await messages.patch(one._id, { text: 'Bonsoir' })).toMatchObject({
          _id: one._id,
          text: 'Bonsoir',
        });
        expect(await messages.update(one._id, { text: 'Bonne nuit' })).toMatchObject({
          text: 'Bonne nuit',
          createdAt: one.createdAt,
        });
        expect(await messages.remove(one._id)).toMatchObject({ _id: one._id });
        await expect(messages.get(one._id)).rejects.toBeInstanceOf(NotFound);
        await expect(messages.get('not-an-id')).rejects.toBeInstanceOf(BadRequest);
      });

      it('calls the custom method stats through X-Service-Method', async () => {
        const stats = await client.service('messages').stats!({});
        expect(stats).toEqual({ total: 3, authors: [{ userId: alice._id, count: 3 }] });
      });

      it('fills placeholders of a nested route from params.route', async () => {
        const page = (await client
          .service('users/:userId/messages')
          .find({ route: { userId: alice._id }, query: { $sort: { text: 1 } } })) as Paginated<Message>;
        expect(page.data.map((m) => m.text)).toEqual(['Hello world', 'apple pie', 'hello plume']);
        await expect(client.service('users/:userId/messages').find()).rejects.toThrow(/params.route.userId/);
        await expect(
          client.service('users/:userId/messages').find({ route: { userId: 'nope' } }),
        ).rejects.toBeInstanceOf(BadRequest);
      });

      it('reads messages/stream as an async iterator, through client.events and through find', async () => {
        const events = await client.events<Message>('messages/stream');
        const found = await client.service('messages/stream').find();
        const sent = (await client.service('messages').create({ text: 'live' })) as Message;
        expect((await events.next()).value).toEqual(sent);
        for await (const message of found as AsyncIterable<Message>) {
          expect(message).toEqual(sent);
          break; // leaving the loop closes the connection
        }
        events.close();
        expect(await events.next()).toEqual({ done: true, value: undefined });
        await client.service('messages').remove(sent._id);
      });

      it('an error answer is a PlumeError instance with status code and class name', async () => {
        const error = await client
          .service('messages')
          .remove('64b7f0f0f0f0f0f0f0f0f0f0')
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(PlumeError);
        expect(error).toMatchObject({ name: 'NotFound', code: 404, className: 'not-found' });
      });
    });
  },
);
