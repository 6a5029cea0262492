import type { ObjectId } from 'mongodb';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createApp, type Params } from 'plume';
import {
  createClient,
  withAuthentication,
  type EventStream,
  type Paginate,
  type Paginated,
  type ServiceClient,
} from 'plume/client';
import { DocDbService } from 'plume/docdb';
import type { FrameworkApplication } from 'plume/express';

// Compile-time checks: `npm run typecheck` (tsc --noEmit) fails when a type is wrong. At run time
// the calls go to a fetch that answers `null`, so no server is needed.

interface Message {
  _id: ObjectId;
  text: string;
  createdAt: Date;
}
/** What a message looks like after JSON: ids and dates are strings. */
interface MessageJson {
  _id: string;
  text: string;
  createdAt: string;
}

class MessageService extends DocDbService<Message, { text: string }> {
  async stats(data: { since?: number }, _params?: Params): Promise<{ total: number; since?: number }> {
    return { total: 0, since: data.since };
  }
}

class MessageStream {
  async find(): Promise<AsyncIterableIterator<Message>> {
    throw new Error('not called');
  }
}

type Services = {
  messages: MessageService;
  pages: Paginate<MessageService>;
  lists: Paginate<MessageService, false>;
  'messages/stream': MessageStream;
  'users/:userId/messages': { find(params: Params): Promise<Message[]> };
};

const app = createApp<Services>();
const options = {
  fetch: async () => new Response('null', { headers: { 'content-type': 'application/json' } }),
};

describe('plume/client types', () => {
  it('reads the service map from typeof app, and from the map itself', () => {
    const fromApp = createClient<typeof app>('http://localhost:3030', options);
    const fromMap = createClient<Services>('http://localhost:3030', options);
    expectTypeOf(fromApp.service('messages')).toEqualTypeOf(fromMap.service('messages'));
    const fromExpress = createClient<FrameworkApplication<Services>>('http://localhost:3030', options);
    expectTypeOf(fromExpress.service('messages')).toEqualTypeOf(fromMap.service('messages'));
    // @ts-expect-error an unknown path is a type error
    fromApp.service('nowhere');
    expect(app.services).toEqual({});
  });

  it('types find by how the service paginates, get/create/patch/remove by its record and data', () => {
    const client = createClient<typeof app>('http://localhost:3030', options);
    const messages = client.service('messages');
    expectTypeOf(messages.find({ query: { $limit: 5 } })).toEqualTypeOf<
      Promise<Paginated<MessageJson> | MessageJson[]>
    >();
    expectTypeOf(client.service('pages').find({ query: { $limit: 5 } })).toEqualTypeOf<
      Promise<Paginated<MessageJson>>
    >();
    expectTypeOf(client.service('lists').find()).toEqualTypeOf<Promise<MessageJson[]>>();
    expectTypeOf(messages.get('1')).toEqualTypeOf<Promise<MessageJson>>();
    expectTypeOf(messages.create({ text: 'hi' })).toEqualTypeOf<Promise<MessageJson>>();
    expectTypeOf(messages.create([{ text: 'hi' }])).toEqualTypeOf<Promise<MessageJson[]>>();
    expectTypeOf(messages.patch('1', { text: 'hi' })).toEqualTypeOf<Promise<MessageJson>>();
    expectTypeOf(messages.patch(null, {}, { query: { text: 'a' } })).toEqualTypeOf<Promise<MessageJson[]>>();
    expectTypeOf(messages.remove('1')).toEqualTypeOf<Promise<MessageJson>>();
    // @ts-expect-error create takes the service's data type
    void messages.create({ title: 'hi' });
    // @ts-expect-error patch takes the service's patch data type
    void messages.patch('1', { text: 1 });
  });

  it('types custom methods, SSE answers and nested routes', () => {
    const client = createClient<typeof app>('http://localhost:3030', options);
    expectTypeOf(client.service('messages').stats).toEqualTypeOf<
      (
        data: { since?: number },
        params?: import('plume/client').ClientParams,
      ) => Promise<{ total: number; since?: number }>
    >();
    // @ts-expect-error a custom method takes its own data type
    void client.service('messages').stats({ since: 'yesterday' });
    // @ts-expect-error adapter internals are not custom methods
    void client.service('messages').getModel;
    expectTypeOf(client.service('messages/stream').find()).toEqualTypeOf<Promise<EventStream<MessageJson>>>();
    // @ts-expect-error the stream service has no get
    void client.service('messages/stream').get;
    expectTypeOf(client.service('users/:userId/messages').find({ route: { userId: '1' } })).toEqualTypeOf<
      Promise<MessageJson[]>
    >();
  });

  it('keeps the types with authentication, and without a map every path is an untyped service', () => {
    const client = withAuthentication(createClient<typeof app>('http://localhost:3030', options));
    expectTypeOf(client.service('messages').get('1')).toEqualTypeOf<Promise<MessageJson>>();
    const untyped = createClient('http://localhost:3030', options);
    expectTypeOf(untyped.service('anything')).toEqualTypeOf<ServiceClient<unknown>>();
    expectTypeOf(untyped.service('anything').get(1)).toEqualTypeOf<Promise<unknown>>();
  });
});
