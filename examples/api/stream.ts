import type { EventEmitter } from 'node:events';
import type { Application } from 'plume';
import type { ServiceDocs } from 'plume/openapi';
import { messageSchema } from './messages.js';

/** Most messages kept for a client that reads slower than they arrive; older ones are dropped. */
const QUEUE_LIMIT = 100;

/**
 * `messages/stream`: `GET /messages/stream` answers `text/event-stream` and pushes every message
 * created after the client connected, as one `data: <json>` event each, until the client leaves.
 */
export class MessageStream {
  private readonly closers = new Set<() => void>();

  constructor(private readonly app: Application) {}

  async find(): Promise<AsyncIterableIterator<unknown>> {
    return this.follow(this.app.service('messages') as unknown as EventEmitter, 'created');
  }

  /** Ends every open stream (their responses finish), so shutdown need not wait for clients that never leave. */
  end(): void {
    for (const close of this.closers) close();
  }

  async teardown(): Promise<void> {
    this.end();
  }

  private follow(emitter: EventEmitter, event: string): AsyncIterableIterator<unknown> {
    const queue: unknown[] = [];
    let wake: (() => void) | undefined;
    let closed = false;
    const listener = (item: unknown): void => {
      if (queue.length === QUEUE_LIMIT) queue.shift();
      queue.push(item);
      wake?.();
    };
    const close = (): void => {
      closed = true;
      emitter.off(event, listener);
      this.closers.delete(close);
      wake?.();
    };
    emitter.on(event, listener);
    this.closers.add(close);

    return {
      async next(): Promise<IteratorResult<unknown>> {
        while (queue.length === 0 && !closed) await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
        return queue.length > 0 ? { value: queue.shift(), done: false } : { value: undefined, done: true };
      },
      async return(): Promise<IteratorResult<unknown>> {
        close();
        queue.length = 0;
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
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
        description: 'One `data: <message>` event per new message.',
        contentType: 'text/event-stream',
      },
    },
  };
  app.use('messages/stream', new MessageStream(app), { methods: ['find'], openapi });
}
