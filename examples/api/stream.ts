import { BadRequest, isPlumeError } from 'plume/errors';
import { ServerSentEvent, type Application, type Params } from 'plume';
import type { ServiceDocs } from 'plume/openapi';
import { getSync } from 'plume/sync';
import { messageSchema } from './messages.js';

/** What a `Last-Event-ID` may hold: a position (hex resume token) of plume/sync. */
const POSITION = /^[0-9A-Fa-f]{1,512}$/;

/**
 * `messages/stream`: `GET /messages/stream` answers `text/event-stream` and pushes every message
 * created after the client connected, on any instance of the app (through plume/sync), as one
 * `id: <position>` + `data: <json>` event each, until the client leaves. A client reconnecting with
 * `Last-Event-ID` (EventSource does it by itself) first gets the messages created since that event.
 */
export class MessageStream {
  private readonly closers = new Set<() => void>();

  constructor(private readonly app: Application) {}

  async find(params: Params = {}): Promise<AsyncIterableIterator<ServerSentEvent>> {
    const after = params.headers?.['last-event-id'];
    if (after !== undefined && !POSITION.test(after))
      throw new BadRequest('Last-Event-ID is not an event id of this stream');
    const sync = getSync(this.app);
    if (!sync) throw new Error('messages/stream needs plume/sync configured on the app');
    const events = sync.follow({ path: 'messages', event: 'created', after });
    // Answer once the feed is open, so every message created after the response started is in it.
    try {
      await events.ready;
    } catch (error) {
      void events.return?.();
      // plume/sync refuses a position the database cannot read (400) or no longer holds (410).
      if (isPlumeError(error) && error.code === 400)
        throw new BadRequest('Last-Event-ID is not an event id of this stream');
      throw error;
    }
    const close = (): void => {
      this.closers.delete(close);
      void events.return?.();
    };
    this.closers.add(close);
    const stream: AsyncIterableIterator<ServerSentEvent> = {
      async next(): Promise<IteratorResult<ServerSentEvent>> {
        const item = await events.next();
        if (item.done === true) return { value: undefined, done: true };
        return { value: new ServerSentEvent(item.value.data, item.value.position), done: false };
      },
      async return(): Promise<IteratorResult<ServerSentEvent>> {
        close();
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]() {
        return stream;
      },
    };
    return stream;
  }

  /** Ends every open stream (their responses finish), so shutdown need not wait for clients that never leave. */
  end(): void {
    for (const close of this.closers) close();
  }

  async teardown(): Promise<void> {
    this.end();
  }
}

/** Registers `messages/stream` (after `messages`, whose `created` events it follows). */
export function messageStream(app: Application): void {
  const openapi: ServiceDocs = {
    tag: 'messages',
    result: messageSchema,
    methods: {
      find: {
        summary: 'Follow new messages',
        description:
          'One `id: <position>` + `data: <message>` event per new message, created on any instance; `Last-Event-ID` resumes after that event.',
        contentType: 'text/event-stream',
      },
    },
  };
  app.use('messages/stream', new MessageStream(app), { methods: ['find'], openapi });
}
