// The FeathersJS 5 chat guide's messages service (messages.schema.ts, messages.class.ts, messages.ts),
// with a custom method, after the renames of docs/migrating-from-feathers.md.
import { authenticate } from 'plume/authentication'; // was: '@feathersjs/authentication'
import { DocDbService, type DocDbParams, type DocDbServiceOptions } from 'plume/docdb'; // was: MongoDBService, MongoDBAdapterParams, MongoDBAdapterOptions from '@feathersjs/mongodb'
import { BadRequest } from 'plume/errors'; // was: '@feathersjs/errors'
import * as schemaHooks from 'plume/schema'; // was: { hooks as schemaHooks } from '@feathersjs/schema'
import { getValidator, ObjectIdSchema, querySyntax, resolve, Type, virtual, type Static } from 'plume/schema'; // was: '@feathersjs/typebox', '@feathersjs/schema'
import type { Db } from 'mongodb';
import type { Application, HookContext } from './declarations.js';
import { userSchema, type User } from './users.js';
import { dataValidator, queryValidator } from './validators.js';

export const messageSchema = Type.Object(
  {
    _id: ObjectIdSchema(),
    text: Type.String(),
    createdAt: Type.Number(),
    userId: ObjectIdSchema(),
    read: Type.Optional(Type.Boolean()),
    user: Type.Ref(userSchema),
  },
  { $id: 'Message', additionalProperties: false },
);
export type Message = Static<typeof messageSchema>;
export const messageValidator = getValidator(messageSchema, dataValidator);
export const messageResolver = resolve<Message, HookContext>({
  user: virtual(async (message, context) => {
    // Associate the user that sent the message
    return context.app.service('users').get(String(message.userId)); // was: .get(message.userId) (context.app is untyped)
  }),
});

export const messageExternalResolver = resolve<Message, HookContext>({});

export const messageDataSchema = Type.Pick(messageSchema, ['text'], { $id: 'MessageData' });
export type MessageData = Static<typeof messageDataSchema>;
export const messageDataValidator = getValidator(messageDataSchema, dataValidator);
export const messageDataResolver = resolve<Message, HookContext>({
  userId: async (_value, _message, context) => (context.params.user as User)._id,
  createdAt: async () => Date.now(),
});

export const messagePatchSchema = Type.Partial(Type.Pick(messageSchema, ['text', 'read']), {
  $id: 'MessagePatch',
});
export type MessagePatch = Static<typeof messagePatchSchema>;
export const messagePatchValidator = getValidator(messagePatchSchema, dataValidator);

export const messageQueryProperties = Type.Pick(messageSchema, [
  '_id',
  'text',
  'createdAt',
  'userId',
  'read',
]);
// was: Type.Intersect (TypeBox 0.25, which FeathersJS 5 uses, merged objects; 0.26+ Composite does)
export const messageQuerySchema = Type.Composite(
  [querySyntax(messageQueryProperties), Type.Object({}, { additionalProperties: false })],
  { additionalProperties: false },
);
export type MessageQuery = Static<typeof messageQuerySchema>;
export const messageQueryValidator = getValidator(messageQuerySchema, queryValidator);
export const messageQueryResolver = resolve<MessageQuery, HookContext>({
  // External clients only ever change their own messages
  userId: async (value, _query, context) => {
    if (context.params.provider && context.method !== 'find' && context.method !== 'get') {
      return (context.params.user as User)._id;
    }
    return value;
  },
});

export type MessageParams = DocDbParams<MessageQuery>; // was: MongoDBAdapterParams<MessageQuery>

export class MessageService extends DocDbService<Message, MessageData, MessageParams, MessagePatch> {
  // A custom method: POST /messages with `X-Service-Method: markRead`
  async markRead(data: { ids?: unknown }, params?: MessageParams) {
    if (!Array.isArray(data.ids)) throw new BadRequest('ids must be an array', { data: { field: 'ids' } }); // was: ('ids must be an array', { field: 'ids' })
    return Promise.all(data.ids.map((id) => this.patch(String(id), { read: true }, params)));
  }
}

export const getOptions = (app: Application): DocDbServiceOptions => ({
  paginate: app.get('paginate') as DocDbServiceOptions['paginate'],
  multi: ['remove'],
  Model: (app.get('mongodbClient') as Promise<Db>).then((db) => db.collection('messages')),
});

export const messagePath = 'messages';
export const messageMethods = ['find', 'get', 'create', 'patch', 'remove', 'markRead'] as const;

export const message = (app: Application) => {
  app.use(messagePath, new MessageService(getOptions(app)), {
    methods: [...messageMethods],
    events: [],
  });
  app.service(messagePath).hooks({
    around: {
      all: [
        authenticate('jwt'),
        schemaHooks.resolveExternal(messageExternalResolver),
        schemaHooks.resolveResult(messageResolver),
      ],
    },
    before: {
      all: [schemaHooks.validateQuery(messageQueryValidator), schemaHooks.resolveQuery(messageQueryResolver)],
      find: [],
      get: [],
      create: [schemaHooks.validateData(messageDataValidator), schemaHooks.resolveData(messageDataResolver)],
      patch: [schemaHooks.validateData(messagePatchValidator)],
      remove: [],
    },
    after: { all: [] },
    error: { all: [] },
  });
};
