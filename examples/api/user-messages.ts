import type { Application, Params } from 'plume';
import type { ServiceDocs } from 'plume/openapi';
import { messageOptionParameters, messageQuerySchema, messageResultSchema } from './messages.js';

/**
 * `users/:userId/messages`: one user's messages, e.g. `GET /users/<id>/messages?$sort[createdAt]=-1`.
 * It calls `messages` with the caller's params, so the same validation, paging and `include=user` apply.
 */
export class UserMessages {
  constructor(private readonly app: Application) {}

  async find(params: Params) {
    const query = { ...params.query, userId: params.route?.userId };
    return this.app.service('messages').find({ ...params, query });
  }
}

/** Registers `users/:userId/messages`. */
export function userMessages(app: Application): void {
  const openapi: ServiceDocs = {
    name: 'Message',
    tag: 'messages',
    result: messageResultSchema,
    query: messageQuerySchema,
    parameters: messageOptionParameters,
    paginate: true, // it answers what `messages` answers
  };
  app.use('users/:userId/messages', new UserMessages(app), { methods: ['find'], openapi });
}
